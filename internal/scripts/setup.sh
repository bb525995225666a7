#!/usr/bin/env bash
# Installs everything Outpost's demo and test suite need on a fresh machine.
# Idempotent: each step checks first and does nothing when already done.
#   - Stockfish 15.1 from Debian's package (/usr/games/stockfish)
#   - native builds of Stockfish 15.1, 16, 17.1 and 18 for this CPU (engine
#     names sf15, sf16, sf17.1, sf18) from ../shared/stockfish into
#     ${OUTPOST_ENGINES_DIR:-~/.cache/outpost/engines} via `outpost engines
#     install`; 15.1 falls back to Debian's binary when it cannot be built
#     (build-essential is installed for the compiler)
#   - Stockfish 19 (WebAssembly, run with node) from the npm package
#     stockfish@19.0.0: only bin/stockfish-19-single.js + .wasm and
#     Copying.txt, into ${OUTPOST_STOCKFISH19_DIR:-~/.cache/outpost/stockfish19}
#   - Chromium and chromium-driver from Debian (web console browser tests)
#   - libfathom1 from Debian (Syzygy tablebase probing, loaded at run time)
#   - staticcheck (pinned) into bin/, for `make vet`
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
command -v node >/dev/null || need+=(nodejs)
command -v npm >/dev/null || need+=(npm)
command -v chromium >/dev/null || need+=(chromium chromium-driver)
/sbin/ldconfig -p 2>/dev/null | grep -q 'libfathom\.so\.1 ' || need+=(libfathom1)
{ command -v g++ >/dev/null && command -v make >/dev/null; } || need+=(build-essential)
if [ ${#need[@]} -gt 0 ]; then
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
if bin/outpost help 2>/dev/null | grep -q '^  models '; then
  # The ONNX Runtime library is kept across clones (~/.cache/outpost/models):
  # when the installed one is onnxruntime-node@1.24.1's linux-x64 build (by
  # its SHA-256), the npm package is not unpacked again.
  onnx_lib=$(bin/outpost models path 2>/dev/null | sed -n 's/^library  //p') || onnx_lib=
  onnx_sum=53ef1ac028dd1b05554b8da28d9159eb3876f99868193d2aaa6e67f0243c23d4
  if [ -n "$onnx_lib" ] && printf '%s  %s\n' "$onnx_sum" "$onnx_lib" | sha256sum --check --status 2>/dev/null; then
    bin/outpost models fetch --skip-library
  else
    bin/outpost models fetch
  fi
fi

# Native Stockfish (docs/stockfish.md). Each step skips an identical build.
# sf15 falls back to Debian's binary, saying why, when it cannot be built.
sf_src=${OUTPOST_STOCKFISH_SRC:-../shared/stockfish}
bin/outpost engines install sf15 --src "$sf_src"
# sf18: its networks come from npm stockfish@18.0.8 (about 170 MB, cached).
bin/outpost engines install sf18 --src "$sf_src" ||
  log "Stockfish 18 was not built (see above): engine sf18 is unavailable and its tests skip"
# sf16 and sf17.1, the engines of Lichess's analysis from 2023-07 to 2024-02
# and from 2025-03 to 2026-01: 16's network is a file in npm
# stockfish@16.0.0 (63 MB), 17.1's two are recovered from npm
# stockfish@17.1.0 (147 MB); both tarballs are cached.
for v in sf16 sf17.1; do
  bin/outpost engines install "$v" --src "$sf_src" ||
    log "$v was not built (see above): that engine is unavailable and its tests skip"
done
