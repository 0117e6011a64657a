"""A webhook receiver on loopback for the tests of `faultline watch`, in a process of its own so that how fast it
answers does not depend on the test runner's load.

Usage: webhook_receiver.py RECORD_FILE [STATUS[:RETRY_AFTER] ...]

Prints the port it listens on, then appends each POST it receives to RECORD_FILE as one JSON line (the path, the
headers with lower-case names, the body in base64), and answers with the STATUSes given, in order, then 200; a
STATUS followed by `:` and a value sends that value as its `Retry-After` header.
"""

import base64
import http.server
import json
import sys


def main() -> None:
    record_file = sys.argv[1]
    answers = [answer.partition(":") for answer in sys.argv[2:]]

    class Handler(http.server.BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
            post = {
                "path": self.path,
                "headers": {name.lower(): value for name, value in self.headers.items()},
                "body": base64.b64encode(body).decode("ascii"),
            }
            with open(record_file, "a", encoding="utf-8") as record:
                record.write(json.dumps(post) + "\n")
            status, _, retry_after = answers.pop(0) if answers else ("200", "", "")
            self.send_response(int(status))
            if retry_after:
                self.send_header("Retry-After", retry_after)
            self.send_header("Content-Length", "0")
            self.end_headers()

        def log_message(self, format: str, *args: object) -> None:
            pass

    server = http.server.HTTPServer(("127.0.0.1", 0), Handler)
    print(server.server_address[1], flush=True)
    server.serve_forever()


if __name__ == "__main__":
    main()
