#!/usr/bin/env python3
"""Hostile input at full size: every operation of the OpenAPI document, as an
administrator, with malformed JSON, every field of every body (nested ones included)
replaced by each hostile value, every query parameter and every path id. No answer may be
a 5xx, every refusal is the JSON error body, and the server's memory must come back to
about its idle size afterwards. `cargo test` runs a bounded version of the same walk."""

import http.client
import json
import os
import time
import urllib.parse
import uuid

import drill

HUGE = 1_000_000
# The walk stops sending after this long and says how far it got.
BUDGET = float(os.environ.get("DRILL_HOSTILE_SECONDS", "240"))

HOSTILE_VALUES = [
    ("a 1 MB string", "x" * HUGE),
    ("a 1 MB unicode string", "🧓🏽" * (HUGE // 8)),
    ("unicode", "Zoë Ⅻ 🧓🏽 \u202eevil\u202c 日本語 e\u0301 \ufffd"),
    ("a NUL byte", "a\u0000b"),
    ("a line break", "a\r\nTo: other@evil.test"),
    ("1e308", 1e308),
    ("-1", -1),
    ("0", 0),
    ("2^63", 2 ** 63),
    ("-2^63-1", -(2 ** 63) - 1),
    ("2^64", 2 ** 64),
    ("0.1", 0.1),
    ("true", True),
    ("an array", ["x"]),
    ("a long array", ["x"] * 10_000),
    ("an object", {"x": 1}),
    ("null", None),
    ("a bad id", "not-an-id"),
    ("an empty string", ""),
    ("spaces", "   "),
]

MALFORMED = [
    ("an empty body", b""),
    ("an open brace", b"{"),
    ("a cut-off object", b'{"a": '),
    ("an array", b"[]"),
    ("null", b"null"),
    ("a string", b'"text"'),
    ("1e999", b"1e999"),
    ("bytes that are not UTF-8", b'{"\xff\xfe": 1}'),
    ("a trailing comma", b'{"a": 1,}'),
    ("100,000 nested arrays", b"[" * 100_000),
    ("100,000 nested objects", b'{"a":' * 100_000),
    ("a body just over the limit", b'{"a": "' + b"x" * (1024 * 1024) + b'"}'),
]

BAD_IDS = [
    "not-an-id", "%00", "..%2F..%2Fetc%2Fpasswd", "x" * 5000,
    "00000000-0000-0000-0000-000000000000", "-1", "9223372036854775808",
    "%F0%9F%A7%93%F0%9F%8F%BD", "01a20000-0000-7000-8000-000000000000%0d%0aX-Evil:%201",
]

QUERY_VALUES = [
    "x" * 10_000, "x" * 60_000, urllib.parse.quote("Zoë 🧓🏽 \u202e"), "a%00b", "-1",
    "1e308", "9223372036854775808", "", "not-an-id", "%25",
    urllib.parse.quote("'; DROP TABLE intakes; --"), "2026-13-45", "99999-01-01",
]


def resolve(doc, schema):
    for _ in range(8):
        if not isinstance(schema, dict):
            return {}
        if "$ref" in schema:
            schema = doc["components"]["schemas"][schema["$ref"].rsplit("/", 1)[-1]]
            continue
        for key in ("allOf", "oneOf", "anyOf"):
            members = [m for m in schema.get(key, []) if m.get("type") != "null"]
            if len(members) == 1:
                schema = members[0]
                break
        else:
            return schema
    return schema


def sample(doc, schema, name="", depth=0):
    schema = resolve(doc, schema)
    if schema.get("enum"):
        return schema["enum"][0]
    for key in ("oneOf", "anyOf"):
        members = [m for m in schema.get(key, []) if m.get("type") != "null"]
        if members:
            return sample(doc, members[0], name, depth)
    kind = schema.get("type")
    if isinstance(kind, list):
        kind = next((k for k in kind if k != "null"), "null")
    if kind is None and "properties" in schema:
        kind = "object"
    lower = name.lower()
    if kind == "object":
        if depth >= 4:
            return {}
        return {field: sample(doc, prop, field, depth + 1)
                for field, prop in schema.get("properties", {}).items()}
    if kind == "array":
        return []
    if kind == "integer":
        return 1
    if kind == "number":
        return 1.5
    if kind == "boolean":
        return False
    if kind == "string":
        fmt = schema.get("format")
        if fmt == "date":
            return "2026-12-01"
        if fmt == "date-time":
            return "2026-12-01T10:00:00Z"
        if fmt == "uuid" or lower.endswith("_id"):
            return str(uuid.uuid4())
        if "email" in lower or lower == "to":
            return "family@agency.test"
        if "phone" in lower:
            return "(217) 555-0100"
        return "Ada"
    return None


def targets(body):
    found = []
    if isinstance(body, dict):
        for field, value in body.items():
            found.append((field,))
            if isinstance(value, dict):
                found.extend((field, inner) for inner in value)
    return found


def with_value(body, target, value):
    copy = json.loads(json.dumps(body))
    slot = copy
    for key in target[:-1]:
        slot = slot[key]
    slot[target[-1]] = value
    return copy


class Walker:
    def __init__(self, server):
        self.server = server
        self.cookie = drill.sign_in(server, drill.ADMIN, forwarded=drill.random_address())
        self.answers = drill.Counter()
        self.violations = []
        self.slow = []

    def send(self, method, path, raw, what, public, streams=False):
        began = time.monotonic()
        for _ in range(2):
            headers = {"x-forwarded-for": drill.random_address()}
            if raw is not None:
                headers["content-type"] = "application/json"
            try:
                if streams:
                    status, body = self.head(method, path, headers), b""
                else:
                    status, _, body = drill.request(self.server, method, path, raw=raw,
                                                    cookie=self.cookie, headers=headers,
                                                    timeout=30)
            except (OSError, http.client.HTTPException) as error:
                status, body = "no answer", f"{type(error).__name__}: {error}".encode()
            if status == 401 and not public:
                self.cookie = drill.sign_in(self.server, drill.ADMIN,
                                            forwarded=drill.random_address())
                continue
            break
        took = time.monotonic() - began
        if took > 2:
            self.slow.append(f"{method} {path[:80]} with {what}: {status} in {took:.1f} s")
            print(f"   slow: {self.slow[-1]}", flush=True)
        if self.server.died() is not None:
            self.violations.append(f"{method} {path[:80]} with {what}: the server died")
            raise SystemExit(self.report_death())
        self.answers.add(status)
        if status == "no answer" or status >= 500:
            print(f"   5xx: {method} {path[:80]} with {what}: {status} {body[:160]!r}", flush=True)
            self.violations.append(f"{method} {path[:80]} with {what}: {status} {body[:160]!r}")
        elif status >= 400 and not drill.is_error_body(body):
            self.violations.append(
                f"{method} {path[:80]} with {what}: {status} without an error body {body[:120]!r}")
        if path.startswith("/api/auth/sign-out"):
            self.cookie = drill.sign_in(self.server, drill.ADMIN, forwarded=drill.random_address())

    def report_death(self):
        print(f"   the server died (exit {self.server.died()}) after "
              f"{self.answers.total()} requests: {self.violations[-1]}")
        for line in self.slow[-10:]:
            print(f"   slow before it: {line}")
        return 1

    def head(self, method, path, headers):
        conn = http.client.HTTPConnection("127.0.0.1", self.server.port, timeout=10)
        try:
            conn.request(method, path, headers=dict(headers, cookie=self.cookie))
            return conn.getresponse().status
        finally:
            conn.close()


def main():
    work = drill.workdir("hostile")
    db = drill.demo_db(os.path.join(work, "hostile.db"), clients=40)
    server = drill.Server(db, os.path.join(work, "data"),
                          env={"CAREPATH_TRUST_PROXY": "1"}).start()
    code, out, err, _ = drill.carepath("serve", "--print-openapi")
    doc = json.loads(out)
    walker = Walker(server)
    # Real ids where the demo has them, so the hostile bodies reach stored records.
    status, _, body = drill.request(server, "GET", "/api/intakes?limit=1", cookie=walker.cookie)
    real = {}
    if status == 200:
        items = json.loads(body).get("items", [])
        if items:
            real["/api/intakes/{id}"] = items[0]["id"]
    time.sleep(1)
    idle = server.rss_kib()
    sampler = drill.Sampler(server)
    sampler.start()
    started = time.monotonic()

    operations = []
    for template, item in doc["paths"].items():
        for method, spec in item.items():
            if method.upper() in ("GET", "POST", "PUT", "DELETE"):
                operations.append((method.upper(), template, spec))
    operations.sort(key=lambda op: op[1] == "/api/auth/sign-out")

    walked = 0
    for method, template, spec in operations:
        if time.monotonic() - started > BUDGET:
            break
        walked += 1
        public = spec.get("security") == [{}]
        streams = template == "/api/events"
        real_id = next((value for prefix, value in real.items()
                        if template.startswith(prefix)), str(uuid.uuid4()))
        path = template.replace("{id}", real_id)
        schema = (spec.get("requestBody", {}).get("content", {})
                  .get("application/json", {}).get("schema"))
        if schema:
            for what, raw in MALFORMED:
                walker.send(method, path, raw, what, public)
            base = sample(doc, schema)
            walker.send(method, path, json.dumps(base).encode(), "a plausible body", public)
            for target in targets(base):
                for what, value in HOSTILE_VALUES:
                    raw = json.dumps(with_value(base, target, value)).encode()
                    walker.send(method, path, raw, f"{what} in {'.'.join(target)}", public)
        for param in spec.get("parameters", []):
            if param.get("in") != "query":
                continue
            for value in QUERY_VALUES:
                walker.send(method, f"{path}?{param['name']}={value}", None,
                            f"{param['name']}={value[:30]}", public, streams)
        if "{id}" in template:
            for bad in BAD_IDS:
                raw = b"{}" if method in ("POST", "PUT") else None
                walker.send(method, template.replace("{id}", bad), raw, f"the id {bad[:30]}",
                            public, streams)
    # Whatever was stored above, every page, PDF and export still answers.
    for method, template, spec in operations:
        if method == "GET":
            real_id = next((value for prefix, value in real.items()
                            if template.startswith(prefix)), str(uuid.uuid4()))
            walker.send(method, template.replace("{id}", real_id), None, "the stored data",
                        spec.get("security") == [{}], template == "/api/events")
    seconds = time.monotonic() - started
    peak = sampler.stop()
    time.sleep(5)
    after = server.rss_kib()
    server.stop()

    drill.figures(
        "hostile input",
        operations=f"{walked} of {len(operations)} walked in the time allowed",
        requests_tried=walker.answers.total(),
        answers=walker.answers.summary(),
        server_5xx=walker.answers.server_errors() + walker.answers["no answer"],
        refusals_without_a_json_error=sum(1 for v in walker.violations if "without an error body" in v),
        seconds=f"{seconds:.0f}",
        lost_writes="- (hostile writes are refused or stored as sent)",
        peak_memory=f"{drill.mib(peak)} (idle {drill.mib(idle)}, 5 s after {drill.mib(after)})",
    )
    # "Back to idle": within 64 MiB or 1.5 times the idle size, whichever is larger.
    back_to_idle = after <= max(idle * 1.5, idle + 64 * 1024)
    if not back_to_idle:
        print("   memory did not come back to its idle size")
    return 0 if not walker.violations and back_to_idle else 1


if __name__ == "__main__":
    raise SystemExit(main())
