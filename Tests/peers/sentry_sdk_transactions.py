"""The official Sentry Python SDK sending transactions to `faultline serve`: traces_sample_rate=1.0.

Usage: sentry_sdk_transactions.py DSN
Runs two "GET /checkout" transactions (op http.server), each with an http.client span to a payment API whose URL
holds an api_key, and a db span; the second raises ValueError("card declined"), captured inside it. Then flushes.
"""
import os
import signal
import sys

import sentry_sdk

# The suite's patience, which PythonPeer passes: flush returns as soon as the SDK's queue is empty, so only a failure
# waits this long.
PATIENCE = float(os.environ.get("FAULTLINE_TEST_PATIENCE", "60"))

# Swift starts child processes with most signals blocked; the SDK's worker thread needs them as usual.
signal.pthread_sigmask(signal.SIG_SETMASK, [])


def main():
    sentry_sdk.init(dsn=sys.argv[1], release="shop-py@1.0", environment="staging", traces_sample_rate=1.0)
    for attempt in range(2):
        with sentry_sdk.start_transaction(op="http.server", name="GET /checkout", source="route"):
            with sentry_sdk.start_span(
                op="http.client", name="POST https://pay.example.com/charge?api_key=sk_live_0123456789abcdef"
            ) as span:
                span.set_data("http.request.method", "POST")
                span.set_data("http.response.status_code", 402 if attempt else 200)
            with sentry_sdk.start_span(op="db", name="SELECT * FROM carts WHERE id = %s"):
                pass
            if attempt:
                try:
                    raise ValueError("card declined")
                except ValueError:
                    sentry_sdk.capture_exception()
    sentry_sdk.flush(timeout=PATIENCE)  # returns nothing: the test reads what arrived


if __name__ == "__main__":
    main()
