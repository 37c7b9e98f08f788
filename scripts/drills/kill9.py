#!/usr/bin/env python3
"""kill -9 during writes: writers create intakes while the server is killed at a random
moment, again and again. Every write the server acknowledged must be stored, and the
database must pass its integrity check after each kill."""

import csv
import io
import json
import os
import random
import threading
import time

import drill

CYCLES = int(os.environ.get("DRILL_KILL_CYCLES", "12"))
WRITERS = 4


def stored_ids(db):
    code, out, err, _ = drill.carepath("export", "intakes", "--db", db, "--out", "-")
    if code != 0:
        raise RuntimeError(f"export failed: {err.strip()}")
    rows = csv.DictReader(io.StringIO(out))
    return {row["Intake ID"] for row in rows}


def main():
    work = drill.workdir("kill9")
    db = drill.demo_db(os.path.join(work, "kill9.db"), clients=20)
    data = os.path.join(work, "data")
    acknowledged = set()
    answers = drill.Counter()
    lost_total = 0
    integrity_failures = 0
    peak = 0
    server = drill.Server(db, data).start()
    cookie = drill.sign_in(server, drill.STAFF)
    for cycle in range(CYCLES):
        if cycle:
            server = drill.Server(db, data).start()
        stop = threading.Event()
        killing = threading.Event()
        lock = threading.Lock()

        def writer(number):
            sequence = 0
            while not stop.is_set():
                sequence += 1
                name = f"Kill Drill {cycle}-{number}-{sequence}"
                try:
                    status, _, body = drill.request(
                        server, "POST", "/api/intakes", {"form": drill.intake_form(name)},
                        cookie=cookie, timeout=10)
                except OSError:
                    # A request in flight when the server was killed: never acknowledged.
                    answers.add("cut off by the kill" if killing.is_set() else "no answer")
                    if killing.is_set():
                        return
                    continue
                answers.add(status)
                if status == 200:
                    with lock:
                        acknowledged.add(json.loads(body)["id"])

        threads = [threading.Thread(target=writer, args=(n,)) for n in range(WRITERS)]
        for thread in threads:
            thread.start()
        time.sleep(random.uniform(0.4, 1.5))
        peak = max(peak, server.peak_kib())
        killing.set()
        server.kill9()
        stop.set()
        for thread in threads:
            thread.join()
        code, out, err, _ = drill.carepath("db", "check", "--db", db)
        if code != 0:
            integrity_failures += 1
            print(f"   cycle {cycle}: integrity check failed: {out.strip()} {err.strip()}")
        stored = stored_ids(db)
        lost = acknowledged - stored
        if lost:
            print(f"   cycle {cycle}: {len(lost)} acknowledged writes missing")
        lost_total = len(lost)
    drill.figures(
        "kill -9 during writes",
        cycles=CYCLES,
        requests_tried=answers.total(),
        answers=answers.summary(),
        acknowledged_writes=len(acknowledged),
        lost_writes=lost_total,
        server_5xx=answers.server_errors(),
        integrity_check_failures=integrity_failures,
        peak_memory=drill.mib(peak),
    )
    ok = lost_total == 0 and integrity_failures == 0 and answers.server_errors() == 0 \
        and answers["no answer"] == 0
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
