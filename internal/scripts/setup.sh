#!/usr/bin/env bash
# Installs what Outpost's demo and test suite need on a fresh machine, in two
# parts. Idempotent: each step checks first and does nothing when already done.
#
#   setup.sh demo   (`make demo`'s setup): only what the demo runs — one
#     Stockfish 15.1, the quickest to have: one already installed (a native
#     build, /usr/games/stockfish, a `stockfish` on PATH), else Debian's
#     package (as root; seconds), else one native build; then bin/outpost and
#     `bin/outpost setup` for ONNX Runtime and the Maia-1 weights (from
#     ../shared/models/maia1 when present). No other engine is built.
#   setup.sh        (`make setup`): the demo's part, then the suite's part,
#     one step after the other:
#   - apt: Debian packages, as root (skipped with a message otherwise):
#     Chromium and chromium-driver (web console browser tests), libfathom1
#     (Syzygy probing), build-essential (native Stockfish builds, cgo),
#     nodejs/npm (Stockfish 19), qemu-user (the linux/arm64 checks)
#   - sf19: Stockfish 19 (WebAssembly, run with node) from the npm package
#     stockfish@19.0.0: only bin/stockfish-19-single.js + .wasm and
#     Copying.txt, into ${OUTPOST_STOCKFISH19_DIR:-~/.cache/outpost/stockfish19}
#   - staticcheck (pinned) into bin/, for `make vet`
#   - sf15, sf18, sf16, sf17.1: native builds of Stockfish 15.1, 18, 16 and
#     17.1 for this CPU from ../shared/stockfish into
#     ${OUTPOST_ENGINES_DIR:-~/.cache/outpost/engines}, through
#     `outpost setup --engines …` (each prints its progress and the time its
#     last build here took); 16 and 17.1 take their networks from npm.
#   setup.sh beside CMD…   (`make test`, after setup-demo and vet): the
#     suite's part (staticcheck aside: vet installed it) in the background
#     while CMD (the test lanes) runs, in two chains side by side (apt then
#     sf19; the four native builds); its output goes to
#     bin/log/setup-suite.log, a line per finished step to the terminal.
#     Before CMD starts, each step's lock bin/setup-locks/STEP.lock is taken
#     (flock, exclusive) and it is released when the step is done (or by the
#     kernel when the setup dies): a test needing one of them waits on that
#     lock (testkit.AwaitSetup), the others start at once. Then it waits for
#     the background part and exits with CMD's status (or 1 when CMD passed
#     and sf19 or sf15 failed, as the serial setup would have). A C compiler
#     (cgo, the race detector) is installed before CMD when missing.
#     OUTPOST_SETUP_BESIDE=0 (make test SETUP_BESIDE=0) runs the suite's
#     part first instead, then CMD: the sequential order, to compare.
# What a user needs to run Outpost is installed by `outpost setup` (no root,
# into ~/.cache/outpost; docs/install.md).
set -euo pipefail
cd "$(dirname "$0")/../.."

part=${1:-all}
case $part in
demo | all) ;;
beside) shift; [ $# -gt 0 ] || { echo 'setup: beside: no command to run beside the setup' >&2; exit 2; } ;;
*) printf 'setup: unknown part %q (want demo, beside CMD…, or nothing for all)\n' "$part" >&2; exit 2 ;;
esac

log() { printf 'setup: %s\n' "$*" >&2; }

as_root() {
  if [ "$(id -u)" = 0 ]; then "$@"; elif command -v sudo >/dev/null; then sudo "$@"; else
    log "need root for: $*"; return 1; fi
}
can_root() { [ "$(id -u)" = 0 ] || command -v sudo >/dev/null; }

