# nish-driver's build and test entry points. `make test` is what CI runs
# (.ci/run) and what the README tells a developer to run; it must fail on any
# missing tool rather than skip what needs it.

SHELL := /bin/bash
.SHELLFLAGS := -euo pipefail -c
.DEFAULT_GOAL := build

GO     ?= go
NPM    ?= npm
NODE   ?= node
MODULE := github.com/nish-driver/nish-driver
BIN    := bin/nish-driver

# The version stamped into the binary: `git describe` when this is a git
# checkout git can read, else engine.DriverVersion's default.
GIT_VERSION := $(shell git describe --always --dirty 2>/dev/null)
LDFLAGS     := $(if $(GIT_VERSION),-X $(MODULE)/engine.DriverVersion=$(GIT_VERSION))

TSCLIENT      := e2e/tsclient
TSCLIENT_DEPS := $(TSCLIENT)/node_modules/.package-lock.json

# The demo's simulated person (ci/demoperson).
DEMO_PERSON := bin/demoperson

# NATIVE_BENCH runs the native package's benchmarks named by the word that
# follows it, and none of its tests (-run matches no test's name).
NATIVE_BENCH = $(GO) test ./native -run '^$$' -bench

# Every Go source of the project (NUL-separated), leaving out build outputs,
# caches and installed packages.
GO_FILES := find . \( -path ./.git -o -path ./.cache -o -path ./bin -o -name node_modules \) -prune -o -name '*.go' -print0

.PHONY: build test deps vet fmt-check gotest e2e bench demo demo-run fmt clean

## build: the driver binary at bin/nish-driver
build:
	$(GO) build -ldflags '$(LDFLAGS)' -o $(BIN) ./cmd/nish-driver

## test: dependencies, vet, gofmt, Go tests with the race detector, then the
## outside-client (TypeScript SDK) test against the built binary
test: deps
	$(MAKE) --no-print-directory vet
	$(MAKE) --no-print-directory fmt-check
	$(MAKE) --no-print-directory gotest
	$(MAKE) --no-print-directory e2e
	$(MAKE) --no-print-directory demo-run DEMO_FLAGS=--fast
	ci/deb-install-test.sh
	@echo "make test: all passed"

deps:
	ci/install-deps.sh

vet:
	$(GO) vet ./...

fmt-check:
	@out=$$($(GO_FILES) | xargs -0 -r gofmt -l); \
	if [ -n "$$out" ]; then echo "gofmt would change these files (run make fmt):"; echo "$$out"; exit 1; fi

# native first: go test runs the packages' tests a few at a time (-p, the
# number of cores) in the order they are named, and native, the desktop
# suite, takes as long as all the others together; named last (./...
# sorts it after ci, cmd, engine and internal) it started when they were
# done and its whole time was added to theirs. Every package still runs.
gotest:
	$(GO) test -race -count=1 ./native ./...

# npm ci runs only when the lock file is newer than the last install; the
# packages go to e2e/tsclient/node_modules (ignored by git).
$(TSCLIENT_DEPS): $(TSCLIENT)/package.json $(TSCLIENT)/package-lock.json
	cd $(TSCLIENT) && $(NPM) ci --no-audit --no-fund
	touch $@

## e2e: a client this project did not write drives the built binary over stdio
e2e: build $(TSCLIENT_DEPS)
	cd $(TSCLIENT) && NISH_DRIVER_BIN=$(CURDIR)/$(BIN) $(NPM) test

## bench: the read benchmark (ci/bench, docs/performance.md): on a private
## desktop, one app at a time (GTK apps, then Chromium and Firefox on the
## fixture page), the driver's full, skeleton and re-reads beside a pyatspi
## walk of the same window, as one table with ratios; then the act
## benchmarks; last, the soak (ci/soak): the built binary on the mock over
## stdio, 10,000 mixed calls with junk lines between them, RSS and
## goroutines at the start and the end. The atspi package's own
## micro-benchmarks start apps and take minutes: see native/atspi/PERF.md
## for their command. The browsers' soak (1,000 mixed reads and acts each,
## minutes) is not part of it:
##   go test ./native -run '^$' -bench BrowserSoak -benchtime 1x
bench: deps
	$(GO) run ./ci/bench
	@echo
	@echo "acts (headless click with settle on the 200-row window, one renaming a label, one adding a row; type_text of 1,000 characters), median of 20:"
	$(NATIVE_BENCH) 'HeadlessClick|HeadlessAddRow|TypeText1000' -benchtime 20x
	@echo
	@echo "browsers (click on the fixture page's Save with settle, Chromium and Firefox), median of 20:"
	$(NATIVE_BENCH) 'BrowserClick' -benchtime 20x
	@echo
	@echo "Calc's visible block alone, inside a whole read (200 x 8 and 100,000 x 3 sheets): block ms, cells (the apps' rows are in the table above):"
	$(NATIVE_BENCH) 'CalcVisibleBlock' -benchtime 5x
	@echo
	@echo "wait_for: from the app's change (a click's action call returning) to wait_for's reply, 50 waits, p50/p99/max in ms:"
	$(NATIVE_BENCH) 'WaitForReply' -benchtime 50x
	@echo
	@echo "takeover: from the person's input to the driver's last press or step (100 trials each), and the indicator gone after each end (50 each), p50/p99 in ms:"
	$(NATIVE_BENCH) 'HandBack' -benchtime 100x
	$(NATIVE_BENCH) 'IndicatorRemoval' -benchtime 50x
	@echo
	@echo "soak (docs/performance.md): 10,000 mixed calls with junk between them, on the mock over stdio of the built binary; RSS and goroutines at the start and the end:"
	$(MAKE) --no-print-directory build
	$(GO) run ./ci/soak --bin $(BIN)

## demo: real GTK apps and Chromium on a private desktop (nish-driver sandbox),
## a simulated person (ci/demoperson) who answers the consent dialogs with real
## clicks, and a scripted MCP session through the TypeScript SDK, printed step
## by step with timings; the screenshots before and after go to demo-out/
## (docs/demo.md)
demo: deps
	$(MAKE) --no-print-directory demo-run

# demo-run is the demo without the dependency check; `make test` runs it in
# fast mode (DEMO_FLAGS=--fast leaves out gtk3-widget-factory).
demo-run: build $(TSCLIENT_DEPS)
	$(GO) build -o $(DEMO_PERSON) ./ci/demoperson
	cd $(TSCLIENT) && NISH_DRIVER_BIN=$(CURDIR)/$(BIN) NISH_DEMO_PERSON_BIN=$(CURDIR)/$(DEMO_PERSON) \
		$(NODE) demo.mjs --out $(CURDIR)/demo-out $(DEMO_FLAGS)

## deb: the Debian package in bin/deb/ (binary, man page, systemd user unit,
## docs; Depends from dpkg-shlibdeps), checked by lintian
.PHONY: deb
deb: deps
	ci/deb-build.sh

## fmt: gofmt every Go file
fmt:
	$(GO_FILES) | xargs -0 -r gofmt -l -w

## clean: remove build outputs and the e2e client's packages
clean:
	rm -rf bin $(TSCLIENT)/node_modules
	$(GO) clean -testcache
