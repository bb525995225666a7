package search

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/outpostchess/outpost/bots/board"
	"github.com/outpostchess/outpost/bots/engine"
	"github.com/outpostchess/outpost/bots/uciengine"
)

// The learned evaluation's developer steps, run only when their variables
// are set (internal/scripts/net.sh runs the whole pipeline; the method is
// in docs/engines.md, "Learned evaluation").

// netLabelMateCP is the label of a position Stockfish sees a mate in: far
// enough into the logistic's tail (sigmoid(3000/400) = 0.9994) to mean a
// won game without dominating the squared error.
const netLabelMateCP = 3000

// TestNetLabel extracts the quiet positions of the games in the PGN files
// OUTPOST_NET_PGN (a glob) and labels each with Stockfish's score
// (OUTPOST_NET_SF, the executable) after OUTPOST_NET_NODES nodes (default
// 5000), in OUTPOST_NET_JOBS processes (default 2), writing "FEN;cp" lines
// (cp for the side to move) to OUTPOST_NET_OUT. With OUTPOST_NET_WALK=n
// each position is first moved 1 to n random plies on (walkPositions).
// OUTPOST_NET_SKIP (label files, separated by commas) leaves out the
// positions already labelled there, so that new games add only new ones.
func TestNetLabel(t *testing.T) {
	glob, sf, out := os.Getenv("OUTPOST_NET_PGN"), os.Getenv("OUTPOST_NET_SF"), os.Getenv("OUTPOST_NET_OUT")
	if glob == "" || sf == "" || out == "" {
		t.Skip("set OUTPOST_NET_PGN, OUTPOST_NET_SF and OUTPOST_NET_OUT")
	}
	nodes, jobs := envInt("OUTPOST_NET_NODES", 5000), envInt("OUTPOST_NET_JOBS", 2)
	names, err := filepath.Glob(glob)
	if err != nil || len(names) == 0 {
		t.Fatalf("no PGN files match %q", glob)
	}
	var fens []string
	seen := labelledKeys(t, os.Getenv("OUTPOST_NET_SKIP"))
	for _, name := range names {
		f, err := os.Open(name)
		if err != nil {
			t.Fatal(err)
		}
		ps, st, err := ExtractTexelPositions(context.Background(), f, ExtractOptions{MinPly: 8, KeepAdjudicated: true})
		f.Close()
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		for _, p := range ps {
			if key := netKey(p.FEN); !seen[key] {
				seen[key] = true
				fens = append(fens, p.FEN)
			}
		}
		t.Logf("%s: %+v", name, st)
	}
	if n := envInt("OUTPOST_NET_WALK", 0); n > 0 {
		fens = walkPositions(t, fens, n, labelledKeys(t, os.Getenv("OUTPOST_NET_SKIP")))
	}
	t.Logf("%d distinct quiet positions, labelling at %d nodes in %d processes", len(fens), nodes, jobs)
	labels := make([]int, len(fens))
	var wg sync.WaitGroup
	errs := make(chan error, jobs)
	for j := range jobs {
		wg.Go(func() { errs <- labelRange(t, sf, nodes, fens, labels, j, jobs) })
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	f, err := os.Create(out)
	if err != nil {
		t.Fatal(err)
	}
	w := bufio.NewWriter(f)
	for i, fen := range fens {
		fmt.Fprintf(w, "%s;%d\n", fen, labels[i])
	}
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
}

// netKey identifies a position for de-duplication: placement, side to
// move, castling and en passant (the FEN's first four fields).
func netKey(fen string) string { return strings.Join(strings.Fields(fen)[:4], " ") }

// labelledKeys is the set of positions (netKey) of the "FEN;cp" label
// files in list (separated by commas; "" is none).
func labelledKeys(t *testing.T, list string) map[string]bool {
	seen := map[string]bool{}
	for _, name := range strings.Split(list, ",") {
		if name == "" {
			continue
		}
		f, err := os.Open(name)
		if err != nil {
			t.Fatal(err)
		}
		sc := bufio.NewScanner(f)
		for sc.Scan() {
			if fen, _, ok := strings.Cut(sc.Text(), ";"); ok && len(strings.Fields(fen)) >= 4 {
				seen[netKey(fen)] = true
			}
		}
		f.Close()
		if err := sc.Err(); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
	}
	return seen
}

// walkPositions replaces each position by the one 1 to n random legal
// moves later, kept when it is quiet (ExtractTexelPositions's test) and not
// in seen (which it extends).
// A search spends most of its nodes in such positions — after moves no
// player would choose — and a network trained only on positions of games
// has never seen them: the search then steers into whatever it
// overrates there.
func walkPositions(t *testing.T, fens []string, n int, seen map[string]bool) []string {
	rng := rand.New(rand.NewPCG(uint64(n), 3))
	s := &searcher{feat: AllFeatures, kind: EvalPlus, history: new([2][64][64]int32), ctx: context.Background()}
	var out []string
	for _, fen := range fens {
		b, err := board.FromFEN(fen)
		if err != nil {
			t.Fatal(err)
		}
		for range 1 + rng.IntN(n) {
			moves := b.LegalMoves()
			if len(moves) == 0 {
				break
			}
			b.Make(moves[rng.IntN(len(moves))])
		}
		key := netKey(b.FEN())
		if !seen[key] && quietPosition(s, b) {
			seen[key] = true
			out = append(out, b.FEN())
		}
	}
	t.Logf("random walks of up to %d plies from %d positions: %d quiet and distinct", n, len(fens), len(out))
	return out
}

// labelRange scores fens[j], fens[j+jobs], … with one Stockfish process.
func labelRange(t *testing.T, sf string, nodes int, fens []string, labels []int, j, jobs int) error {
	ctx := context.Background()
	e, err := uciengine.New(ctx, uciengine.Config{Path: sf, Options: map[string]string{"Threads": "1", "Hash": "16"}})
	if err != nil {
		return err
	}
	defer e.Close()
	for i := j; i < len(fens); i += jobs {
		m, err := e.SelectMove(ctx, engine.Position{StartFEN: fens[i]}, engine.Limits{Nodes: int64(nodes)})
		if err != nil {
			return fmt.Errorf("%s: %w", fens[i], err)
		}
		if !m.HasScore {
			return fmt.Errorf("%s: Stockfish gave no score", fens[i])
		}
		switch {
		case m.Score.Mate > 0:
			labels[i] = netLabelMateCP
		case m.Score.Mate < 0:
			labels[i] = -netLabelMateCP
		default:
			labels[i] = max(-netLabelMateCP, min(netLabelMateCP, m.Score.CP))
		}
		if j == 0 && (i/jobs)%20000 == 0 {
			t.Logf("labelled %d of %d", i, len(fens))
		}
	}
	return nil
}

// TestNetTrain trains a network on OUTPOST_NET_DATA (TestNetLabel's
// "FEN;cp" lines, several files separated by commas) and writes it to
// OUTPOST_NET_OUT. OUTPOST_NET_EPOCHS, _LR, _BATCH and _SEED are
// TrainOptions; OUTPOST_NET_HOLDOUT (default 0.05) is the share of
// positions, drawn at random, kept out of training and measured;
// OUTPOST_NET_INIT, a network file or "embedded", fine-tunes that network
// (TrainOptions.Init) instead of starting from random weights.
func TestNetTrain(t *testing.T) {
	data, out := os.Getenv("OUTPOST_NET_DATA"), os.Getenv("OUTPOST_NET_OUT")
	if data == "" || out == "" {
		t.Skip("set OUTPOST_NET_DATA and OUTPOST_NET_OUT")
	}
	var samples []NetSample
	for _, name := range strings.Split(data, ",") {
		f, err := os.Open(name)
		if err != nil {
			t.Fatal(err)
		}
		s, err := readNetSamples(f)
		f.Close()
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		samples = append(samples, s...)
	}
	seed := uint64(envInt("OUTPOST_NET_SEED", 1))
	rng := rand.New(rand.NewPCG(seed, 2))
	rng.Shuffle(len(samples), func(i, j int) { samples[i], samples[j] = samples[j], samples[i] })
	hold := len(samples) / 20
	if v, err := strconv.ParseFloat(os.Getenv("OUTPOST_NET_HOLDOUT"), 64); err == nil && v > 0 && v < 1 {
		hold = int(v * float64(len(samples)))
	}
	lr, _ := strconv.ParseFloat(os.Getenv("OUTPOST_NET_LR"), 64)
	wd, _ := strconv.ParseFloat(os.Getenv("OUTPOST_NET_DECAY"), 64)
	var init *Net
	switch v := os.Getenv("OUTPOST_NET_INIT"); v {
	case "":
	case "embedded":
		init = embeddedNet()
	default:
		n, err := ReadNet(v)
		if err != nil {
			t.Fatal(err)
		}
		init = n
	}
	opts := TrainOptions{Init: init, Epochs: envInt("OUTPOST_NET_EPOCHS", 0), Batch: envInt("OUTPOST_NET_BATCH", 0), LearningRate: lr, WeightDecay: wd, Seed: seed,
		Progress: func(ep int, train, holdOut float64) {
			t.Logf("epoch %d: train MSE %.6f, hold-out %.6f", ep, train, holdOut)
		}}
	t.Logf("%d positions, %d held out", len(samples), hold)
	net, err := TrainNet(context.Background(), samples[hold:], samples[:hold], opts)
	if err != nil {
		t.Fatal(err)
	}
	bin, err := net.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(out, bin, 0o644); err != nil {
		t.Fatal(err)
	}
}

// readNetSamples reads "FEN;cp" lines.
func readNetSamples(r io.Reader) ([]NetSample, error) {
	var out []NetSample
	sc := bufio.NewScanner(r)
	for line := 1; sc.Scan(); line++ {
		fen, cpText, ok := strings.Cut(sc.Text(), ";")
		if !ok {
			return nil, fmt.Errorf("line %d: no ';' between FEN and score", line)
		}
		cp, err := strconv.Atoi(cpText)
		if err != nil {
			return nil, fmt.Errorf("line %d: score: %w", line, err)
		}
		b, err := board.FromFEN(fen)
		if err != nil {
			return nil, fmt.Errorf("line %d: %w", line, err)
		}
		s, err := NewNetSample(b, cp)
		if err != nil {
			return nil, fmt.Errorf("line %d: %w", line, err)
		}
		out = append(out, s)
	}
	return out, sc.Err()
}
