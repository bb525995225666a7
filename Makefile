# Outpost's entry points. The README's two commands are `make demo` and `make test`.
GO ?= go
# staticcheck, pinned; installed into bin/ by internal/scripts/setup.sh.
STATICCHECK_VERSION ?= v0.8.2
STATICCHECK := bin/staticcheck

.PHONY: demo setup-demo test test-race race race-demo-soak race-rest soak setup build bench fuzz vet cross arm64 dist

## demo: the daemon against the embedded Lichess sandbox, a few fast games, then
## exit. Its setup installs only what the demo runs (setup-demo).
demo: setup-demo
	./bin/outpost run --sandbox --games 3 --tc 1+0

## test: install what the suite needs, then run every test once, under the
## race detector, and the soak at its full volume without it. What .ci/run
## calls; docs/testing.md says what runs where. Two lanes side by side: the
## daemon's end-to-end tests (internal/demo, the longest package, mostly
## waiting on game clocks), the soak and the packages without concurrency
## (PLAIN_PKGS) unraced, then the cross-builds of the release targets and
## the linux/arm64 checks under qemu, beside every other package; vet runs
## beside both (docs/testing.md "What runs where": CPU cost per lane).
## The demo's setup comes first; what only some tests need (Debian
## packages, Stockfish 19, the native builds) is installed beside the lanes
## (`setup.sh beside`), and those tests wait for it (testkit.AwaitSetup).
## SETUP_BESIDE=0 installs it all before the lanes instead.
SETUP_BESIDE ?= 1
test: setup-demo
	OUTPOST_SETUP_BESIDE=$(SETUP_BESIDE) bash internal/scripts/setup.sh beside $(MAKE) --no-print-directory -j3 race-demo-soak race-rest vet

## test-race: the race detector alone (after setup).
test-race: setup
	$(MAKE) --no-print-directory race

## race: every package and every test under the race detector
## (`go test -race ./...`). Under the race detector the soak (internal/demo)
## plays 6 games instead of 20 (a build-tagged constant,
## internal/demo/race_on_test.go); `make soak` plays the 20.
race:
	$(GO) test -race -count=1 -timeout 40m ./...

DEMO_PKG := ./internal/demo
## PLAIN_PKGS: packages with no goroutine, no t.Parallel and no unsafe in
## their code or tests, whose tests are single-goroutine computations (perft,
## reading 150 MB npm archives): the race detector has nothing to find there
## and made them 8-12 times as costly (76 s of CPU of 407 in race-rest, issue
## 40). They run once, unraced, in the demo lane, whose CPU is mostly idle.
PLAIN_PKGS := ./bots/board ./bots/wasmnet
race-demo-soak:
	bash internal/scripts/gotest.sh bin/log/race-demo.log $(GO) test -race -count=1 -timeout 40m $(DEMO_PKG)
	$(MAKE) --no-print-directory soak
	$(GO) test -count=1 -timeout 20m $(PLAIN_PKGS)
	$(MAKE) --no-print-directory arm64

## race-rest: every other package; on failure internal/scripts/gotest.sh
## repeats the failing tests and the head of each race report at the end.
race-rest:
	bash internal/scripts/gotest.sh bin/log/race-rest.log $(GO) test -race -count=1 -timeout 40m $$($(GO) list ./... | grep -v -e '/internal/demo$$' $(foreach p,$(PLAIN_PKGS),-e '/$(p:./%=%)$$'))

## soak: the daemon's soak at its full volume (20 games), at normal speed: the
## one test whose purpose (volume on the real clock) needs the code unraced.
soak:
	$(GO) test -count=1 -timeout 10m -run '^TestSoakWithFaults$$' $(DEMO_PKG)

## setup-demo: what the demo runs and nothing else: one Stockfish 15.1 (one
## already installed, else Debian's package as root, else one native build),
## bin/outpost, ONNX Runtime and the Maia weights (`outpost setup`).
setup-demo:
	bash internal/scripts/setup.sh demo

## setup: setup-demo, then what only the test suite needs: the Debian packages
## of its browser, Syzygy and arm64 tests (as root), Stockfish 19, staticcheck
## and the native builds of Stockfish 15.1, 18, 16 and 17.1, one after the
## other (`make test` installs the same beside its tests).
setup:
	bash internal/scripts/setup.sh

build:
	$(GO) build -o bin/outpost ./cmd/outpost

## cross: the release targets, built without cgo into bin/cross/
## (outpost-GOOS-GOARCH, .exe on windows).
CROSS_TARGETS := linux/amd64 linux/arm64 darwin/amd64 darwin/arm64 windows/amd64 windows/arm64
CROSS_DIR := bin/cross
cross:
	bash internal/scripts/cross.sh $(CROSS_DIR) $(CROSS_TARGETS)

## arm64: the linux/arm64 binary under qemu-aarch64 (Debian qemu-user):
## perft, analysis with Lichess's evals and one sandbox game, each against
## the native binary (internal/scripts/arm64-qemu.sh).
arm64: cross build
	bash internal/scripts/arm64-qemu.sh $(CROSS_DIR)/outpost-linux-arm64 bin/outpost

## dist: the release archives (binary, README, licences, example config,
## install guide, systemd unit) and SHA256SUMS in dist/.
dist: cross
	bash internal/scripts/dist.sh $(CROSS_DIR) dist

## vet: gofmt, go vet and staticcheck, all clean.
vet:
	@test -z "$$(gofmt -l $$(git ls-files '*.go'))" || { gofmt -l $$(git ls-files '*.go'); echo 'gofmt: files above need formatting'; exit 1; }
	$(GO) vet ./...
	@test -x $(STATICCHECK) || GOBIN=$(CURDIR)/bin $(GO) install honnef.co/go/tools/cmd/staticcheck@$(STATICCHECK_VERSION)
	$(STATICCHECK) ./...

## bench: the performance targets, each printed as a ratio measured side by side.
bench: setup
	./bin/outpost bench
	./bin/outpost bench perft
