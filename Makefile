# The whole set-up on a fresh Debian machine with Swift: `make demo`, `make test`.
# Builds share one lock so that two builds never run at once on this 2-core machine.
SWIFT      ?= swift
LOCK       := flock /tmp/lookaround-build.lock
RELEASE    := .build/release
OUT        ?= out
SECTIONS   ?=

.PHONY: all deps build release test demo bench fuzz panoramas clean help

all: build

help:
	@echo "make demo   - install what is missing, build (release), run the main job on the shipped data"
	@echo "make test   - install what is missing, run the whole test suite"
	@echo "make build  - debug build;  make release - release build;  make bench - benchmarks"
	@echo "make deps   - install missing Debian packages (list: scripts/deb-packages.txt)"
	@echo "make fuzz   - build the libFuzzer targets (Fuzz/) and run each for FUZZ_SECONDS (default 60)"
	@echo "make panoramas - regenerate the shipped simulated imagery in Panoramas/helsinki (minutes, 2 cores)"
	@echo "make man    - manual pages into .build/man/man1 (MANPATH=.build/man: man lookaround-snapshot)"
	@echo "make docs   - DocC archives into .build/docs/<Module>.doccarchive (when the toolchain has docc)"

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

# libFuzzer targets (a separate package in Fuzz/, built with -sanitize=fuzzer,address): each runs for
# FUZZ_SECONDS, one after another, each run under the build lock (the script takes it: no outer flock).
FUZZ_SECONDS ?= 60
fuzz: deps
	@FUZZ_SECONDS=$(FUZZ_SECONDS) SWIFT=$(SWIFT) scripts/fuzz.sh $(FUZZ_TARGETS)

bench: release
	$(LOCK) $(RELEASE)/Benchmarks $(SECTIONS)

# The render step takes the build lock itself: do not wrap `make panoramas` in another flock.
panoramas: release
	@scripts/make-panoramas.sh $(RELEASE)/lookaround

.PHONY: man docs

# Manual pages generated from the option specs, one per command.
man: build
	.build/debug/lookaround help --man --output .build/man/man1

# DocC catalogues (Sources/<Module>/<Module>.docc); the script takes the build lock for its one swift call.
docs:
	@SWIFT=$(SWIFT) scripts/make-docs.sh

clean:
	rm -rf .build $(OUT)