# apt_install PKG…: Debian packages, as root, with the time they took; a
# message instead when this user cannot install them.
apt_updated=
apt_install() {
  if ! { can_root && command -v apt-get >/dev/null; }; then
    log "skipping Debian packages $*: not root (or no apt-get); what needs them skips or fails, saying so"
    return 1
  fi
  if [ -z "$apt_updated" ]; then timed apt-update "apt-get update" as_root apt-get update -qq; apt_updated=1; fi
  timed "apt-$(printf '%s' "$*" | tr ' ' '+')" "installing Debian packages $*" \
    as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$@" >/dev/null
}

# timed KEY LABEL CMD…: runs CMD, writing LABEL's elapsed time every 15 s
# (against the time it took last on this machine, kept in
# bin/.setup-times) and how long it took; CMD's exit status.
timed() {
  local key=$1 label=$2; shift 2
  local last t0=$SECONDS rc=0 ticker
  last=$(sed -n "s/^$key //p" bin/.setup-times 2>/dev/null | tail -1 || true)
  log "$label${last:+ (last time here: $last s)}"
  # the ticker takes its sleep along when killed (no orphan holding stderr open)
  ( trap 'kill $! 2>/dev/null; exit 0' TERM
    while sleep 15 & wait $!; do log "$label: $((SECONDS - t0)) s elapsed${last:+ of about $last}"; done ) &
  ticker=$!
  "$@" || rc=$?
  kill "$ticker" 2>/dev/null; wait "$ticker" 2>/dev/null || true
  [ $rc -ne 0 ] || { log "$label: done in $((SECONDS - t0)) s"; echo "$key $((SECONDS - t0))" >>bin/.setup-times; }
  return $rc
}

if ! command -v go >/dev/null; then
  log "Go is not installed (need Go 1.26: https://go.dev/dl/)"; exit 1
fi
mkdir -p bin

engines_dir=${OUTPOST_ENGINES_DIR:-$HOME/.cache/outpost/engines}
sf_src=${OUTPOST_STOCKFISH_SRC:-../shared/stockfish}
maia_src=${OUTPOST_MAIA_SOURCE:-}
[ -n "$maia_src" ] || [ ! -d ../shared/models/maia1 ] || maia_src=../shared/models/maia1

# demo_part: what the demo runs.
demo_part() {
  # The demo's Stockfish: Debian's package is the quickest to have (a 22 MB
  # download, seconds to install) when none is there and this is root; else
  # `outpost setup` below builds one natively (about a minute on two idle
  # cores) or uses one on PATH.
  if [ ! -x "$engines_dir/stockfish-15.1/stockfish" ] && [ ! -x /usr/games/stockfish ] && ! command -v stockfish >/dev/null; then
    apt_install stockfish || log "no Stockfish installed: outpost setup builds one natively (needs g++ and make)"
  fi

  timed go-build "building bin/outpost (go build)" go build -o bin/outpost ./cmd/outpost

  # The demo's engine (sf15, as found above), ONNX Runtime and the Maia
  # weights, through the product's own installer.
  bin/outpost setup --engines sf15 --stockfish-src "$sf_src" ${maia_src:+--maia-source "$maia_src"}
}

# The suite's steps, in the order they run. testkit.SetupItems says the
# same (TestSetupItemsMatchScript); staticcheck is not among them (make
# test's vet installs it before the tests).
suite_items=(apt sf19 sf15 sf18 sf16 sf17.1)

