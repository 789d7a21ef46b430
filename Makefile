# The whole set-up on a fresh Debian machine with Swift: `make demo`, `make test`.
# Builds share one lock so that two builds never run at once on this 2-core machine.
SWIFT      ?= swift
LOCK       := flock /tmp/lookaround-build.lock
RELEASE    := .build/release
OUT        ?= out
SECTIONS   ?=

.PHONY: all deps build release test demo bench panoramas clean help

all: build

help:
	@echo "make demo   - install what is missing, build (release), run the main job on the shipped data"
	@echo "make test   - install what is missing, run the whole test suite"
	@echo "make build  - debug build;  make release - release build;  make bench - benchmarks"
	@echo "make deps   - install missing Debian packages (list: scripts/deb-packages.txt)"
	@echo "make panoramas - regenerate the shipped simulated imagery in Panoramas/helsinki (minutes, 2 cores)"

deps:
	@scripts/install-deps.sh

build: deps
	$(LOCK) $(SWIFT) build

release: deps
	$(LOCK) $(SWIFT) build -c release

# Suites run one after another (--no-parallel): with Swift Testing's default parallel run, one full
# run in four crashed in swift_release while MapSnapshotGoldenTests.flightContactSheet ended
# (2026-11-29); AddressSanitizer and ThreadSanitizer runs of the whole suite report nothing. Until it
# is understood, the serial run is the one CI trusts.
test: deps
	@scripts/install-test-tools.sh
	$(LOCK) $(SWIFT) test --no-parallel

demo: release
	@scripts/demo.sh $(RELEASE)/lookaround $(OUT)

bench: release
	$(LOCK) $(RELEASE)/Benchmarks $(SECTIONS)

# The render step takes the build lock itself: do not wrap `make panoramas` in another flock.
panoramas: release
	@scripts/make-panoramas.sh $(RELEASE)/lookaround

clean:
	rm -rf .build $(OUT)
