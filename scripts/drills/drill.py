"""What every drill shares: a real `carepath serve` on a loopback port over a demo
database, plain HTTP, the server's memory read from /proc, and the figures each drill
prints. Python 3 standard library only."""

import http.client
import json
import os
import random
import resource
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time

ADMIN = ("admin@carepath.test", "carepath-demo")
STAFF = ("coordinator@carepath.test", "carepath-demo")


def binary():
    path = os.environ.get("CAREPATH_BIN")
    if not path or not os.access(path, os.X_OK):
        sys.exit("drills: CAREPATH_BIN must name the built carepath binary")
    return path


def free_port():
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def workdir(name):
    base = os.environ.get("DRILL_WORK") or tempfile.mkdtemp(prefix="carepath-drill-")
    path = os.path.join(base, name)
    os.makedirs(path, exist_ok=True)
    return path


def demo_db(path, clients=60):
    """A demo agency with the demo sign-ins, built once per drill."""
    if not os.path.exists(path):
        subprocess.run([binary(), "demo", "--db", path, "--clients", str(clients)],
                       check=True, stdout=subprocess.DEVNULL)
    return path


def carepath(*args, timeout=120):
    """Runs one carepath command; (exit code, stdout, stderr, seconds)."""
    started = time.monotonic()
    try:
        done = subprocess.run([binary(), *args], capture_output=True, text=True,
                              timeout=timeout)
        return done.returncode, done.stdout, done.stderr, time.monotonic() - started
    except subprocess.TimeoutExpired as expired:
        return None, expired.stdout or "", expired.stderr or "", time.monotonic() - started


class Server:
    """`carepath serve` as a child process, on loopback only."""

    def __init__(self, db, data_dir, env=None, nofile=None, memory_mib=None):
        self.db = db
        self.data_dir = data_dir
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.env = dict(os.environ, CAREPATH_DATA_DIR=data_dir, **(env or {}))
        self.nofile = nofile
        # A ceiling on the server's address space, so a drill that finds a memory
        # defect makes the server fail instead of the machine.
        self.memory_mib = memory_mib or int(os.environ.get("DRILL_SERVER_MEMORY_MIB", "4096"))
        self.process = None
        os.makedirs(data_dir, exist_ok=True)
        self.log = open(os.path.join(data_dir, "server.log"), "ab")

    def start(self, wait=30):
        os.makedirs(self.data_dir, exist_ok=True)

        def limits():
            if self.nofile:
                # A number is both limits; a pair is the soft and the hard one.
                soft, hard = self.nofile if isinstance(self.nofile, tuple) else (self.nofile,) * 2
                resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))
            limit = self.memory_mib * 1024 * 1024
            resource.setrlimit(resource.RLIMIT_AS, (limit, limit))

        self.process = subprocess.Popen(
            [binary(), "serve", "--db", self.db, "--addr", f"127.0.0.1:{self.port}",
             "--public-url", self.url],
            env=self.env, stdout=self.log, stderr=self.log, preexec_fn=limits)
        deadline = time.monotonic() + wait
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"the server stopped at start (exit {self.process.returncode})")
            try:
                status, _, _ = request(self, "GET", "/api/auth/me", timeout=2)
                if status:
                    return self
            except OSError:
                pass
            time.sleep(0.1)
        raise RuntimeError("the server did not start in time")

    @property
    def pid(self):
        return self.process.pid

    def died(self):
        """The exit status when the server stopped by itself (a crash), else None."""
        return self.process.poll() if self.process else None

    def kill9(self):
        if self.process and self.process.poll() is None:
            self.process.send_signal(signal.SIGKILL)
            self.process.wait()

    def stop(self):
        if self.process and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                self.kill9()

    def rss_kib(self):
        return proc_status(self.pid, "VmRSS")

    def peak_kib(self):
        return proc_status(self.pid, "VmHWM")

    def cpu_seconds(self):
        try:
            with open(f"/proc/{self.pid}/stat") as stat:
                fields = stat.read().rsplit(")", 1)[1].split()
        except OSError:
            return 0.0
        ticks = os.sysconf("SC_CLK_TCK")
        return (int(fields[11]) + int(fields[12])) / ticks

    def open_fds(self):
        try:
            return len(os.listdir(f"/proc/{self.pid}/fd"))
        except OSError:
            return 0


