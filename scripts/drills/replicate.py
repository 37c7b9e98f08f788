#!/usr/bin/env python3
"""Continuous replication, then the machine is lost: writers create intakes at a steady
rate through the HTTP API while `carepath serve --replicate` ships the database to a
local S3 emulator (moto's server) and, in a second round, to a folder. The server and
its Litestream are killed with kill -9 at the same moment (a machine that dies gets no
last sync), the database is deleted and `carepath restore` brings it back. The drill
counts acknowledged, restored and lost writes: every lost write must have been
acknowledged within the window Litestream's intervals allow before the kill. The
restored database must pass its integrity check and be served."""

import csv
import http.client
import io
import json
import os
import shutil
import signal
import subprocess
import threading
import time

import drill

WRITERS = 4
RATE = float(os.environ.get("DRILL_REPLICATE_RATE", "40"))  # writes a second, all writers
SECONDS = float(os.environ.get("DRILL_REPLICATE_SECONDS", "12"))
# What docs/backup.md promises: Litestream reads the WAL every second and ships every
# second (the sync interval); one more second for the upload itself.
SYNC_INTERVAL = 1.0
ALLOWED_WINDOW = 3 * SYNC_INTERVAL
# Every server the drill started, stopped at the end whatever happened.
STARTED = []


def stored_ids(db):
    code, out, err, _ = drill.carepath("export", "intakes", "--db", db, "--out", "-")
    if code != 0:
        raise RuntimeError(f"export of {db} failed: {err.strip()}")
    return {row["Intake ID"] for row in csv.DictReader(io.StringIO(out))}


def replication_env():
    return {
        "AWS_ACCESS_KEY_ID": "drill",
        "AWS_SECRET_ACCESS_KEY": "drill",
        "AWS_REGION": "us-east-1",
    }


def clean_environ(extra):
    """The environment Litestream runs in: without AWS_CA_BUNDLE, which the AWS SDK
    refuses for a plain-HTTP endpoint."""
    env = {key: value for key, value in os.environ.items() if key != "AWS_CA_BUNDLE"}
    env.update(extra)
    return env


class Moto:
    """moto's S3 server on a loopback port."""

    def __init__(self, work):
        self.port = drill.free_port()
        self.endpoint = f"http://127.0.0.1:{self.port}"
        self.log = open(os.path.join(work, "moto.log"), "ab")
        self.process = subprocess.Popen(
            ["moto_server", "-H", "127.0.0.1", "-p", str(self.port)],
            stdout=self.log, stderr=self.log)
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            try:
                conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=2)
                # moto creates a bucket on a PUT of its name.
                conn.request("PUT", "/drill")
                status = conn.getresponse().status
                conn.close()
                if status == 200:
                    return
            except OSError:
                pass
            time.sleep(0.2)
        raise RuntimeError("moto_server did not start")

    def stop(self):
        self.process.terminate()
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()


def children(pid):
    found = []
    try:
        for task in os.listdir(f"/proc/{pid}/task"):
            with open(f"/proc/{pid}/task/{task}/children") as listing:
                found.extend(int(child) for child in listing.read().split())
    except OSError:
        pass
    return found


def remove_database(db):
    for suffix in ("", "-wal", "-shm"):
        if os.path.exists(db + suffix):
            os.remove(db + suffix)
    state = os.path.join(os.path.dirname(db), "." + os.path.basename(db) + "-litestream")
    shutil.rmtree(state, ignore_errors=True)


