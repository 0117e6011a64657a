"""Relay's own data scrubbing (sentry-relay, the library Sentry's ingest runs) over a scrubbing corpus.

Usage: relay_scrub.py [--datascrubbing JSON | --pii-config FILE | --normalized] CORPUS...
Each CORPUS is a JSON file {"sdk": ..., "events": [...], "secrets": [...], "lookalikes": [...]} (Tests/peers/scrubbing/).
Normalizes each of its events as Relay's store normalizer does, strips it with the PII config Sentry derives for a
project, and prints one JSON line for it: the stripped event, without `_meta`, in corpus order.
The config is Sentry's default for a new project; --datascrubbing overrides some of its settings (a JSON object of
scrubData, scrubDefaults, scrubIpAddresses, sensitiveFields, excludeFields); or --pii-config FILE gives a Relay PII
config, used as is; --normalized prints each event as the normalizer leaves it, unstripped.
"""
import argparse
import json

from sentry_relay import convert_datascrubbing_config, pii_strip_event, validate_pii_config
from sentry_relay.processing import StoreNormalizer

DEFAULT_DATASCRUBBING = {
    "scrubData": True,
    "scrubDefaults": True,
    "scrubIpAddresses": False,
    "sensitiveFields": [],
    "excludeFields": [],
}


def pii_config(arguments):
    """The Relay PII config to strip with: the one given, or the one Sentry derives from its project settings."""
    if arguments.pii_config:
        with open(arguments.pii_config, encoding="utf-8") as file:
            text = file.read()
        validate_pii_config(text)
        return json.loads(text)
    overrides = json.loads(arguments.datascrubbing) if arguments.datascrubbing else {}
    return convert_datascrubbing_config({**DEFAULT_DATASCRUBBING, **overrides})


def main():
    parser = argparse.ArgumentParser(description="Relay's data scrubbing over a scrubbing corpus.")
    choice = parser.add_mutually_exclusive_group()
    choice.add_argument("--datascrubbing", help="JSON object overriding Sentry's default data scrubbing settings")
    choice.add_argument("--pii-config", help="file holding a Relay PII config, used as is")
    choice.add_argument("--normalized", action="store_true", help="print the normalized events, unstripped")
    parser.add_argument("corpus", nargs="+")
    arguments = parser.parse_args()
    config = None if arguments.normalized else pii_config(arguments)
    normalizer = StoreNormalizer(project_id=1)
    for name in arguments.corpus:
        with open(name, encoding="utf-8") as file:
            corpus = json.load(file)
        for event in corpus["events"]:
            normalized = normalizer.normalize_event(event)
            stripped = normalized if config is None else pii_strip_event(config, normalized)
            stripped.pop("_meta", None)
            print(json.dumps(stripped, ensure_ascii=False, separators=(",", ":")))


if __name__ == "__main__":
    main()