def proc_status(pid, key):
    try:
        with open(f"/proc/{pid}/status") as status:
            for line in status:
                if line.startswith(key + ":"):
                    return int(line.split()[1])
    except OSError:
        pass
    return 0


def request(server, method, path, body=None, cookie=None, timeout=30, headers=None,
            raw=None):
    """One HTTP request on a fresh connection: (status, headers, body bytes)."""
    conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=timeout)
    try:
        sent = dict(headers or {})
        data = raw
        if body is not None:
            data = json.dumps(body).encode()
        if data is not None:
            sent.setdefault("content-type", "application/json")
        if cookie:
            sent["cookie"] = cookie
        conn.request(method, path, body=data, headers=sent)
        response = conn.getresponse()
        return response.status, dict(response.getheaders()), response.read()
    finally:
        conn.close()


def sign_in(server, who, forwarded=None):
    headers = {"x-forwarded-for": forwarded} if forwarded else None
    status, headers, body = request(server, "POST", "/api/auth/sign-in",
                                    {"email": who[0], "password": who[1]}, headers=headers)
    if status != 200:
        raise RuntimeError(f"sign-in of {who[0]}: {status} {body[:200]!r}")
    for name, value in headers.items():
        if name.lower() == "set-cookie" and value.startswith("carepath_session="):
            return value.split(";", 1)[0]
    raise RuntimeError("no session cookie")


def random_address():
    return f"10.{random.randrange(256)}.{random.randrange(256)}.{random.randrange(1, 255)}"


def intake_form(name):
    return {
        "staffMemberTakingCall": "Drill",
        "callerName": "Grace Hopper",
        "callerPhone": "(217) 555-0100",
        "callerEmail": "grace@family.test",
        "relationshipToClient": "Daughter",
        "clientFullName": name,
        "servicesRequired": ["Companionship"],
    }


def is_error_body(body):
    try:
        error = json.loads(body)["error"]
        return bool(error["code"]) and bool(error["message"])
    except (ValueError, KeyError, TypeError):
        return False


def mib(kib):
    return f"{kib / 1024:.0f} MiB"


def figures(name, **values):
    """One drill's figures: a headline and one `key: value` line each."""
    print(f"== {name}")
    for key, value in values.items():
        print(f"   {key.replace('_', ' ')}: {value}")
    sys.stdout.flush()


class Counter:
    """Thread-safe tallies of answers."""

    def __init__(self):
        self.lock = threading.Lock()
        self.counts = {}

    def add(self, key, amount=1):
        with self.lock:
            self.counts[key] = self.counts.get(key, 0) + amount

    def __getitem__(self, key):
        return self.counts.get(key, 0)

    def total(self):
        return sum(self.counts.values())

    def server_errors(self):
        return sum(n for key, n in self.counts.items() if isinstance(key, int) and key >= 500)

    def summary(self):
        keys = sorted(self.counts, key=str)
        return ", ".join(f"{key}: {self.counts[key]}" for key in keys) or "none"


def percentile(values, fraction):
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


class Sampler(threading.Thread):
    """Reads the server's resident memory every 50 ms: the peak the drill saw."""

    def __init__(self, server):
        super().__init__(daemon=True)
        self.server = server
        self.peak = 0
        self.running = True

    def run(self):
        while self.running:
            self.peak = max(self.peak, self.server.rss_kib())
            time.sleep(0.05)

    def stop(self):
        self.running = False
        self.join()
        return self.peak