def round_trip(name, url, work, extra_env):
    folder = os.path.join(work, name)
    os.makedirs(folder, exist_ok=True)
    db = os.path.join(folder, "agency.db")
    drill.demo_db(db, clients=40)
    env = clean_environ({**replication_env(), **extra_env})
    server = drill.Server(db, os.path.join(folder, "data"), env=env)
    server.env.pop("AWS_CA_BUNDLE", None)
    process = start_replicating(server, url)
    admin = drill.sign_in(server, drill.ADMIN)
    cookie = drill.sign_in(server, drill.STAFF)
    replication = wait_replicating(server, admin)

    acknowledged = {}
    lock = threading.Lock()
    answers = drill.Counter()
    stop = threading.Event()
    killed = threading.Event()
    interval = WRITERS / RATE

    def writer(number):
        sequence = 0
        next_at = time.monotonic()
        while not stop.is_set():
            sequence += 1
            try:
                status, _, body = drill.request(
                    server, "POST", "/api/intakes",
                    {"form": drill.intake_form(f"Replica Drill {name} {number}-{sequence}")},
                    cookie=cookie, timeout=10)
            except OSError:
                answers.add("cut off by the kill" if killed.is_set() else "no answer")
                if killed.is_set():
                    return
                continue
            answered = time.monotonic()
            answers.add(status)
            if status == 200:
                with lock:
                    acknowledged[json.loads(body)["id"]] = answered
            next_at += interval
            time.sleep(max(0.0, next_at - time.monotonic()))

    threads = [threading.Thread(target=writer, args=(n,)) for n in range(WRITERS)]
    for thread in threads:
        thread.start()
    time.sleep(SECONDS)
    # The machine is lost: the server and its Litestream go at the same instant.
    for child in children(process.pid):
        os.kill(child, signal.SIGKILL)
    process.send_signal(signal.SIGKILL)
    kill_moment = time.monotonic()
    killed.set()
    process.wait()
    stop.set()
    for thread in threads:
        thread.join()
    remove_database(db)

    code, out, err, restore_seconds = restore(db, url, env)
    if code != 0:
        raise RuntimeError(f"restore from {name} failed: {err.strip()} {out.strip()}")
    restored = stored_ids(db)
    lost = {intake: at for intake, at in acknowledged.items() if intake not in restored}
    oldest_lost = max((kill_moment - at for at in lost.values()), default=0.0)
    check, _, _, _ = drill.carepath("db", "check", "--db", db)

    again = drill.Server(db, os.path.join(folder, "restored-data")).start()
    status, _, _ = drill.request(again, "GET", "/api/health")
    staff = drill.sign_in(again, drill.STAFF)
    sample = sorted(set(acknowledged) & restored)[-50:]
    unreadable = 0
    for intake in sample:
        code_read, _, _ = drill.request(again, "GET", f"/api/intakes/{intake}", cookie=staff)
        if code_read != 200:
            unreadable += 1
    again.stop()
    served = status == 200 and unreadable == 0

    drill.figures(
        f"replicate to {name}: kill -9, delete, restore",
        replica=url.split("?")[0],
        state_before_the_kill=f"{replication['state']}, lag {replication.get('lagSeconds')} s",
        write_rate=f"{RATE:.0f}/s for {SECONDS:.0f} s by {WRITERS} writers",
        acknowledged_writes=len(acknowledged),
        restored_writes=len(set(acknowledged) & restored),
        lost_writes=len(lost),
        oldest_lost_write_s_before_kill=f"{oldest_lost:.2f}",
        allowed_window_s=f"{ALLOWED_WINDOW:.1f} (at {RATE:.0f}/s: at most {int(RATE * ALLOWED_WINDOW)} writes)",
        restore_seconds=f"{restore_seconds:.1f}",
        integrity="ok" if check == 0 else "FAILED",
        restored_server="serves" if served else f"health {status}, {unreadable} unreadable",
        answers=answers.summary(),
        server_5xx=answers.server_errors(),
    )
    return (not lost or oldest_lost <= ALLOWED_WINDOW) and check == 0 and served \
        and answers.server_errors() == 0 and len(lost) <= RATE * ALLOWED_WINDOW


def restore(db, url, env):
    started = time.monotonic()
    done = subprocess.run([drill.binary(), "restore", "--from", url, "--db", db],
                          capture_output=True, text=True, timeout=120, env=env)
    return done.returncode, done.stdout, done.stderr, time.monotonic() - started


def start_replicating(server, url):
    process = subprocess.Popen(
        [drill.binary(), "serve", "--db", server.db, "--addr", f"127.0.0.1:{server.port}",
         "--public-url", server.url, "--replicate", url],
        env=server.env, stdout=server.log, stderr=server.log)
    server.process = process
    STARTED.append(process)
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"the server stopped at start (exit {process.returncode})")
        try:
            status, _, _ = drill.request(server, "GET", "/api/health", timeout=2)
            if status == 200:
                return process
        except OSError:
            pass
        time.sleep(0.1)
    raise RuntimeError("the server did not start in time")


def wait_replicating(server, admin):
    deadline = time.monotonic() + 30
    replication = {}
    while time.monotonic() < deadline:
        status, _, body = drill.request(server, "GET", "/api/health", cookie=admin)
        replication = json.loads(body).get("replication", {}) if status == 200 else {}
        if replication.get("state") == "replicating":
            return replication
        time.sleep(0.2)
    raise RuntimeError(f"replication did not start: {replication}")


def main():
    if not shutil.which("litestream") or not shutil.which("moto_server"):
        print("drill replicate: litestream or moto_server is missing (scripts/setup installs them)")
        return 1
    work = drill.workdir("replicate")
    moto = Moto(work)
    ok = True
    try:
        s3 = f"s3://drill/agency?endpoint={moto.endpoint}&region=us-east-1"
        ok = round_trip("s3", s3, work, {}) and ok
        folder = "file://" + os.path.join(work, "replica-folder")
        ok = round_trip("folder", folder, work, {}) and ok
    finally:
        for process in STARTED:
            if process.poll() is None:
                for child in children(process.pid):
                    os.kill(child, signal.SIGKILL)
                process.kill()
                process.wait()
        moto.stop()
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
