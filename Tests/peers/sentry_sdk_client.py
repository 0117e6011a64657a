"""The official Sentry Python SDK as a client of `faultline serve`: errors with users, tags and breadcrumbs.

Usage: sentry_sdk_client.py DSN
Captures ValueError("cart is empty") for users ana, bo and ana, and the message "slow checkout", then flushes.
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


def checkout():
    raise ValueError("cart is empty")


def main():
    # send_default_pii keeps the user's ip_address, which the SDK drops otherwise
    sentry_sdk.init(dsn=sys.argv[1], release="shop-py@1.0", environment="staging", send_default_pii=True)
    for user in ["ana", "bo", "ana"]:
        with sentry_sdk.new_scope() as scope:
            scope.set_user(
                {
                    "id": user,
                    "email": f"{user}@example.com",
                    "username": f"{user}.k",
                    "segment": "pro",
                    "ip_address": "203.0.113.7",
                }
            )
            scope.set_tag("http.route", "/checkout")
            scope.set_tag("region", "eu-west")
            sentry_sdk.add_breadcrumb(category="ui", message="tapped pay")
            try:
                checkout()
            except ValueError:
                sentry_sdk.capture_exception()
    sentry_sdk.capture_message("slow checkout")
    sentry_sdk.flush(timeout=PATIENCE)  # returns nothing: the test reads what arrived


if __name__ == "__main__":
    main()
