# The two entry points, for people and CI alike. The scripts install what they need.
.PHONY: run test

# Build everything and start Carepath on a demo database.
run:
	scripts/run

# Every check and test: formatting, lints, unit, integration, browser and end-to-end.
test:
	scripts/test
