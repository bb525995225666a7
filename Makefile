# Outpost's entry points. The README's two commands are `make demo` and `make test`.
GO ?= go
# staticcheck, pinned; installed into bin/ by internal/scripts/setup.sh.
STATICCHECK_VERSION ?= v0.8.2
STATICCHECK := bin/staticcheck

.PHONY: demo test test-race race setup build bench fuzz vet

## demo: the daemon against the embedded Lichess sandbox, a few fast games, then exit.
demo: setup
	./bin/outpost run --sandbox --games 3 --tc 1+0

## test: install what the suite needs, then run the whole test suite and the
## race detector (what .ci/run calls).
test: setup vet
	$(GO) test -count=1 -timeout 15m ./...
	$(MAKE) --no-print-directory race

## test-race: the race detector alone (after setup).
test-race: setup
	$(MAKE) --no-print-directory race

## race: the race detector over the packages that run goroutines or share
## state (daemon, runner, client, sandbox, store, web, engines' process
## plumbing, the analysis pool and cluster, models' batcher). Pure
## single-goroutine code (the board, PGN and config parsers, report writers,
## ONNX encoders) is left out: the race detector finds nothing there and
## slows its perft and fuzz-seed tests ten-fold. The daemon's end-to-end
## package (internal/demo) runs its real-time games for minutes; under the
## race detector it would take most of CI's time, so only its token-hygiene
## session runs raced (the daemon's packages above are raced in full).
## See docs/testing.md.
RACE_PKGS ?= ./analysis ./analysis/cluster ./analysis/comparerun ./analysis/ewr ./bots ./bots/runner \
	./bots/search ./bots/easy ./bots/knobs ./bots/maia ./bots/match ./bots/uci ./bots/uci/ucitest \
	./internal/daemon ./internal/postgame ./internal/store ./internal/ucifront \
	./internal/verify ./internal/web ./lichess ./lichess/chatonce ./lichess/sandbox \
	./lichess/sandbox/fishnet ./models
race:
	$(GO) test -race -count=1 -timeout 20m $(RACE_PKGS)
	$(GO) test -race -count=1 -timeout 10m -run 'TestTokenNeverWritten' ./internal/demo

## setup: install Stockfish, ONNX Runtime and the Maia weights; build bin/outpost.
setup:
	bash internal/scripts/setup.sh

build:
	$(GO) build -o bin/outpost ./cmd/outpost

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
