#!/usr/bin/env python3
"""Backup and restore under write load: `carepath backup` runs while writers keep the
server busy. Each backup must finish or fail cleanly within its time, never leave a
`.partial` file, pass its integrity check and hold every write acknowledged before it
started; the last one is restored and served."""

import csv
import io
import json
import os
import shutil
import threading
import time

import drill

BACKUPS = int(os.environ.get("DRILL_BACKUPS", "3"))
WRITERS = 8
BACKUP_TIMEOUT = 90


def stored_ids(db):
    code, out, err, _ = drill.carepath("export", "intakes", "--db", db, "--out", "-")
    if code != 0:
        raise RuntimeError(f"export of {db} failed: {err.strip()}")
    return {row["Intake ID"] for row in csv.DictReader(io.StringIO(out))}


def main():
    work = drill.workdir("backup")
    db = drill.demo_db(os.path.join(work, "live.db"), clients=3000)
    backups = os.path.join(work, "backups")
    os.makedirs(backups, exist_ok=True)
    server = drill.Server(db, os.path.join(work, "data")).start()
    sampler = drill.Sampler(server)
    sampler.start()
    cookie = drill.sign_in(server, drill.STAFF)
    acknowledged = []
    lock = threading.Lock()
    answers = drill.Counter()
    stop = threading.Event()

    def writer(number):
        sequence = 0
        while not stop.is_set():
            sequence += 1
            try:
                status, _, body = drill.request(
                    server, "POST", "/api/intakes",
                    {"form": drill.intake_form(f"Backup Drill {number}-{sequence}")},
                    cookie=cookie, timeout=30)
            except OSError:
                answers.add("no answer")
                continue
            answers.add(status)
            if status == 200:
                with lock:
                    acknowledged.append(json.loads(body)["id"])

    threads = [threading.Thread(target=writer, args=(n,)) for n in range(WRITERS)]
    for thread in threads:
        thread.start()
    time.sleep(1.0)
    results = []
    good = []
    missing_in_backups = 0
    for number in range(BACKUPS):
        target = os.path.join(backups, f"carepath-{number}.db")
        with lock:
            before = set(acknowledged)
        writes_before = len(acknowledged)
        code, _, err, seconds = drill.carepath("backup", target, "--db", db, timeout=BACKUP_TIMEOUT)
        writes_during = len(acknowledged) - writes_before
        partials = [name for name in os.listdir(backups) if "partial" in name]
        if code == 0:
            check, out, _, _ = drill.carepath("db", "check", "--db", target)
            missing = len(before - stored_ids(target))
            missing_in_backups += missing
            verdict = "finished" if check == 0 else f"finished but failed its check: {out.strip()}"
            if check == 0:
                good.append(target)
        elif code is None:
            verdict = f"did not finish in {BACKUP_TIMEOUT} s"
            missing = "-"
        else:
            verdict = f"failed (exit {code}): {err.strip()[:120]}"
            missing = "-"
        results.append((verdict, seconds, writes_during, len(partials), missing, code))
        print(f"   backup {number}: {verdict} in {seconds:.1f} s, {writes_during} writes "
              f"acknowledged meanwhile, {len(partials)} partial files, "
              f"{missing} earlier writes missing")
    stop.set()
    for thread in threads:
        thread.join()
    server.stop()
    peak = sampler.stop()

    restored_ok = "no backup to restore"
    restored_missing = "-"
    if good:
        restored = os.path.join(work, "restored.db")
        for suffix in ("", "-wal", "-shm"):
            if os.path.exists(restored + suffix):
                os.remove(restored + suffix)
        shutil.copyfile(good[-1], restored)
        backed_up = stored_ids(good[-1])
        again = drill.Server(restored, os.path.join(work, "restored-data")).start()
        status, _, _ = drill.request(again, "GET", "/api/health")
        cookie = drill.sign_in(again, drill.STAFF)
        sample = sorted(backed_up)[-200:]
        restored_missing = 0
        for intake in sample:
            status, _, _ = drill.request(again, "GET", f"/api/intakes/{intake}", cookie=cookie)
            if status != 200:
                restored_missing += 1
        again.stop()
        check, _, _, _ = drill.carepath("db", "check", "--db", restored)
        restored_ok = "integrity ok, served" if check == 0 else "integrity check failed"

    partial_total = len([name for name in os.listdir(backups) if "partial" in name])
    finished = sum(1 for result in results if result[0] == "finished")
    # Failing cleanly (an exit code and a message, nothing left behind) is allowed;
    # hanging is not.
    failed_cleanly = sum(1 for result in results if result[5] not in (0, None))
    timed_out = sum(1 for result in results if result[5] is None)
    drill.figures(
        "backup and restore under write load",
        backups_tried=BACKUPS,
        backups_finished_and_checked=finished,
        backups_failed_cleanly=failed_cleanly,
        backups_timed_out=timed_out,
        backup_seconds=", ".join(f"{result[1]:.1f}" for result in results),
        writes_during_backups=", ".join(str(result[2]) for result in results),
        partial_files_left=partial_total,
        acknowledged_writes_missing_from_backups=missing_in_backups,
        restore=restored_ok,
        restored_records_missing=restored_missing,
        requests_tried=answers.total(),
        answers=answers.summary(),
        server_5xx=answers.server_errors(),
        lost_writes=missing_in_backups,
        peak_memory=drill.mib(peak),
    )
    failed = timed_out or partial_total or missing_in_backups or answers.server_errors() \
        or not good
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
