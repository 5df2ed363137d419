# TraceKit: every target installs what is missing first, so a fresh Debian machine with the Swift
# toolchain needs nothing else. `make run` and `make test` are the two commands in the README.
SHELL := /bin/bash
SWIFT ?= swift
# Debian packages the build needs: PROJ and GEOS (C libraries and headers), pkg-config, and
# libxml2 (headers), the reference XML parser the GPX reader's tests compare against.
DEB_PACKAGES := libproj-dev libgeos-dev pkg-config libxml2-dev
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)
BIN := .build/debug/tracekit

.PHONY: deps build run test gate baseline bench fuzz clean

## deps: install the Debian packages that are missing (quick no-op when all are present)
deps:
	@missing=""; for p in $(DEB_PACKAGES); do \
	  dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q "ok installed" || missing="$$missing $$p"; \
	done; \
	if [ -n "$$missing" ]; then \
	  echo "Installing:$$missing"; \
	  $(SUDO) apt-get update -qq && $(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $$missing; \
	fi

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
## regression gate: every trip of Traces/ against the committed baseline (exit 1 on a regression).
## Refresh the baseline after an intended change: make baseline (and commit Traces/baseline.json).
test: deps
	$(SWIFT) build --build-tests
	$(SWIFT) test
	$(MAKE) gate

## gate: tracekit batch over Traces/ against Traces/baseline.json
gate: build
	$(BIN) batch Traces/ --baseline Traces/baseline.json

## baseline: rewrite Traces/baseline.json from the current build
baseline: build
	$(BIN) batch Traces/ --write-baseline Traces/baseline.json

## bench: release benchmarks (see Benchmarks/README.md); BENCH_ARGS="--json out.json" for JSON
bench: deps
	$(SWIFT) build -c release --product tracekit-bench
	.build/release/tracekit-bench $(BENCH_ARGS)

## fuzz: every libFuzzer target of Fuzz/ (GPX, CSV, PLT, REC readers; policy and scenario files; the GPX reader against libxml2) with
## address sanitizer, FUZZ_SECONDS each (default 120); FUZZ_TARGETS picks some. Built into
## .build/fuzz (never disturbs the normal build); exit 1, with the reproducer's path, on a crash.
FUZZ_SECONDS ?= 120
FUZZ_TARGETS ?= gpx gpx-diff csv plt rec policy scenario
FUZZ_FLAGS := --build-path .build/fuzz -c debug -Xswiftc -sanitize=fuzzer,address -Xswiftc -DFUZZING
fuzz: deps
	@set -o pipefail; for t in $(FUZZ_TARGETS); do \
	  echo "== building fuzz-$$t"; \
	  $(SWIFT) build $(FUZZ_FLAGS) --product fuzz-$$t 2>&1 | { grep -v "Cannot export local symbol" || true; } || exit 1; \
	done
	@Fuzz/fuzz.sh $(FUZZ_SECONDS) $(FUZZ_TARGETS)

clean:
	$(SWIFT) package clean
