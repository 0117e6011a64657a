"""The official Sentry Python SDK timing requests to an API, sampled: each transaction holds one http.client span.

Usage: sentry_sdk_requests.py DSN SAMPLE_RATE COUNT
Runs COUNT transactions ("GET /profile/{i}", op http.server) with traces_sample_rate=SAMPLE_RATE, each with an
http.client span "GET https://api.example.com/users/{i}": every 4th answered 503 (span status internal_error), the
others 200. Prints how many transactions the SDK sampled, then flushes.
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
    dsn, rate, count = sys.argv[1], float(sys.argv[2]), int(sys.argv[3])
    # A queue as long as the run, so that the worker drops nothing while the loop outpaces it.
    sentry_sdk.init(dsn=dsn, release="api-py@2.0", environment="production", traces_sample_rate=rate,
                    transport_queue_size=count + 10)
    sampled = 0
    for index in range(count):
        with sentry_sdk.start_transaction(op="http.server", name=f"GET /profile/{index}", source="url") as transaction:
            url = f"https://api.example.com/users/{index}"
            with sentry_sdk.start_span(op="http.client", name=f"GET {url}") as span:
                status = 503 if index % 4 == 3 else 200
                span.set_data("http.request.method", "GET")
                span.set_data("url", url)
                span.set_data("http.response.status_code", status)
                span.set_status("internal_error" if status >= 500 else "ok")
            sampled += 1 if transaction.sampled else 0
    print(sampled, flush=True)
    sentry_sdk.flush(timeout=PATIENCE)  # returns nothing: the test reads what arrived


if __name__ == "__main__":
    main()
