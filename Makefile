# The entry points, for people and CI alike. The scripts install what they need.
.PHONY: run test drills bench bench-smoke release release-check

# Build everything and start Carepath on a demo database.
run:
	scripts/run

# Every check and test: formatting, lints, unit, integration, browser and end-to-end.
test:
	scripts/test

# Long drills on loopback with their figures (not part of `make test`): kill -9 during
# writes, backup under load, replication and restore after a lost machine, slow clients,
# abandoned requests, sign-in burst, hostile input.
drills:
	scripts/drills/run

# Carepath side by side with PostgREST over PostgreSQL on the release build; writes
# bench/report.md. BENCH_CLIENTS=10000|100000|1000000 (default 100000).
bench:
	python3 bench/bench.py

# The same harness on a tiny agency in seconds, without targets, to keep it working.
bench-smoke:
	python3 bench/bench.py --smoke

# A stripped release binary and a .deb (cargo-deb) with the systemd unit and the docs:
# target/release/carepath and target/debian/carepath_*.deb. Takes minutes.
release:
	scripts/release

# Installs that .deb here (root) and checks the installed binary, unit, user and server.
release-check:
	scripts/release-check
