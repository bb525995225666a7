#!/usr/bin/env bash
# Installs everything Outpost's demo and test suite need on a fresh machine.
# Idempotent: each step checks first and does nothing when already done.
#   - Stockfish 15.1 from Debian's package (/usr/games/stockfish)
#   - Chromium and chromium-driver from Debian (web console browser tests)
#   - ONNX Runtime and the Maia-1 weights via `outpost models fetch`
#     (libonnxruntime.so.1 from the npm package onnxruntime-node@1.24.1;
#      weights from ../shared/models/maia1 when present)
set -euo pipefail
cd "$(dirname "$0")/../.."

log() { printf 'setup: %s\n' "$*" >&2; }

as_root() {
  if [ "$(id -u)" = 0 ]; then "$@"; elif command -v sudo >/dev/null; then sudo "$@"; else
    log "need root for: $*"; return 1; fi
}

if ! command -v go >/dev/null; then
  log "Go is not installed (need Go 1.26: https://go.dev/dl/)"; exit 1
fi

# Debian packages: Stockfish (engine analysis, the uci engine) and Chromium
# with its driver (the web console's browser tests).
need=()
[ -x /usr/games/stockfish ] || need+=(stockfish)
command -v chromium >/dev/null || need+=(chromium chromium-driver)
if [ ${#need[@]} -gt 0 ]; then
  log "installing Debian packages: ${need[*]}"
  as_root apt-get update -qq
  as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${need[@]}" >/dev/null
fi

mkdir -p bin
go build -o bin/outpost ./cmd/outpost
if bin/outpost help 2>/dev/null | grep -q '^  models '; then
  bin/outpost models fetch
fi
