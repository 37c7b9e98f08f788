# The entry points, for people and CI alike. The scripts install what they need.
.PHONY: run test drills

# Build everything and start Carepath on a demo database.
run:
	scripts/run

# Every check and test: formatting, lints, unit, integration, browser and end-to-end.
test:
	scripts/test

# Long drills on loopback with their figures (not part of `make test`): kill -9 during
# writes, backup under load, slow clients, abandoned requests, sign-in burst, hostile input.
drills:
	scripts/drills/run
