#!/usr/bin/env python3
"""Slow clients: hundreds of connections that never finish their headers or their body,
more than the server's file-descriptor limit allows, while ordinary clients keep asking.
The ordinary clients must keep being answered; the drill prints how long their first
answer took and how many of the stalled connections the server closed, and when."""

import os
import socket
import threading
import time

import drill

# The server runs with this many file descriptors; the drill opens more stalled
# connections than that, as a client that wanted to exhaust them would.
SERVER_NOFILE = 512
STALLED = int(os.environ.get("DRILL_SLOW_CONNECTIONS", "600"))
DURATION = float(os.environ.get("DRILL_SLOW_SECONDS", "40"))


def stall(server, kind, sockets, refused):
    try:
        sock = socket.create_connection(("127.0.0.1", server.port), timeout=5)
    except OSError:
        refused.add("connect")
        return
    try:
        if kind == "headers":
            sock.sendall(b"GET /api/auth/me HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ")
        else:
            sock.sendall(b"POST /api/auth/sign-in HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                         b"Content-Type: application/json\r\nContent-Length: 100000\r\n\r\n{\"email\":")
    except OSError:
        refused.add("send")
        sock.close()
        return
    sockets.append((sock, time.monotonic()))


def watch_closed(sockets, closed_after, stop):
    """Notes when the server closes each stalled connection (a read of 0 bytes)."""
    open_ones = list(sockets)
    while open_ones and not stop.is_set():
        still = []
        for sock, opened in open_ones:
            sock.setblocking(False)
            try:
                data = sock.recv(4096)
                if data == b"" or data:
                    closed_after.append(time.monotonic() - opened)
                    sock.close()
                    continue
            except BlockingIOError:
                pass
            except OSError:
                closed_after.append(time.monotonic() - opened)
                sock.close()
                continue
            still.append((sock, opened))
        open_ones = still
        time.sleep(0.2)
    for sock, _ in open_ones:
        sock.close()


def main():
    work = drill.workdir("slow-client")
    db = drill.demo_db(os.path.join(work, "slow.db"), clients=20)
    server = drill.Server(db, os.path.join(work, "data"), nofile=SERVER_NOFILE).start()
    sampler = drill.Sampler(server)
    sampler.start()
    cookie = drill.sign_in(server, drill.STAFF)
    idle_fds = server.open_fds()

    sockets = []
    refused = drill.Counter()
    for number in range(STALLED):
        stall(server, "headers" if number % 2 == 0 else "body", sockets, refused)
    opened = len(sockets)
    fds_with_stalled = server.open_fds()

    closed_after = []
    stop = threading.Event()
    watcher = threading.Thread(target=watch_closed, args=(sockets, closed_after, stop))
    watcher.start()

    answers = drill.Counter()
    latencies = []
    deadline = time.monotonic() + DURATION
    while time.monotonic() < deadline:
        started = time.monotonic()
        try:
            status, _, _ = drill.request(server, "GET", "/api/dashboard", cookie=cookie,
                                         timeout=10)
            answers.add(status)
        except OSError:
            answers.add("no answer in 10 s")
        latencies.append(time.monotonic() - started)
        time.sleep(0.1)
    stop.set()
    watcher.join()
    fds_after = server.open_fds()
    peak = sampler.stop()
    server.stop()

    answered = answers[200]
    drill.figures(
        "slow clients",
        stalled_connections_opened=f"{opened} (server file-descriptor limit {SERVER_NOFILE})",
        stalled_connections_refused=refused.total(),
        stalled_connections_closed_by_server=f"{len(closed_after)} of {opened}"
        + (f", after {drill.percentile(closed_after, 0.5):.1f} s (median)" if closed_after else ""),
        server_open_files=f"idle {idle_fds}, with the stalled {fds_with_stalled}, at the end {fds_after}",
        requests_tried=answers.total(),
        answers=answers.summary(),
        server_5xx=answers.server_errors(),
        time_to_answer_others=f"median {drill.percentile(latencies, 0.5) * 1000:.0f} ms, "
        f"p99 {drill.percentile(latencies, 0.99) * 1000:.0f} ms, "
        f"max {max(latencies, default=0) * 1000:.0f} ms",
        lost_writes="- (no writes)",
        peak_memory=drill.mib(peak),
    )
    healthy = answered == answers.total() and answers.total() > 0
    return 0 if healthy else 1


if __name__ == "__main__":
    raise SystemExit(main())
