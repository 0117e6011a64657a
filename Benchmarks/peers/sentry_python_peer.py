"""The official Sentry Python SDK as the baseline of the reporting benchmarks.

Started by `Benchmarks/Sources/ReportingPipeline`, it sends the same event JSON that Faultline sends to the same
loopback endpoint, on command, so that both sides run interleaved in one benchmark run:

    sentry_python_peer.py DSN EVENT_FILE QUEUE_SIZE

It prints `ready` once the SDK is initialised, then reads one command per line from stdin and answers each with
one JSON line on stdout:

    burst N     captures N events back to back, timing each `capture_event` call, then flushes:
                {"nanoseconds": [...]}
    isolated N  the same, flushing and pausing 2 ms after each capture (untimed)
    deliver N   captures N events as fast as it can, then flushes: {"captured": N, "ids": <event ids returned>}

It exits at the end of stdin, after closing the SDK.
"""

import json
import signal
import sys
import time

import sentry_sdk


def main() -> None:
    # A Swift parent starts its children with most signals blocked; restore the defaults.
    signal.pthread_sigmask(signal.SIG_SETMASK, [])
    dsn, event_file, queue_size = sys.argv[1], sys.argv[2], int(sys.argv[3])
    with open(event_file, encoding="utf-8") as file:
        template = json.load(file)
    template.pop("event_id", None)
    sentry_sdk.init(dsn=dsn, transport_queue_size=queue_size, auto_session_tracking=False, shutdown_timeout=30)
    print("ready", flush=True)
    for line in sys.stdin:
        command, count = line.split()
        count = int(count)
        if command in ("burst", "isolated"):
            timings = []
            for _ in range(count):
                event = dict(template)
                start = time.perf_counter_ns()
                sentry_sdk.capture_event(event)
                timings.append(time.perf_counter_ns() - start)
                if command == "isolated":
                    sentry_sdk.flush(timeout=60)
                    time.sleep(0.002)  # the same idle pause as the other sides
            sentry_sdk.flush(timeout=60)
            print(json.dumps({"nanoseconds": timings}), flush=True)
        elif command == "deliver":
            ids = sum(1 for _ in range(count) if sentry_sdk.capture_event(dict(template)) is not None)
            sentry_sdk.flush(timeout=120)
            print(json.dumps({"captured": count, "ids": ids}), flush=True)
        else:
            raise SystemExit(f"unknown command {command!r}")
    sentry_sdk.get_client().close(timeout=30)


if __name__ == "__main__":
    main()
