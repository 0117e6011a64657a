"""The official Sentry Python SDK sending what a stranger holding the DSN could: text with terminal escapes.

Usage: hostile_sdk_client.py DSN
Captures a message that clears the screen, retitles the window and forges a line of `faultline tail`, and a
ZeroDivisionError for a user whose id holds a right-to-left override, then flushes.
"""
import os
import signal
import sys

import sentry_sdk

# How many times slower the suite runs (scripts/sanitize sets it): the wait for delivery allows for it.
# The suite's patience, which PythonPeer passes: flush returns as soon as the SDK's queue is empty, so only a failure
# waits this long.
PATIENCE = float(os.environ.get("FAULTLINE_TEST_PATIENCE", "60"))

# Swift starts child processes with most signals blocked; the SDK's worker thread needs them as usual.
signal.pthread_sigmask(signal.SIG_SETMASK, [])

FORGED = "\x1b[2J\x1b]0;pwned\x07checkout failed\nFAKE 2026-11-24T00:00:00Z  server  500 injected"


def main():
    sentry_sdk.init(dsn=sys.argv[1], release="shop-py@1.0")
    sentry_sdk.capture_message(FORGED)
    with sentry_sdk.new_scope() as scope:
        scope.set_user({"id": "ana\u202egnp.exe"})
        try:
            1 / 0
        except ZeroDivisionError:
            sentry_sdk.capture_exception()
    sentry_sdk.flush(timeout=PATIENCE)


if __name__ == "__main__":
    main()
