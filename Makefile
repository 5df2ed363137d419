# TraceKit: every target installs what is missing first, so a fresh Debian machine with the Swift
# toolchain needs nothing else. `make run` and `make test` are the two commands in the README.
SHELL := /bin/bash
SWIFT ?= swift
# Debian packages the build needs: PROJ and GEOS (C libraries and headers), pkg-config, libxml2
# (headers), the reference XML parser the GPX reader's tests compare against, zlib (headers),
# which only the browser checks use to decode their screenshots, and cmark-gfm, GitHub's Markdown
# renderer, which the hostile-text tests render the Markdown reports with.
DEB_PACKAGES := libproj-dev libgeos-dev pkg-config libxml2-dev zlib1g-dev cmark-gfm
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)
BIN := .build/debug/tracekit

# $(call apt-install,PACKAGES): installs with apt-get those of the Debian PACKAGES that are
# missing, and only those (a quick no-op when all are present).
define apt-install
missing=""; for p in $(1); do \
  dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q "ok installed" || missing="$$missing $$p"; \
done; \
if [ -n "$$missing" ]; then \
  echo "Installing:$$missing"; \
  $(SUDO) apt-get update -qq && $(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $$missing; \
fi
endef

.PHONY: deps browser build run test examples test-spark test-sanitize gate baseline bench fuzz format clean

## deps: install the Debian packages that are missing (quick no-op when all are present)
deps:
	@$(call apt-install,$(DEB_PACKAGES))

## browser: install Debian's chromium when it is missing (the browser checks of the HTML reports
## load each report in it, headless; about 35 s once, a quick no-op after). Used by make test.
browser:
	@dpkg-query -W -f='$${Status}' chromium 2>/dev/null | grep -q "ok installed" || { \
	  echo "Installing: chromium (the HTML reports' browser checks)"; \
	  $(SUDO) apt-get update -qq && $(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends chromium; }

## build: debug build of everything
build: deps
	$(SWIFT) build

## run: the main job: replay the bundled ride (two phones, scenario sidecar), then print the sharing policy table
run: build
	@echo "== tracekit replay --scenario Traces/trips/ride/ride.scenario.json"
	@$(BIN) replay --scenario Traces/trips/ride/ride.scenario.json
	@echo
	@echo "== tracekit policy show"
	@$(BIN) policy show

## test: build and run every test (warnings in our code are errors: Package.swift), then the
## gate, strict: every trip of Traces/ against the committed baseline (exit 1 when a figure moves
## beyond tolerance in either direction; see gate).
## The output of swift test is also kept in .build/test.log; after it, Tools/test-summary.sh
## prints how many tests were skipped and why, one line each (tests that need ../shared skip
## without it), or "Skipped: none". The exit status is swift test's (pipefail), and the gate runs
## only when the tests pass.
## Refresh the baseline after an intended change: make baseline (and commit Traces/baseline.json).
test: deps browser
	$(SWIFT) build --build-tests
	@mkdir -p .build
	@set -o pipefail; $(SWIFT) test 2>&1 | tee .build/test.log; status=$$?; \
	  echo; Tools/test-summary.sh .build/test.log; exit $$status
	$(MAKE) examples
	$(MAKE) gate

## examples: build and run Examples/RelayService, the README's service: a package of its own that
## depends on the TraceKitCore product by path. Built with pkg-config pointed at an empty folder
## (PKG_CONFIG_PATH and PKG_CONFIG_LIBDIR), then checked: the build log names no PROJ or GEOS, the
## build compiled no TraceProj, TraceGeometry, CProj or CGeos (no object file or module of theirs; SwiftPM
## only lays out empty folders for every target of the graph), and `ldd` shows neither library.
## The demo replays the bundled ride through 400 live requests and exits 1 when one forwards a
## hirer's location outside a ride. Built from clean every time (SwiftPM's incremental build of a
## path dependency misses files added to it). Used by make test (about 30 s).
EXAMPLE := Examples/RelayService
examples: deps
	@mkdir -p .build/empty-pkg-config
	@rm -rf $(EXAMPLE)/.build
	@set -o pipefail; cd $(EXAMPLE) && PKG_CONFIG_PATH=$(CURDIR)/.build/empty-pkg-config PKG_CONFIG_LIBDIR=$(CURDIR)/.build/empty-pkg-config \
	  $(SWIFT) build --product relay-demo 2>&1 | tee .build-log.txt
	@if grep -iE "proj|geos" $(EXAMPLE)/.build-log.txt; then echo "examples: the build reached PROJ or GEOS"; exit 1; fi
	@if find $(EXAMPLE)/.build/debug/ \( -path "*TraceProj*" -o -path "*TraceGeometry*" -o -path "*CProj*" -o -path "*CGeos*" \) \
	  \( -name "*.o" -o -name "*.swiftmodule" \) | grep .; then echo "examples: PROJ or GEOS was built"; exit 1; fi
	@if ldd $(EXAMPLE)/.build/debug/relay-demo | grep -E "libproj|libgeos"; then echo "examples: relay-demo links PROJ or GEOS"; exit 1; fi
	@rm -f $(EXAMPLE)/.build-log.txt
	cd $(EXAMPLE) && .build/debug/relay-demo ../../Traces/trips/ride 400

## test-spark: TraceKit on Spark, checked (not part of `make test`; .ci/run runs it after). Installs what is missing and
## only that: Debian's Java runtime (openjdk-17-jre-headless) and python3-venv, and PySpark
## 4.0.1 (PYSPARK_VERSION) in a virtual environment under .build/spark-venv (the engine's Python, not the
## product's; skipped when that version is there); builds tracekit in release; runs
## Tools/spark/test_spark.py on Spark's local mode with two worker threads. Job 1: the bundled
## corpus replayed one shard per Spark task, the lines reduced by `tracekit merge` and compared byte
## for byte with `tracekit batch Traces/ --jobs 1` (table, --write-baseline, the gate with --junit
## and --markdown, exit status).
## Job 2: a Parquet table of pings built by Spark from the bundled trips, grouped by request, each
## group streamed in its task to `tracekit batch - --trip REQUEST.csv --index I --of N --jsonl`,
## the lines reduced by `tracekit merge` and compared byte for byte with `tracekit batch` over the
## same requests' CSVs in a folder. Before them, Tools/scale-out-recipes.sh runs the README's
## Hadoop, GitHub Actions and Kubernetes recipes' shard and merge commands here (a few seconds).
## One line per check, closing with "N passed, N failed"; exit 1 when one fails.
PYSPARK_VERSION := 4.0.1
SPARK_VENV := .build/spark-venv
SPARK_DEB_PACKAGES := openjdk-17-jre-headless python3-venv
test-spark: deps
	@$(call apt-install,$(SPARK_DEB_PACKAGES))
	@$(SPARK_VENV)/bin/python -m pip --version >/dev/null 2>&1 || { \
	  echo "Creating $(SPARK_VENV)"; rm -rf $(SPARK_VENV); python3 -m venv $(SPARK_VENV) || { rm -rf $(SPARK_VENV); exit 1; }; }
	@$(SPARK_VENV)/bin/python -c 'import sys, pyspark; sys.exit(pyspark.__version__ != "$(PYSPARK_VERSION)")' 2>/dev/null || { \
	  echo "Installing: pyspark==$(PYSPARK_VERSION) into $(SPARK_VENV)"; \
	  $(SPARK_VENV)/bin/pip install -q --disable-pip-version-check pyspark==$(PYSPARK_VERSION); }
	$(SWIFT) build -c release --product tracekit
	Tools/scale-out-recipes.sh .build/release/tracekit
	$(SPARK_VENV)/bin/python Tools/spark/test_spark.py --tracekit .build/release/tracekit

## test-sanitize: every test built and run with address sanitizer (and LeakSanitizer), then with
## thread sanitizer, each in its own build path (.build/asan, .build/tsan; the normal build is never
## disturbed). Tests that run tracekit or trip-generator run the sanitized binaries beside the test
## bundle. TRACEKIT_SANITIZER and TRACEKIT_SANITIZER_ADDRESS|THREAD tell the tests (TestSupport's
## `sanitizer`: the peak RSS bound does not apply under shadow memory; TSan faults under a file size
## limit). XCTest is off (every test uses Swift Testing; XCTest's own runner
## leaks). Suppressions, each explained: Tests/Support/Sanitizers/. SANITIZERS="thread" runs one.
## Exit 1 on any report.
SANITIZERS ?= address thread
test-sanitize: deps
	@set -e -o pipefail; for s in $(SANITIZERS); do \
	  case $$s in address) dir=asan;; thread) dir=tsan;; *) echo "unknown sanitizer $$s"; exit 64;; esac; \
	  flags="--build-path .build/$$dir --sanitize=$$s -Xswiftc -DTRACEKIT_SANITIZER -Xswiftc -DTRACEKIT_SANITIZER_$$(echo $$s | tr a-z A-Z)"; \
	  echo "== swift build --build-tests $$flags"; \
	  $(SWIFT) build --build-tests $$flags; \
	  echo "== swift test $$flags"; \
	  ASAN_OPTIONS=detect_leaks=1 LSAN_OPTIONS=suppressions=$(CURDIR)/Tests/Support/Sanitizers/lsan.supp \
	  TSAN_OPTIONS=second_deadlock_stack=1 \
	    $(SWIFT) test $$flags --disable-xctest; \
	done

