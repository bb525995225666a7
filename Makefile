# Outpost's entry points. The README's two commands are `make demo` and `make test`.
GO ?= go

.PHONY: demo test setup build bench fuzz vet

## demo: the daemon against the embedded Lichess sandbox, a few fast games, then exit.
demo: setup
	./bin/outpost run --sandbox --games 3 --tc 1+0

## test: install what the suite needs, then run the whole test suite.
test: setup vet
	$(GO) test -count=1 -timeout 15m ./...

## setup: install Stockfish, ONNX Runtime and the Maia weights; build bin/outpost.
setup:
	bash internal/scripts/setup.sh

build:
	$(GO) build -o bin/outpost ./cmd/outpost

vet:
	@test -z "$$(gofmt -l $$(git ls-files '*.go'))" || { gofmt -l $$(git ls-files '*.go'); echo 'gofmt: files above need formatting'; exit 1; }
	$(GO) vet ./...

## bench: the performance targets, each printed as a ratio measured side by side.
bench: setup
	./bin/outpost bench
	./bin/outpost bench perft
