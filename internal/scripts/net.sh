#!/usr/bin/env bash
# net.sh: rebuilds the learned evaluation (hard's feature "net") from
# nothing, the developer's step behind bots/search/nets/outpost-net-1.bin
# (docs/engines.md, "Learned evaluation", has the method and the SPRT):
#
#   1. games of hard against itself at a few node counts from the 1505
#      openings of bots/match/testdata/sprt-openings.txt, each run against
#      hard with one feature switched off so that the two colours of an
#      opening give two different games;
#   2. their quiet positions (TestNetLabel), labelled by the native
#      Stockfish 18 that internal/scripts/setup.sh builds, at
#      OUTPOST_NET_NODES (default 2000) nodes each;
#   3. a network trained on them (TestNetTrain), written to
#      bots/search/nets/outpost-net-1.bin.
#
# Everything goes to bin/net (ignored by git): rerun with KEEP=1 to reuse
# the games and labels already there. Takes about an hour on two cores.
set -euo pipefail
cd "$(dirname "$0")/../.."
root=$PWD
out=$root/bin/net
sf=${OUTPOST_ENGINES_DIR:-$HOME/.cache/outpost/engines}/stockfish-18/stockfish
[ -x "$sf" ] || { echo "net.sh: $sf missing: run internal/scripts/setup.sh first" >&2; exit 1; }
mkdir -p "$out"
[ "${KEEP:-}" = 1 ] || rm -f "$out"/*.pgn "$out"/labels.txt
go build -o "$out/outpost" ./cmd/outpost

# Each run: the feature switched off in engine B, and the nodes a move.
for run in razor:2000 lmrcap:3000 qcorr:4000 singular:1500 corrhist:6000 lmp:2500; do
	feat=${run%%:*} nodes=${run##*:}
	pgn=$out/g-$feat-$nodes.pgn
	[ -s "$pgn" ] && continue
	"$out/outpost" match --engine-a hard --engine-b "hard,Disable=$feat" --nodes "$nodes" --games 3010 \
		--concurrency 2 --openings bots/match/testdata/sprt-openings.txt --pgn "$pgn.tmp" >"$out/g-$feat-$nodes.log" 2>&1
	mv "$pgn.tmp" "$pgn"
done

if [ ! -s "$out/labels.txt" ]; then
	OUTPOST_NET_PGN="$out/g-*.pgn" OUTPOST_NET_SF="$sf" OUTPOST_NET_OUT="$out/labels.txt.tmp" \
		OUTPOST_NET_NODES=${OUTPOST_NET_NODES:-2000} OUTPOST_NET_JOBS=2 \
		go test ./bots/search -run '^TestNetLabel$' -count=1 -v -timeout 0 | tee "$out/label.log"
	mv "$out/labels.txt.tmp" "$out/labels.txt"
fi

OUTPOST_NET_DATA="$out/labels.txt" OUTPOST_NET_OUT="$root/bots/search/nets/outpost-net-1.bin" \
	go test ./bots/search -run '^TestNetTrain$' -count=1 -v -timeout 0 | tee "$out/train.log"
