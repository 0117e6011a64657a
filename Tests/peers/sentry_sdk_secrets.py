"""The official Sentry Python SDK leaking secrets where apps do: in free text that no key names.

Usage: PLANTED_SECRETS=JSON sentry_sdk_secrets.py DSN
PLANTED_SECRETS (not an argument: the SDK sends sys.argv as extra) maps names to secret values (jwt, api_key, bearer, basic, git_password, token, refresh_token,
log_password, db_password, access_token, card, private_key, client_secret, auth_token, comment_key, local_password).
Sends five errors, a message and a logged error, each carrying some of them, then flushes.
"""
import json
import logging
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


def fail(message):
    local_note = "password=" + secrets["local_password"]  # noqa: F841, a local variable the SDK sends with the frame
    raise RuntimeError(message)


def capture(error_type, message):
    try:
        raise error_type(message)
    except Exception:
        sentry_sdk.capture_exception()


def add_request(event, hint):
    event["request"] = {
        "method": "POST",
        "url": "https://shop.test/api/comments",
        "data": {"comment": "my key is api_key=" + secrets["comment_key"]},
    }
    return event


secrets = json.loads(os.environ["PLANTED_SECRETS"])


def main():
    sentry_sdk.init(dsn=sys.argv[1], release="shop-py@1.0", environment="staging")
    sentry_sdk.set_tag("callback", "https://hooks.test/cb?access_token=" + secrets["access_token"])
    sentry_sdk.set_extra("debug", "DATABASE_URL=postgres://app:" + secrets["db_password"] + "@db.internal/app")
    sentry_sdk.set_context("response", {"body_preview": "<html>debug: api_key=" + secrets["api_key"] + "</html>"})
    sentry_sdk.add_breadcrumb(category="http", message="Authorization: Bearer " + secrets["bearer"])
    sentry_sdk.add_breadcrumb(category="http", message="Authorization: Basic " + secrets["basic"])
    sentry_sdk.add_breadcrumb(
        category="git",
        message="mirroring",
        data={
            "remote": "https://deploy:" + secrets["git_password"] + "@git.internal/app.git",
            "note": "retry with token=" + secrets["token"],
        },
    )
    logging.getLogger("shop.auth").warning("refreshing with refresh_token=" + secrets["refresh_token"])
    sentry_sdk.get_current_scope().add_event_processor(add_request)

    # The server's error message that echoes the token it rejected, and its HTML debug page
    capture(PermissionError, '{"error":{"code":50001,"message":"invalid token ' + secrets["jwt"] + '"}}')
    capture(RuntimeError, "HTTP 500: <html>debug: api_key=" + secrets["api_key"] + "</html>")
    capture(ValueError, "bad key -----BEGIN RSA PRIVATE KEY-----\n" + secrets["private_key"]
            + "\n-----END RSA PRIVATE KEY-----")
    capture(KeyError, 'rejected body {"client_id": "shop-py", "client_secret": "' + secrets["client_secret"] + '"}')
    capture(ConnectionError, "proxy said X-Auth-Token: " + secrets["auth_token"])
    try:
        fail("checkout failed")
    except RuntimeError:
        sentry_sdk.capture_exception()
    sentry_sdk.capture_message("card " + secrets["card"] + " was declined")
    logging.getLogger("shop.auth").error("login failed for password=" + secrets["log_password"])
    sentry_sdk.flush(timeout=PATIENCE)  # returns nothing: the test reads what arrived


if __name__ == "__main__":
    main()
