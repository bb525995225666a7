#!/usr/bin/env bash
# net.sh: rebuilds the learned evaluation (hard's feature "net") from
# nothing, the developer's step behind bots/search/nets/outpost-net-1.bin
# (docs/engines.md, "Learned evaluation", has the method and the SPRT):
#
#   1. games of hard against itself at a few node counts from the 1505
#      openings of bots/match/testdata/sprt-openings.txt, each run against
#      hard with one feature switched off so that the two colours of an
#      opening give two different games (session 17 played the first two
#      runs before hard had a network, session 18 the next two with r3,
#      session 19 the last two with r4c);
#   2. their quiet positions (TestNetLabel) labelled by the native
#      Stockfish 18 that internal/scripts/setup.sh builds at 2000 nodes,
#      and the quiet positions 1 to 4 random moves after each of them
#      (OUTPOST_NET_WALK=4) at 1500 nodes;
#   3. a network trained on both (TestNetTrain: the correction of EvalPlus,
#      weight decay 2, 20 epochs), written to
#      bots/search/nets/outpost-net-1.bin (r5, session 19: 1.56 M positions;
#      session 19 labelled no walks of its own two runs, this script does).
#
# Then measure it against the network it replaces before committing it:
#   outpost match --engine-a "hard,Net=NEW.bin" --engine-b hard --tc 0.03 \
#     --tolerance 1 --sprt 0,20 --concurrency 2 --openings bots/match/testdata/sprt-openings.txt
#
# Everything goes to bin/net (ignored by git): rerun with KEEP=1 to reuse
# the games and labels already there. Takes about 2 hours on two idle
# cores (the sessions labelled their game files in two batches, the second
# leaving out what the first had labelled, OUTPOST_NET_SKIP; one run of
# this script labels them together: the same game positions, other walks).
set -euo pipefail
cd "$(dirname "$0")/../.."
root=$PWD
out=$root/bin/net
sf=${OUTPOST_ENGINES_DIR:-$HOME/.cache/outpost/engines}/stockfish-18/stockfish
[ -x "$sf" ] || { echo "net.sh: $sf missing: run internal/scripts/setup.sh first" >&2; exit 1; }
mkdir -p "$out"
[ "${KEEP:-}" = 1 ] || rm -f "$out"/*.pgn "$out"/labels*.txt
go build -o "$out/outpost" ./cmd/outpost

# Each run: the feature switched off in engine B, and the nodes a move.
for run in razor:2000 lmrcap:3000 net:2500 singular:2000 qcorr:3000 iir:2000; do
	feat=${run%%:*} nodes=${run##*:}
	pgn=$out/g-$feat-$nodes.pgn
	[ -s "$pgn" ] && continue
	"$out/outpost" match --engine-a hard --engine-b "hard,Disable=$feat" --nodes "$nodes" --games 3010 \
		--concurrency 2 --openings bots/match/testdata/sprt-openings.txt --pgn "$pgn.tmp" >"$out/g-$feat-$nodes.log" 2>&1
	mv "$pgn.tmp" "$pgn"
done

label() { # label OUT NODES WALK
	[ -s "$1" ] && return
	OUTPOST_NET_PGN="$out/g-*.pgn" OUTPOST_NET_SF="$sf" OUTPOST_NET_OUT="$1.tmp" \
		OUTPOST_NET_NODES=$2 OUTPOST_NET_WALK=$3 OUTPOST_NET_JOBS=2 \
		go test ./bots/search -run '^TestNetLabel$' -count=1 -v -timeout 0 | tee "$1.log"
	mv "$1.tmp" "$1"
}
label "$out/labels-games.txt" 2000 0
label "$out/labels-walks.txt" 1500 4

OUTPOST_NET_DATA="$out/labels-games.txt,$out/labels-walks.txt" OUTPOST_NET_OUT="$root/bots/search/nets/outpost-net-1.bin" \
	OUTPOST_NET_DECAY=2 OUTPOST_NET_EPOCHS=20 OUTPOST_NET_BATCH=4096 OUTPOST_NET_LR=0.001 \
	go test ./bots/search -run '^TestNetTrain$' -count=1 -v -timeout 0 | tee "$out/train.log"
