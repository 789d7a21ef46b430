# The whole set-up on a fresh Debian machine with Swift: `make demo`, `make test`.
# Builds share one lock so that two builds never run at once on this 2-core machine.
SWIFT      ?= swift
LOCK       := flock /tmp/lookaround-build.lock
RELEASE    := .build/release
OUT        ?= out
SECTIONS   ?=

.PHONY: all deps build release test demo bench fuzz panoramas clean help postgis-up postgis-down s3-up s3-down install uninstall deb install-build

all: build

help:
	@echo "make demo   - install what is missing, build (release), run the main job on the shipped data"
	@echo "make test   - install what is missing, run the whole test suite"
	@echo "make build  - debug build;  make release - release build;  make bench - benchmarks"
	@echo "make deps   - install missing Debian packages (list: scripts/deb-packages.txt) and the privacy models (scripts/fetch-models.sh)"
	@echo "make fuzz   - build the libFuzzer targets (Fuzz/) and run each for FUZZ_SECONDS (default 60)"
	@echo "make postgis-up - install what is missing, start a local PostgreSQL + PostGIS, print its catalog URL (last line)"
	@echo "make postgis-down - stop it"
	@echo "make s3-up  - install what is missing, start a local S3 server (SeaweedFS) with credentials, print its endpoint (last line)"
	@echo "make s3-down - stop it"
	@echo "make panoramas - regenerate the shipped simulated imagery in Panoramas/helsinki (minutes, 2 cores)"
	@echo "make man    - manual pages into .build/man/man1 (MANPATH=.build/man: man lookaround-snapshot)"
	@echo "make docs   - DocC archives into .build/docs/<Module>.doccarchive (when the toolchain has docc)"
	@echo "make install [PREFIX=/usr/local] [DESTDIR=] - the program, its data, man pages, completions, docs"
	@echo "make uninstall [PREFIX=/usr/local] [DESTDIR=] - remove exactly what make install put there"
	@echo "make deb    - a Debian package (with the systemd service) into OUT (default out/)"

deps:
	@scripts/install-deps.sh
	@scripts/fetch-models.sh || echo "make deps: the privacy models could not be fetched (scripts/fetch-models.sh); 'lookaround blur' and its tests need them" >&2

build: deps
	$(LOCK) $(SWIFT) build

release: deps
	$(LOCK) $(SWIFT) build -c release

# Suites run in parallel (swift test's default). Parallel runs used to crash in swift_release
# (2026-11-29): stale objects of test targets that imported modules they did not declare (fixed;
# PackageManifestTests keeps it fixed); later ones showed timing races in the terminal tests and a
# PostGIS drop refused while autovacuum worked (fixed). `make test TEST_FLAGS=--no-parallel` runs
# the suites one after another, for reading a failure's output in order.
TEST_FLAGS ?=
# The PostGIS conformance tests need a server: the local cluster is started for the run and stopped
# after it (whatever the result); when none can start, those tests say they were skipped and why.
# The object storage tests start their own S3 server (SeaweedFS, installed by install-test-tools.sh) on
# free ports and stop it when they end.
# After the suite, the installation is tested as users get it (scripts/test-install.sh): the static
# release build, make install into a temporary DESTDIR, the installed program run from elsewhere,
# make uninstall, make deb, the units through systemd-analyze. TEST_INSTALL=0 leaves it out.
TEST_INSTALL ?= 1
test: deps
	@scripts/install-test-tools.sh
	@url=$$(scripts/postgis.sh up) || { echo "make test: no PostGIS server; its tests will be skipped" >&2; url=; }; \
	  LOOKAROUND_TEST_POSTGRES="$$url" $(LOCK) $(SWIFT) test $(TEST_FLAGS); status=$$?; \
	  [ -z "$$url" ] || scripts/postgis.sh down; exit $$status
	@[ "$(TEST_INSTALL)" = 0 ] || $(MAKE) --no-print-directory install-build
	@[ "$(TEST_INSTALL)" = 0 ] || scripts/test-install.sh $(INSTALL_BUILD)/release/lookaround

# A local PostgreSQL + PostGIS cluster (.build/postgis, 127.0.0.1:55432): the last line is the catalog URL.
postgis-up:
	@scripts/postgis.sh up

postgis-down:
	@scripts/postgis.sh down

# A local S3 server (SeaweedFS `weed mini`, .build/seaweedfs, 127.0.0.1:58333 and the nine ports after it) with
# credentials in AWS-style files: the last line is the endpoint; `eval "$$(scripts/seaweedfs.sh env)"` points
# the AWS variables (and so lookaround, aws and boto3) at it.
s3-up:
	@scripts/seaweedfs.sh up

s3-down:
	@scripts/seaweedfs.sh down

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

# Installing. The installed program carries the Swift runtime (--static-swift-stdlib): it runs
# without the toolchain, and the Debian package depends only on Debian packages. Its own build
# folder, so that it does not undo the ordinary release build.
PREFIX        ?= /usr/local
DESTDIR       ?=
INSTALL_BUILD := .build/install

install-build: deps
	$(LOCK) $(SWIFT) build -c release --static-swift-stdlib --scratch-path $(INSTALL_BUILD) --product lookaround

install: install-build
	@scripts/install.sh install $(INSTALL_BUILD)/release/lookaround "$(PREFIX)" "$(DESTDIR)"

uninstall:
	@scripts/install.sh uninstall "$(PREFIX)" "$(DESTDIR)"

deb: install-build
	@scripts/make-deb.sh $(INSTALL_BUILD)/release/lookaround $(OUT)

clean:
	rm -rf .build $(OUT)
