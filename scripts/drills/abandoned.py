#!/usr/bin/env python3
"""Abandoned requests: the costliest searches the server accepts, sent many at once and
given up by the client after a moment, as a browser does when the user types on. The
server must stop their database work: other users keep being answered, and the server's
CPU falls idle soon after the last one is abandoned."""

import http.client
import os
import random
import socket
import threading
import time
import urllib.parse

import drill

CONCURRENT = 16
DURATION = float(os.environ.get("DRILL_ABANDON_SECONDS", "20"))
ABANDON_AFTER = 0.1


def costly_term(length):
    """Many overlapping trigrams that all match the long names stored below."""
    return "".join(random.choice("xy") for _ in range(length))


def store_long_names(server, cookie):
    """Intakes with the longest client names the server accepts, which is what makes a
    search costly; answers the length accepted."""
    for length in (500_000, 100_000, 10_000, 1_000, 200, 100):
        name = "".join(random.choice("xy") for _ in range(length))
        status, _, _ = drill.request(server, "POST", "/api/intakes",
                                     {"form": drill.intake_form(name)}, cookie=cookie,
                                     timeout=120)
        if status == 200:
            for _ in range(3):
                drill.request(server, "POST", "/api/intakes",
                              {"form": drill.intake_form(name[::-1])}, cookie=cookie,
                              timeout=120)
            return length
    return 0


def search_path(term):
    return "/api/search?q=" + urllib.parse.quote(term)


def abandon(server, cookie, path):
    """Sends the request and closes the connection without reading the answer."""
    try:
        sock = socket.create_connection(("127.0.0.1", server.port), timeout=5)
        sock.sendall(f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nCookie: {cookie}\r\n\r\n"
                     .encode())
        time.sleep(ABANDON_AFTER)
        sock.close()
        return True
    except OSError:
        return False


def main():
    work = drill.workdir("abandoned")
    db = drill.demo_db(os.path.join(work, "abandoned.db"), clients=2000)
    server = drill.Server(db, os.path.join(work, "data")).start()
    sampler = drill.Sampler(server)
    sampler.start()
    cookie = drill.sign_in(server, drill.STAFF)

    stored = store_long_names(server, cookie)
    # The longest search term the server takes (it may bound them) and what one costs.
    chosen, alone = None, 0.0
    for length in (1000, 500, 200, 100, 50):
        term = costly_term(length)
        started = time.monotonic()
        status, _, _ = drill.request(server, "GET", search_path(term), cookie=cookie,
                                     timeout=120)
        if status == 200:
            chosen, alone = length, time.monotonic() - started
            break
    if chosen is None:
        chosen = 50

    answers = drill.Counter()
    latencies = []
    abandoned = drill.Counter()
    stop = threading.Event()

    def attacker():
        while not stop.is_set():
            abandoned.add("sent" if abandon(server, cookie, search_path(costly_term(chosen)))
                          else "refused")

    attackers = [threading.Thread(target=attacker) for _ in range(CONCURRENT)]
    for thread in attackers:
        thread.start()
    deadline = time.monotonic() + DURATION
    while time.monotonic() < deadline:
        started = time.monotonic()
        try:
            status, _, _ = drill.request(server, "GET", "/api/dashboard", cookie=cookie,
                                         timeout=30)
            answers.add(status)
        except (OSError, http.client.HTTPException):
            answers.add("no answer")
        latencies.append(time.monotonic() - started)
        time.sleep(0.2)
    stop.set()
    for thread in attackers:
        thread.join()

    # Work that outlives its request shows as CPU the server keeps burning.
    time.sleep(0.5)
    cpu_before = server.cpu_seconds()
    time.sleep(3)
    cpu_after_abandon = server.cpu_seconds() - cpu_before
    started = time.monotonic()
    try:
        status, _, _ = drill.request(server, "GET", "/api/dashboard", cookie=cookie, timeout=30)
    except (OSError, http.client.HTTPException):
        status = "no answer"
    answers.add(status)
    right_after = time.monotonic() - started
    died = server.died()
    peak = sampler.stop()
    server.stop()

    drill.figures(
        "abandoned requests",
        longest_name_stored=f"{stored} characters",
        search_term=f"{chosen} characters, {alone:.2f} s when waited for",
        requests_abandoned=abandoned["sent"],
        requests_tried=answers.total() + abandoned.total(),
        others_answers=answers.summary(),
        server_5xx=answers.server_errors(),
        others_time_to_answer=f"median {drill.percentile(latencies, 0.5) * 1000:.0f} ms, "
        f"max {max(latencies, default=0) * 1000:.0f} ms",
        server_cpu_in_the_3_s_after_the_last_abandoned=f"{cpu_after_abandon:.2f} s",
        first_answer_after=f"{right_after * 1000:.0f} ms",
        server_crashed="no" if died is None else f"yes (exit {died}, out of memory at the drill's ceiling)",
        lost_writes="- (no writes)",
        peak_memory=drill.mib(peak),
    )
    ok = answers.server_errors() == 0 and answers[200] == answers.total() \
        and cpu_after_abandon < 0.5 and right_after < 1.0
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