## gate: tracekit batch over Traces/ against Traces/baseline.json, --strict: a figure (a trip, state,
## role and metric) that moves beyond its tolerance in either direction fails it, as does a figure
## measured in only one of the two, a new trip or a missing one. Worse only is not enough: a change
## that under-charges the radio's first tail or misplaces the dropoff makes figures "better", and
## the one-sided gate passed it. Every report counts the figures failing the gate. An intended
## improvement fails too, until the baseline is refreshed (make baseline).
gate: build
	$(BIN) batch Traces/ --baseline Traces/baseline.json --strict

## baseline: rewrite Traces/baseline.json from the current build
baseline: build
	$(BIN) batch Traces/ --write-baseline Traces/baseline.json

## bench: release benchmarks (see Benchmarks/README.md); BENCH_ARGS="--json out.json" for JSON
bench: deps
	$(SWIFT) build -c release --product tracekit-bench
	.build/release/tracekit-bench $(BENCH_ARGS)

## fuzz: every libFuzzer target of Fuzz/ (GPX, CSV, PLT, REC, NMEA, KML, JSON, NDJSON readers; policy and scenario files; merge's batch lines; the GPX reader against libxml2) with
## address sanitizer, FUZZ_SECONDS each (default 120); FUZZ_TARGETS picks some. Built into
## .build/fuzz (never disturbs the normal build); exit 1, with the reproducer's path, on a crash.
FUZZ_SECONDS ?= 120
FUZZ_TARGETS ?= gpx gpx-diff csv plt rec nmea kml json ndjson policy scenario merge
FUZZ_FLAGS := --build-path .build/fuzz -c debug -Xswiftc -sanitize=fuzzer,address -Xswiftc -DFUZZING
fuzz: deps
	@set -o pipefail; for t in $(FUZZ_TARGETS); do \
	  echo "== building fuzz-$$t"; \
	  $(SWIFT) build $(FUZZ_FLAGS) --product fuzz-$$t 2>&1 | { grep -v "Cannot export local symbol" || true; } || exit 1; \
	done
	@Fuzz/fuzz.sh $(FUZZ_SECONDS) $(FUZZ_TARGETS)

## format: format every Swift file with the toolchain's swift format and the committed .swift-format
## (4 spaces, 140 columns, existing line breaks kept, imports ordered)
format:
	$(SWIFT) format format -i -r --parallel Sources Tests Benchmarks Tools Fuzz Package.swift

clean:
	$(SWIFT) package clean
