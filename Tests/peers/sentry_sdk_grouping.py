"""The official Sentry Python SDK sending events that carry no fingerprint, for `faultline serve` to group as Sentry does.

Usage: sentry_sdk_grouping.py DSN
Sends, then flushes:
- KeyError raised by the same line for keys k1, k2, k3 (one issue: same in-app frames);
- log.error("Invoice %s failed to render", n) for four invoices (one issue: the logentry template);
- RuntimeError raised from a KeyError, twice with other keys (one issue: the chain's frames);
- capture_message("user 1234 not found") and "user 5678 not found" (one issue: numbers normalised);
- KeyError raised by another function (its own issue).
"""
import logging
import os
import signal
import sys

import sentry_sdk

# The suite's patience, which PythonPeer passes: flush returns as soon as the SDK's queue is empty, so only a failure
# waits this long.
PATIENCE = float(os.environ.get("FAULTLINE_TEST_PATIENCE", "60"))

# Swift starts child processes with most signals blocked; the SDK's worker thread needs them as usual.
signal.pthread_sigmask(signal.SIG_SETMASK, [])

ORDERS = {}
log = logging.getLogger("billing")


def lookup(order):
    return ORDERS[order]


def find(order):
    return ORDERS[order]


def checkout(order):
    try:
        lookup(order)
    except KeyError as error:
        raise RuntimeError("checkout failed") from error


def main():
    sentry_sdk.init(dsn=sys.argv[1], release="shop-py@2.0")
    for order in ["k1", "k2", "k3"]:
        try:
            lookup(order)
        except KeyError:
            sentry_sdk.capture_exception()
    for invoice in [101, 102, 103, 104]:
        log.error("Invoice %s failed to render", invoice)
    for order in ["c1", "c2"]:
        try:
            checkout(order)
        except RuntimeError:
            sentry_sdk.capture_exception()
    for user in [1234, 5678]:
        sentry_sdk.capture_message(f"user {user} not found")
    try:
        find("k1")
    except KeyError:
        sentry_sdk.capture_exception()
    sentry_sdk.flush(timeout=PATIENCE)


if __name__ == "__main__":
    main()
