#!/usr/bin/env bash
# Installs everything Outpost's demo and test suite need on a fresh machine.
# Idempotent: each step checks first and does nothing when already done.
# What a user needs to run Outpost is installed by `outpost setup` (no root,
# into ~/.cache/outpost; docs/install.md); this script adds what only the
# test suite needs, and runs `outpost setup` with the reference files of
# ../shared as local sources:
#   - Debian packages, as root (skipped with a message otherwise): Stockfish
#     15.1 (/usr/games/stockfish: the suite's reference engine, and the
#     network of the native 15.1 build), Chromium and chromium-driver (web
#     console browser tests), libfathom1 (Syzygy probing), build-essential
#     (native Stockfish builds), nodejs/npm (Stockfish 19), qemu-user (the
#     linux/arm64 checks of `make test`, qemu-aarch64)
#   - native builds of Stockfish 15.1, 16, 17.1 and 18 for this CPU (engine
#     names sf15, sf16, sf17.1, sf18) from ../shared/stockfish into
#     ${OUTPOST_ENGINES_DIR:-~/.cache/outpost/engines}, through `outpost setup`
#   - Stockfish 19 (WebAssembly, run with node) from the npm package
#     stockfish@19.0.0: only bin/stockfish-19-single.js + .wasm and
#     Copying.txt, into ${OUTPOST_STOCKFISH19_DIR:-~/.cache/outpost/stockfish19}
#   - staticcheck (pinned) into bin/, for `make vet`
#   - `outpost setup --build`: native Stockfish 15.1 and 18 (engine names
#     sf15, sf18) from ../shared/stockfish into
#     ${OUTPOST_ENGINES_DIR:-~/.cache/outpost/engines}, ONNX Runtime
#     (onnxruntime-node@1.24.1 from the npm registry) and the Maia-1
#     weights (from ../shared/models/maia1) into ~/.cache/outpost/models
set -euo pipefail
cd "$(dirname "$0")/../.."

log() { printf 'setup: %s\n' "$*" >&2; }

as_root() {
  if [ "$(id -u)" = 0 ]; then "$@"; elif command -v sudo >/dev/null; then sudo "$@"; else
    log "need root for: $*"; return 1; fi
}
can_root() { [ "$(id -u)" = 0 ] || command -v sudo >/dev/null; }

if ! command -v go >/dev/null; then
  log "Go is not installed (need Go 1.26: https://go.dev/dl/)"; exit 1
fi

# Debian packages: Stockfish (engine analysis, the uci engine) and Chromium
# with its driver (the web console's browser tests).
need=()
[ -x /usr/games/stockfish ] || need+=(stockfish)
command -v node >/dev/null || need+=(nodejs)
command -v npm >/dev/null || need+=(npm)
command -v chromium >/dev/null || need+=(chromium chromium-driver)
/sbin/ldconfig -p 2>/dev/null | grep -q 'libfathom\.so\.1 ' || need+=(libfathom1)
{ command -v g++ >/dev/null && command -v make >/dev/null; } || need+=(build-essential)
command -v qemu-aarch64 >/dev/null || need+=(qemu-user)
if [ ${#need[@]} -gt 0 ] && ! { can_root && command -v apt-get >/dev/null; }; then
  log "skipping Debian packages ${need[*]}: not root (or no apt-get); the tests that need them skip or fail, saying so"
elif [ ${#need[@]} -gt 0 ]; then
  log "installing Debian packages: ${need[*]}"
  as_root apt-get update -qq
  as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${need[@]}" >/dev/null
fi

# Stockfish 19 (engine name "sf19"): the npm package's single-threaded
# WebAssembly build. Checked by SHA-256; nothing else of the package is kept.
sf19_dir=${OUTPOST_STOCKFISH19_DIR:-$HOME/.cache/outpost/stockfish19}
sf19_sums='72772f8bdd7353e4e24245d946bb831f56bcccf02fa16a779c1b92a6c00e5cc2  stockfish-19-single.js
8725c26572762617fd96b2ea83ff130e6640b85815890d682bf8c49db0820721  stockfish-19-single.wasm
0b383d5a63da644f628d99c33976ea6487ed89aaa59f0b3257992deac1171e6b  Copying.txt'
if ! (cd "$sf19_dir" 2>/dev/null && printf '%s\n' "$sf19_sums" | sha256sum --check --status); then
  log "installing Stockfish 19 (npm stockfish@19.0.0) into $sf19_dir"
  tmp=$(mktemp -d)
  trap 'rm -rf "$tmp"' EXIT
  (cd "$tmp" && npm pack --silent stockfish@19.0.0 >/dev/null)
  tar -xzf "$tmp"/stockfish-19.0.0.tgz -C "$tmp" \
    package/bin/stockfish-19-single.js package/bin/stockfish-19-single.wasm package/Copying.txt
  (cd "$tmp" && mv package/bin/stockfish-19-single.js package/bin/stockfish-19-single.wasm package/Copying.txt . &&
    printf '%s\n' "$sf19_sums" | sha256sum --check --quiet)
  mkdir -p "$sf19_dir"
  mv "$tmp"/stockfish-19-single.js "$tmp"/stockfish-19-single.wasm "$tmp"/Copying.txt "$sf19_dir"/
  rm -rf "$tmp"
  trap - EXIT
fi

mkdir -p bin
# staticcheck (run by `make vet`, which `make test` runs), pinned to a
# release that supports Go 1.26, from the Go module proxy.
staticcheck_version=v0.8.2
if ! bin/staticcheck -version 2>/dev/null | grep -q "${staticcheck_version#v}"; then
  log "installing staticcheck $staticcheck_version into bin/"
  GOBIN="$PWD/bin" go install "honnef.co/go/tools/cmd/staticcheck@$staticcheck_version"
fi
go build -o bin/outpost ./cmd/outpost

# What a user needs, through the product's own installer. Local sources:
# the Stockfish source archives and the Maia weights of ../shared (when
# present; otherwise `outpost setup` downloads them, pinned by SHA-256).
sf_src=${OUTPOST_STOCKFISH_SRC:-../shared/stockfish}
maia_src=${OUTPOST_MAIA_SOURCE:-}
[ -n "$maia_src" ] || [ ! -d ../shared/models/maia1 ] || maia_src=../shared/models/maia1
# sf15 is built natively even though Debian's is installed (--build); it
# falls back to Debian's binary, saying why, when it cannot be built.
bin/outpost setup --build --engines sf15 --stockfish-src "$sf_src" ${maia_src:+--maia-source "$maia_src"}
# sf18, sf16, sf17.1: their networks come from the official server or npm
# stockfish@18.0.8 (about 170 MB), stockfish@16.0.0 (63 MB, a plain file)
# and stockfish@17.1.0 (147 MB, recovered from its split wasm), cached.
# sf16 and sf17.1 are the engines of Lichess's analysis from 2023-07 to
# 2024-02 and from 2025-03 to 2026-01. Not fatal: their tests skip without.
for v in sf18 sf16 sf17.1; do
  bin/outpost setup --engines "$v" --stockfish-src "$sf_src" --skip-library --skip-weights ||
    log "$v was not built (see above): that engine is unavailable and its tests skip"
done
