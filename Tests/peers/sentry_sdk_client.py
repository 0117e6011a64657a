"""The official Sentry Python SDK as a client of `faultline serve`: errors with users, tags and breadcrumbs.

Usage: sentry_sdk_client.py DSN
Captures ValueError("cart is empty") for users ana, bo and ana, and the message "slow checkout" for user cy, whose
address is `{{auto}}`, then flushes. The
ValueError is raised by a hook the standard library's json calls: its stack trace has the app's frames around the
library's, whose in_app the SDK leaves out.
"""
import json
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


def refuse_empty_cart(cart):
    raise ValueError("cart is empty")


def checkout():
    json.loads('{"items": []}', object_hook=refuse_empty_cart)


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
    with sentry_sdk.new_scope() as scope:
        # {{auto}}: the ingest fills in the address the event came from
        scope.set_user({"id": "cy", "ip_address": "{{auto}}"})
        sentry_sdk.capture_message("slow checkout")
    sentry_sdk.flush(timeout=PATIENCE)  # returns nothing: the test reads what arrived


if __name__ == "__main__":
    main()
