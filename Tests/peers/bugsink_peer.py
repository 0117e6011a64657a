"""A real Bugsink (from PyPI) on 127.0.0.1 for end-to-end tests, in a data folder of the caller's.

Usage:
  bugsink_peer.py serve DATA_DIR PORT   configure, migrate, create a project, print "DSN <dsn>", then serve until killed
  bugsink_peer.py events DATA_DIR       print the stored events as JSON: [{"issue": id, "event": {...}}, ...]

Digestion runs eagerly inside the ingest request (the `local` template), so an event is stored before its 200.
Quotas are raised far above what tests and benchmarks send: Bugsink's defaults are 1 000 events per 5 minutes and
5 000 per hour, both per project and for the whole installation.
"""
import json
import os
import signal
import subprocess
import sys

PROJECT_KEY = "0123456789abcdef0123456789abcdef"


def configure(data_dir, port):
    os.makedirs(data_dir, exist_ok=True)
    conf = os.path.join(data_dir, "bugsink_conf.py")
    if not os.path.exists(conf):
        subprocess.run(
            [os.path.join(sys.prefix, "bin", "bugsink-create-conf"), "--template", "local", "--host", "127.0.0.1",
             "--port", str(port), "-o", conf],
            check=True, stdout=subprocess.DEVNULL)
        with open(conf, "a") as handle:
            handle.write(f"""
_HERE = __import__("os").path.dirname(__import__("os").path.abspath(__file__))
DATABASES["default"]["NAME"] = _HERE + "/db.sqlite3"
DATABASES["snappea"]["NAME"] = _HERE + "/snappea.sqlite3"
BUGSINK["PHONEHOME"] = False
BUGSINK["INGEST_STORE_BASE_DIR"] = _HERE + "/ingestion"
BUGSINK["MAX_EVENTS_PER_PROJECT_PER_5_MINUTES"] = 1_000_000
BUGSINK["MAX_EVENTS_PER_PROJECT_PER_HOUR"] = 1_000_000
BUGSINK["MAX_EVENTS_PER_5_MINUTES"] = 1_000_000
BUGSINK["MAX_EVENTS_PER_HOUR"] = 1_000_000
SNAPPEA["WAKEUP_CALLS_DIR"] = _HERE + "/snappea.wakeup"
""")
    os.environ["DJANGO_SETTINGS_MODULE"] = "bugsink_conf"
    sys.path.insert(0, data_dir)


def django_setup(data_dir, port=0):
    configure(data_dir, port)
    import django
    django.setup()


def serve(data_dir, port):
    configure(data_dir, port)
    manage = os.path.join(sys.prefix, "bin", "bugsink-manage")
    env = dict(os.environ, PYTHONPATH=data_dir)
    for args in (["migrate", "--noinput"], ["migrate", "snappea", "--database=snappea", "--noinput"]):
        subprocess.run([manage, *args], check=True, env=env, cwd=data_dir, stdout=subprocess.DEVNULL)
    django_setup(data_dir, port)
    import uuid
    from projects.models import Project
    from teams.models import Team
    team, _ = Team.objects.get_or_create(name="faultline")
    project, _ = Project.objects.get_or_create(
        slug="faultline", defaults={"name": "faultline", "team": team, "sentry_key": uuid.UUID(PROJECT_KEY)})
    print(f"DSN http://{project.sentry_key.hex}@127.0.0.1:{port}/{project.id}", flush=True)
    os.execve(
        os.path.join(sys.prefix, "bin", "gunicorn"),
        ["gunicorn", "--bind", f"127.0.0.1:{port}", "--workers", "1", "--no-control-socket", "--log-level",
         "warning", "--chdir", data_dir, "bugsink.wsgi"],
        env)


def events(data_dir):
    django_setup(data_dir)
    from events.models import Event
    stored = [{"issue": str(event.issue_id), "event": event.get_parsed_data()}
              for event in Event.objects.order_by("digested_at")]
    print(json.dumps(stored, ensure_ascii=False))


if __name__ == "__main__":
    # A parent such as a Swift test process may start us with most signals blocked, and the mask survives execve:
    # unblock them so that gunicorn stops on SIGTERM.
    signal.pthread_sigmask(signal.SIG_SETMASK, [])
    command, data = sys.argv[1], sys.argv[2]
    if command == "serve":
        serve(data, int(sys.argv[3]))
    elif command == "events":
        events(data)
    else:
        sys.exit(f"unknown command {command}; use serve or events")