# step_apt: the Debian packages only the test suite needs. Not fatal: what
# needs them skips or fails, saying so.
step_apt() {
  local need=()
  [ -x /usr/games/stockfish ] || need+=(stockfish)
  command -v node >/dev/null || need+=(nodejs)
  command -v npm >/dev/null || need+=(npm)
  command -v chromium >/dev/null || need+=(chromium chromium-driver)
  /sbin/ldconfig -p 2>/dev/null | grep -q 'libfathom\.so\.1 ' || need+=(libfathom1)
  { command -v g++ >/dev/null && command -v make >/dev/null; } || need+=(build-essential)
  command -v qemu-aarch64 >/dev/null || need+=(qemu-user)
  [ ${#need[@]} -eq 0 ] || apt_install "${need[@]}" || true
}

# step_sf19: Stockfish 19 (engine name "sf19"), the npm package's
# single-threaded WebAssembly build. Checked by SHA-256; nothing else of the
# package is kept.
step_sf19() {
  local sf19_dir=${OUTPOST_STOCKFISH19_DIR:-$HOME/.cache/outpost/stockfish19} tmp
  local sf19_sums='72772f8bdd7353e4e24245d946bb831f56bcccf02fa16a779c1b92a6c00e5cc2  stockfish-19-single.js
8725c26572762617fd96b2ea83ff130e6640b85815890d682bf8c49db0820721  stockfish-19-single.wasm
0b383d5a63da644f628d99c33976ea6487ed89aaa59f0b3257992deac1171e6b  Copying.txt'
  if (cd "$sf19_dir" 2>/dev/null && printf '%s\n' "$sf19_sums" | sha256sum --check --status); then return 0; fi
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
}

# step_staticcheck: staticcheck (run by `make vet`), pinned to a release
# that supports Go 1.26, from the Go module proxy.
step_staticcheck() {
  local staticcheck_version=v0.8.2
  if ! bin/staticcheck -version 2>/dev/null | grep -q "${staticcheck_version#v}"; then
    timed staticcheck "installing staticcheck $staticcheck_version into bin/" \
      env GOBIN="$PWD/bin" go install "honnef.co/go/tools/cmd/staticcheck@$staticcheck_version"
  fi
}

# The native builds the suite compares: sf15 is built natively even though
# Debian's is installed (--build; it falls back to Debian's binary, saying
# why, when it cannot be built). sf18, sf16, sf17.1: their networks come
# from the official server or npm stockfish@18.0.8 (about 170 MB),
# stockfish@16.0.0 (63 MB, a plain file) and stockfish@17.1.0 (147 MB,
# recovered from its split wasm), cached. sf16 and sf17.1 are the engines of
# Lichess's analysis from 2023-07 to 2024-02 and from 2025-03 to 2026-01.
# Not fatal but sf15's: their tests skip without.
step_sf15() {
  bin/outpost setup --build --engines sf15 --stockfish-src "$sf_src" --skip-library --skip-weights
}
step_native() {
  bin/outpost setup --engines "$1" --stockfish-src "$sf_src" --skip-library --skip-weights ||
    log "$1 was not built (see above): that engine is unavailable and its tests skip"
}

# run_step ITEM: one step in a subshell of its own under set -e (so that a
# failing command ends the step, not the setup); its exit status.
# OUTPOST_SETUP_STEP, when set, is a command run as `CMD ITEM` instead (the
# tests of this script: TestSetupBesideReleasesEachStep).
run_step() {
  local rc=0
  set +e
  (
    set -e
    if [ -n "${OUTPOST_SETUP_STEP:-}" ]; then $OUTPOST_SETUP_STEP "$1"; exit; fi
    case $1 in
    apt) step_apt ;;
    sf19) step_sf19 ;;
    staticcheck) step_staticcheck ;;
    sf15) step_sf15 ;;
    *) step_native "$1" ;;
    esac
  )
  rc=$?
  set -e
  return $rc
}

# fatal ITEM: whether ITEM's failure fails the setup (the rest only makes
# their tests skip).
fatal() { case $1 in sf19 | staticcheck | sf15) return 0 ;; esac; return 1; }

# suite_serial ITEM…: the steps one after the other; the first fatal
# failure ends the setup.
suite_serial() {
  local item
  for item in "$@"; do
    run_step "$item" || { fatal "$item" && { log "$item failed"; return 1; }; log "$item failed (not fatal: its tests skip)"; }
  done
}

if [ "$part" = demo ]; then demo_part; exit 0; fi
if [ "$part" = all ]; then
  demo_part
  suite_serial "${suite_items[@]:0:2}" staticcheck "${suite_items[@]:2}"
  exit 0
fi

