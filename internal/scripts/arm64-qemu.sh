#!/usr/bin/env bash
# Runs the linux/arm64 binary under qemu-aarch64 (Debian qemu-user) and
# checks it against the native one:
#   1. perft: node counts of the start position (depth 5) and of
#      "Kiwipete" (depth 3), equal to the native binary's and to the known
#      counts;
#   2. analysis with Lichess evals (`analyse --lichess-evals`, text and
#      annotated PGN) of real Lichess games: byte-identical to the native
#      output;
#   3. `run --sandbox --games 1` with the built-in engines (bot: medium,
#      sparring partner: easy): exits 0 after one game played and summarised.
#   usage: arm64-qemu.sh ARM64_BINARY NATIVE_BINARY
# Skips, saying so, when qemu-aarch64 is not installed (setup installs
# qemu-user as root). QEMU_LD_PREFIX may name an aarch64 sysroot for a
# dynamically linked (cgo) binary.
set -euo pipefail
cd "$(dirname "$0")/../.."
arm=$1 native=$2
log() { printf 'arm64: %s\n' "$*" >&2; }
# qemu-user comes with the Debian packages `make test` installs beside the
# tests (setup.sh beside): wait for that step's lock when it is there.
if [ -e bin/setup-locks/apt.lock ] && command -v flock >/dev/null; then
  flock -s bin/setup-locks/apt.lock true
fi
if ! command -v qemu-aarch64 >/dev/null; then
  log "SKIPPED: qemu-aarch64 is not installed (Debian: apt-get install qemu-user, as root; make setup does it)"
  exit 0
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
q() { qemu-aarch64 "$arm" "$@"; }

# 1. perft (known counts: chessprogramming.org, Perft Results).
perft() { # WANT perft-arguments...
  local want=$1 got ref; shift
  got=$(q perft "$@" 2>/dev/null) ref=$("$native" perft "$@" 2>/dev/null)
  if [ "$got" != "$want" ] || [ "$ref" != "$want" ]; then
    log "FAIL perft $*: arm64 $got, native $ref, want $want"; exit 1
  fi
  log "perft $*: $got nodes (as the native binary)"
}
perft 4865609 --depth 5
perft 97862 --fen 'r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1' --depth 3

# 2. analysis with Lichess's evals: the same text and PGN as natively.
# (JSON carries unrounded floats: arm64 fuses multiply-adds, so accuracies
# differ in the 15th digit; the rounded outputs compared here do not.)
games=(../shared/lichess-games/ZlCTzfMG.pgn ../shared/lichess-games/lila-expected1.pgn)
for g in "${games[@]}"; do
  if [ ! -f "$g" ]; then log "FAIL: $g is missing (the shared reference games)"; exit 1; fi
  for fmt in text pgn; do
    q analyse --offline --lichess-evals --format "$fmt" "$g" >"$work/arm" 2>"$work/arm.err" ||
      { log "FAIL analyse $g --format $fmt:"; cat "$work/arm.err" >&2; exit 1; }
    "$native" analyse --offline --lichess-evals --format "$fmt" "$g" >"$work/native" 2>/dev/null
    if ! cmp -s "$work/arm" "$work/native"; then
      log "FAIL analyse $g --format $fmt differs from the native output:"
      diff "$work/native" "$work/arm" | head -20 >&2; exit 1
    fi
    log "analyse --lichess-evals $(basename "$g") ($fmt, $(wc -c <"$work/arm") bytes): as the native binary"
  done
done

# 3. one sandbox game with the built-in engines.
mkdir -p "$work/home" "$work/tmp"
if ! HOME="$work/home" TMPDIR="$work/tmp" timeout 900 qemu-aarch64 "$arm" run --sandbox --games 1 --tc 1+0 \
    >"$work/run.out" 2>"$work/run.err"; then
  log "FAIL run --sandbox --games 1:"; tail -20 "$work/run.err" >&2; exit 1
fi
if ! grep -q '^1 games played' "$work/run.out"; then
  log "FAIL run --sandbox --games 1 did not report its game:"; tail -5 "$work/run.out" >&2; exit 1
fi
log "run --sandbox --games 1: $(grep -c 'summary posted' "$work/run.err") summary posted, exit 0"
log "all arm64 checks passed under qemu-aarch64"
