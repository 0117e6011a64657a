"""Relay's own normalizer (sentry-relay, the library Sentry's ingest runs) over Faultline's transactions and events.

Usage: relay_normalize.py FILE...
Normalizes each JSON line of each FILE as Relay's store normalizer does, and prints one JSON line for it: its event_id,
type, the errors Relay recorded (or why it refused the event whole), the fields Relay changed or removed (from `_meta`), and how many spans it kept.
"""
import json
import sys

from sentry_relay import ProcessingError
from sentry_relay.processing import StoreNormalizer


def meta_paths(meta, path=""):
    """The paths in `_meta` where Relay left a note: a value it removed, trimmed or found invalid."""
    for key, value in (meta or {}).items():
        here = f"{path}.{key}" if path else key
        if key == "":
            yield path
        elif isinstance(value, dict):
            yield from meta_paths(value, here)


def main():
    normalizer = StoreNormalizer(project_id=1)
    for name in sys.argv[1:]:
        with open(name, encoding="utf-8") as file:
            for line in file:
                if not line.strip():
                    continue
                event = json.loads(line)
                try:
                    normalized = normalizer.normalize_event(event)
                except ProcessingError as error:  # a transaction Relay refuses whole: reported, not raised
                    first = str(error).splitlines()[0]
                    print(json.dumps({"event_id": event.get("event_id"), "type": event.get("type"), "errors": [first],
                                      "meta": [], "spans": 0, "trace": None}))
                    continue
                print(
                    json.dumps(
                        {
                            "event_id": normalized.get("event_id"),
                            "type": normalized.get("type"),
                            "errors": normalized.get("errors") or [],
                            "meta": sorted(meta_paths(normalized.get("_meta"))),
                            "spans": len(normalized.get("spans") or []),
                            "trace": (normalized.get("contexts") or {}).get("trace"),
                        }
                    )
                )


if __name__ == "__main__":
    main()