# beside CMD…: the suite's part beside CMD.
[ -n "${OUTPOST_SETUP_STEP:-}" ] || [ -x bin/outpost ] || { log "beside: no bin/outpost (run setup.sh demo first)"; exit 1; }
if [ -z "${OUTPOST_SETUP_STEP:-}" ] && ! { command -v cc && command -v g++ && command -v make; } >/dev/null; then
  # cgo and the race detector need a C compiler before any test can run,
  # and the native builds beside the apt step need g++ and make.
  apt_install build-essential || log "no C/C++ compiler or make: the race detector, cgo and the native builds need them (apt-get install build-essential)"
fi
if [ "${OUTPOST_SETUP_BESIDE:-1}" = 0 ] || ! command -v flock >/dev/null; then
  [ "${OUTPOST_SETUP_BESIDE:-1}" = 0 ] || log "no flock(1) here: the suite's setup runs before the tests"
  suite_serial "${suite_items[@]}"
  exec "$@"
fi

lockdir=bin/setup-locks
mkdir -p "$lockdir" bin/log
suite_log=bin/log/setup-suite.log
: >"$suite_log"
waits_log=bin/log/setup-waits.log # testkit.SetupWaitsLog: the tests' waits
: >"$waits_log"
declare -A lockfd
for item in "${suite_items[@]}"; do
  exec {fd}>"$lockdir/$item.lock"
  flock -x "$fd"
  lockfd[$item]=$fd
done
exec {console}>&2

# chain ITEM…: the background part, one of two: each step, then its lock
# released (its fd closed here, the other chain's fds closed at its start,
# no process of a finished step left holding one). Exits 1 when a fatal step
# failed.
chain() {
  exec >>"$suite_log" 2>&1
  local failed=0 t0=$SECONDS s rc item fd
  for item in "${suite_items[@]}"; do
    case " $* " in *" $item "*) ;; *) fd=${lockfd[$item]}; exec {fd}>&- ;; esac
  done
  for item in "$@"; do
    s=$SECONDS rc=0
    run_step "$item" || rc=$?
    fd=${lockfd[$item]}
    exec {fd}>&-
    if [ $rc -eq 0 ]; then
      printf 'setup beside the tests: %s done in %d s (%d s since the start)\n' "$item" $((SECONDS - s)) $((SECONDS - t0)) >&"$console"
    else
      printf 'setup beside the tests: %s FAILED after %d s (exit %d; %s)\n' "$item" $((SECONDS - s)) "$rc" "$suite_log" >&"$console"
      ! fatal "$item" || failed=1
    fi
  done
  exit $failed
}
# Two chains side by side: the Debian packages and Stockfish 19 (downloads
# and dpkg, little CPU; sf19 needs apt's npm) beside the native builds
# (CPU; their g++ and make were checked above, their npm tarballs are
# fetched by outpost itself). suite_items lists both, in this order.
( chain apt sf19 ) &
chain_debian=$!
( chain sf15 sf18 sf16 sf17.1 ) &
chain_native=$!
for item in "${suite_items[@]}"; do
  fd=${lockfd[$item]}
  exec {fd}>&-
done
exec {console}>&-
log "the suite's setup (${suite_items[*]}) runs beside the tests; its log: $suite_log"

rc=0
"$@" || rc=$?
brc=0
if kill -0 "$chain_debian" 2>/dev/null || kill -0 "$chain_native" 2>/dev/null; then
  log "the tests are done; waiting for the setup beside them to finish (its log: $suite_log)"
fi
wait "$chain_debian" || brc=$?
wait "$chain_native" || brc=$?
if [ -s "$waits_log" ]; then
  log "tests that waited for the setup beside them ($waits_log):"
  sed 's/^/  /' "$waits_log" >&2
fi
if [ $rc -eq 0 ] && [ $brc -ne 0 ]; then
  log "the setup beside the tests failed (sf19 or sf15; $suite_log)"
  rc=1
fi
exit $rc
