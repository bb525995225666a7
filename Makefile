# Outpost's entry points. The README's two commands are `make demo` and `make test`.
GO ?= go
# staticcheck, pinned; installed into bin/ by internal/scripts/setup.sh.
STATICCHECK_VERSION ?= v0.8.2
STATICCHECK := bin/staticcheck

.PHONY: demo test test-race setup build bench fuzz vet

## demo: the daemon against the embedded Lichess sandbox, a few fast games, then exit.
demo: setup
	./bin/outpost run --sandbox --games 3 --tc 1+0

## test: install what the suite needs, then run the whole test suite.
test: setup vet
	$(GO) test -count=1 -timeout 15m ./...

## test-race: the race detector over every package that runs goroutines or
## shares state (daemon, runner, client, sandbox, store, web, engines'
## process plumbing, the analysis pool, models' batcher, the demo). Pure
## single-goroutine code (the board, PGN and config parsers, report
## writers, ONNX encoders) is left out: the race detector finds nothing
## there and slows its perft and fuzz-seed tests ten-fold. See docs/testing.md.
RACE_PKGS ?= ./analysis ./analysis/comparerun ./analysis/ewr ./bots ./bots/runner \
	./bots/search ./bots/easy ./bots/knobs ./bots/maia ./bots/match ./bots/uci ./bots/uci/ucitest \
	./internal/daemon ./internal/demo ./internal/postgame ./internal/store ./internal/ucifront \
	./internal/verify ./internal/web ./lichess ./lichess/chatonce ./lichess/sandbox \
	./lichess/sandbox/fishnet ./models
test-race: setup
	$(GO) test -race -count=1 -timeout 20m $(RACE_PKGS)

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
