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

## race: the race detector over every package and every test
## (`go test -race ./...`). Under the race detector the daemon's end-to-end
## tests (internal/demo) play fewer games where the count is only a matter
## of volume (the soak: 6 games instead of 20; a build-tagged constant,
## internal/demo/race_on_test.go). See docs/testing.md for its time.
race:
	$(GO) test -race -count=1 -timeout 40m ./...

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
