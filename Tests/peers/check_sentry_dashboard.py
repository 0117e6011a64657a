"""Validates a Sentry dashboard body with jsonschema and lists the tags and fields its queries reference.

Usage: check_sentry_dashboard.py DASHBOARD.json SCHEMA.json
On success prints {"tags": [...], "fields": [...]} as JSON; otherwise exits 1 with what is wrong.

Names are read as Sentry's Discover reads them: `tags[x]` is always the tag x; a plain name is a built-in field when
Sentry has one by that name (below) and a tag otherwise. Functions count as fields (`count_unique(user)`), and so
does the field their first argument names (`user`).
"""
import json
import re
import sys

from jsonschema import Draft202012Validator

# Built-in error-event fields of Sentry's Discover: the aliases in src/sentry/snuba/events.py (getsentry/sentry), a
# few field aliases (issue, project, error.unhandled) and level; then prefixes of the built-in families.
# `http.method` and `http.status_code` are among them, so Faultline's tags of those names need `tags[...]`.
BUILT_IN = {
    "id", "issue", "issue.id", "project", "project.id", "timestamp", "time", "culprit", "location", "message",
    "platform.name", "environment", "release", "dist", "title", "event.type", "level", "transaction", "user",
    "http.method", "http.referer", "http.url", "http.status_code", "error.type", "error.value", "error.mechanism",
    "error.handled", "error.unhandled", "error.main_thread", "error.received", "trace", "replay.id",
}
BUILT_IN_PREFIXES = ("user.", "sdk.", "os.", "device.", "geo.", "stack.", "trace.", "app.")
TAG = re.compile(r"^tags\[(.+)\]$")
FUNCTION = re.compile(r"([a-z_]+)\(([^()]*)\)")
# A `key:` in a search query, with quoted values blanked out first; `has:name` names a field in its value.
CONDITION_KEY = re.compile(r"(?:^|(?<=[\s(]))!?(tags\[[^\]\s]+\]|[\w.\-]+(?:\([^()]*\))?):(\S*)")


def add_name(name, found):
    tag = TAG.match(name)
    if tag:
        found["tags"].add(tag.group(1))
    elif name in BUILT_IN or name.startswith(BUILT_IN_PREFIXES):
        found["fields"].add(name)
    elif name:
        found["tags"].add(name)


def add_expression(expression, found):
    expression = expression.lstrip("-").removeprefix("equation|").strip()
    calls = FUNCTION.findall(expression)
    for function, arguments in calls:
        found["fields"].add(f"{function}({arguments})")
        first = arguments.split(",")[0].strip()
        if first and not re.fullmatch(r"[\d.]+", first):
            add_name(first, found)
    if not calls:
        add_name(expression, found)


def add_conditions(conditions, found):
    unquoted = re.sub(r'"(?:\\.|[^"\\])*"', '""', conditions)
    for key, value in CONDITION_KEY.findall(unquoted):
        if key in ("has", "is"):
            if key == "has":
                add_name(value, found)
        else:
            add_expression(key, found)


def references(dashboard):
    found = {"tags": set(), "fields": set()}
    for widget in dashboard.get("widgets", []):
        for query in widget.get("queries", []):
            for key in ("fields", "aggregates", "columns"):
                for expression in query.get(key) or []:
                    add_expression(expression, found)
            if query.get("orderby"):
                add_expression(query["orderby"], found)
            add_conditions(query.get("conditions", ""), found)
    return {kind: sorted(names) for kind, names in found.items()}


def problems(dashboard, schema):
    Draft202012Validator.check_schema(schema)
    validator = Draft202012Validator(schema, format_checker=Draft202012Validator.FORMAT_CHECKER)
    for error in sorted(validator.iter_errors(dashboard), key=lambda e: list(map(str, e.absolute_path))):
        yield f"{error.json_path}: {error.message}"
    for index, widget in enumerate(dashboard.get("widgets", []) if isinstance(dashboard, dict) else []):
        layout = widget.get("layout") if isinstance(widget, dict) else None
        if isinstance(layout, dict) and isinstance(layout.get("x"), int) and isinstance(layout.get("w"), int):
            if layout["x"] + layout["w"] > 6:
                yield f"$.widgets[{index}].layout: x + w is {layout['x'] + layout['w']}, more than the 6 columns"


def load(path):
    with open(path, encoding="utf-8") as handle:
        return json.load(handle)


def main():
    if len(sys.argv) != 3:
        sys.exit("usage: check_sentry_dashboard.py DASHBOARD.json SCHEMA.json")
    try:
        dashboard, schema = load(sys.argv[1]), load(sys.argv[2])
        found = list(problems(dashboard, schema))
    except Exception as error:  # noqa: BLE001 - unreadable JSON or an invalid schema: report it and fail
        sys.exit(f"check_sentry_dashboard: {error}")
    if found:
        sys.exit(f"{sys.argv[1]} does not match {sys.argv[2]}:\n" + "\n".join(found))
    print(json.dumps(references(dashboard)))


if __name__ == "__main__":
    main()
