"""Parses envelope files with the official Sentry Python SDK's parser and prints what it read as JSON.

Usage: parse_envelopes.py FILE...   Exits 1 with a message when a file does not parse.
"""
import json
import sys

from sentry_sdk.envelope import Envelope


def describe(path):
    with open(path, "rb") as handle:
        raw = handle.read()
    envelope = Envelope.deserialize(raw)
    items = []
    for item in envelope.items:
        items.append({
            "type": item.type,
            "headers": item.headers,
            "payload": item.payload.json,
        })
    return {"headers": envelope.headers, "items": items}


def main():
    try:
        print(json.dumps([describe(path) for path in sys.argv[1:]], ensure_ascii=False))
    except Exception as error:  # noqa: BLE001 - report any parser failure to the Swift test
        print(f"sentry-sdk could not parse the envelope: {error!r}", file=sys.stderr)
        sys.exit(1)


if __name__ == "__main__":
    main()
