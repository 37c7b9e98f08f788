#!/usr/bin/env python3
"""Sign-in burst: 192 anonymous sign-ins at once, each from its own forwarded address
(behind a trusted proxy, as an attack spread over many machines would look), with wrong
passwords for a real account and for unknown ones. Password hashing is what costs memory:
the server must stay small, answer 401, 429 or 503, and fail with no other 5xx."""

import os
import threading
import time

import drill

CONCURRENT = int(os.environ.get("DRILL_SIGN_INS", "192"))
# Hashing a few passwords at a time needs tens of MiB; 192 at once needed a gigabyte.
PEAK_LIMIT_MIB = 300
ROUNDS = 2


def main():
    work = drill.workdir("sign-in-burst")
    db = drill.demo_db(os.path.join(work, "burst.db"), clients=20)
    server = drill.Server(db, os.path.join(work, "data"),
                          env={"CAREPATH_TRUST_PROXY": "1"}).start()
    time.sleep(0.5)
    idle = server.rss_kib()
    sampler = drill.Sampler(server)
    sampler.start()
    answers = drill.Counter()
    not_json = drill.Counter()
    durations = []
    lock = threading.Lock()

    def attempt(number, barrier):
        email = drill.STAFF[0] if number % 2 == 0 else f"nobody{number}@agency.test"
        barrier.wait()
        started = time.monotonic()
        try:
            status, _, body = drill.request(
                server, "POST", "/api/auth/sign-in",
                {"email": email, "password": f"wrong-{number}"},
                headers={"x-forwarded-for": drill.random_address()}, timeout=60)
        except OSError:
            answers.add("no answer")
            return
        answers.add(status)
        if status >= 400 and not drill.is_error_body(body):
            not_json.add(status)
        with lock:
            durations.append(time.monotonic() - started)

    for _ in range(ROUNDS):
        barrier = threading.Barrier(CONCURRENT)
        threads = [threading.Thread(target=attempt, args=(n, barrier)) for n in range(CONCURRENT)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
    # The real account still signs in: the burst did not lock its owner out.
    status = 0
    for _ in range(20):
        status, _, _ = drill.request(
            server, "POST", "/api/auth/sign-in",
            {"email": drill.ADMIN[0], "password": drill.ADMIN[1]},
            headers={"x-forwarded-for": drill.random_address()})
        if status == 200:
            break
        time.sleep(0.5)
    time.sleep(2)
    after = server.rss_kib()
    peak = sampler.stop()
    server.stop()

    other_5xx = sum(n for key, n in answers.counts.items()
                    if isinstance(key, int) and key >= 500 and key != 503)
    drill.figures(
        "sign-in burst",
        concurrent_sign_ins=f"{CONCURRENT} x {ROUNDS} rounds",
        requests_tried=answers.total(),
        answers=answers.summary(),
        answers_429=answers[429],
        answers_503=answers[503],
        server_5xx_other_than_503=other_5xx,
        refusals_without_a_json_error=not_json.total(),
        time_to_answer=f"median {drill.percentile(durations, 0.5):.2f} s, "
        f"max {max(durations, default=0):.2f} s",
        admin_signs_in_afterwards="yes" if status == 200 else f"no ({status})",
        lost_writes="- (no writes)",
        peak_memory=f"{drill.mib(peak)} (idle {drill.mib(idle)}, 2 s after {drill.mib(after)})",
    )
    ok = other_5xx == 0 and not not_json.total() and status == 200 \
        and answers["no answer"] == 0 and peak <= PEAK_LIMIT_MIB * 1024
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
