package search

import (
	"bytes"
	"context"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/outpostchess/outpost/bots/board"
	"github.com/outpostchess/outpost/bots/engine"
)

// randomNet is a network with seeded random weights and biases, so that
// hidden units sit on both sides of the clamp.
func randomNet(seed uint64) *Net {
	rng := rand.New(rand.NewPCG(seed, 1))
	f := newFloatNet(rng)
	for i := range f.b1 {
		f.b1[i] = float32(rng.Float64()*2 - 0.5)
	}
	f.b2[0] = 0.1
	return f.quantise()
}

// TestNetIncrementalMatchesScratch walks random games depth first, as the
// search does (moves, null moves and unmakes, castling, en passant and
// promotions included), and checks that the accumulator stack's score
// equals the network summed from scratch at every node.
func TestNetIncrementalMatchesScratch(t *testing.T) {
	net := randomNet(7)
	st := &netStack{net: net}
	rng := rand.New(rand.NewPCG(3, 4))
	checked := 0
	var walk func(b *board.Board, ply, depth int)
	walk = func(b *board.Board, ply, depth int) {
		got, want := st.eval(b, ply), net.Evaluate(b)
		if got != want {
			t.Fatalf("%s at ply %d: incremental %d, from scratch %d", b.FEN(), ply, got, want)
		}
		checked++
		moves := b.LegalMoves()
		if depth == 0 || len(moves) == 0 {
			return
		}
		if !b.InCheck() && rng.IntN(8) == 0 {
			b.MakeNull()
			walk(b, ply+1, depth-1)
			b.Unmake()
		}
		for range 2 {
			b.Make(moves[rng.IntN(len(moves))])
			walk(b, ply+1, depth-1)
			b.Unmake()
		}
	}
	for _, fen := range []string{
		board.StartFEN,
		"r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", // castling both ways
		"8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",                            // en passant
		"n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1",                              // promotions
	} {
		b, err := board.FromFEN(fen)
		if err != nil {
			t.Fatal(err)
		}
		for range 20 {
			walk(b, 0, 6)
			// The next walk starts from a slot holding another position:
			// the diff or a refresh must still give the exact score.
			b.Make(b.LegalMoves()[rng.IntN(len(b.LegalMoves()))])
			if !b.HasLegalMoves() {
				break
			}
		}
	}
	if checked < 10000 {
		t.Fatalf("only %d nodes checked", checked)
	}
}

// TestNetSymmetric checks that a position and its colour-flipped mirror
// (the same position for the other side) score the same: both views share
// the weights.
func TestNetSymmetric(t *testing.T) {
	net := randomNet(11)
	for _, pair := range [][2]string{
		{"r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3", "rnbqkb1r/pppp1ppp/5n2/4p3/4P3/2N5/PPPP1PPP/R1BQKBNR b KQkq - 2 3"},
		{"8/8/4k3/8/2R5/8/3K4/8 w - - 0 1", "8/3k4/8/2r5/8/4K3/8/8 b - - 0 1"},
	} {
		a, err := board.FromFEN(pair[0])
		if err != nil {
			t.Fatal(err)
		}
		b, err := board.FromFEN(pair[1])
		if err != nil {
			t.Fatal(err)
		}
		if x, y := net.Evaluate(a), net.Evaluate(b); x != y {
			t.Errorf("%s scores %d, its mirror %d", pair[0], x, y)
		}
	}
}

func TestParseNet(t *testing.T) {
	net := randomNet(5)
	data, err := net.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	back, err := ParseNet(data)
	if err != nil {
		t.Fatal(err)
	}
	if *back != *net {
		t.Fatal("round trip changed the network")
	}
	wrongWidth := bytes.Clone(data)
	wrongWidth[len(netMagic)] = 32
	for name, bad := range map[string][]byte{
		"empty":       nil,
		"magic":       append([]byte("OPNET9\x00\x00"), data[8:]...),
		"width":       wrongWidth,
		"truncated":   data[:len(data)-1],
		"trailing":    append(bytes.Clone(data), 0),
		"header only": data[:len(netMagic)+4],
	} {
		if _, err := ParseNet(bad); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
}

func FuzzParseNet(f *testing.F) {
	data, _ := randomNet(1).MarshalBinary()
	f.Add(data)
	f.Add([]byte(netMagic))
	f.Fuzz(func(t *testing.T, data []byte) {
		n, err := ParseNet(data)
		if err != nil {
			return
		}
		again, err := n.MarshalBinary()
		if err != nil || !bytes.Equal(again, data) {
			t.Fatal("a parsed network does not write back to the same bytes")
		}
	})
}

// rimKnightBonus is the term TestTrainNetLearnsCorrection hides in its
// labels: centipawns per knight of the side to move on the a or h file
// (minus the same for the other side's), something EvalPlus does not score.
const rimKnightBonus = 150

func rimKnights(b *board.Board) int {
	n := 0
	for sq := range 64 {
		p := b.PieceAt(board.Square(sq))
		if p.Type() != board.Knight || (sq%8 != 0 && sq%8 != 7) {
			continue
		}
		if p.Color() == b.SideToMove() {
			n++
		} else {
			n--
		}
	}
	return n
}

// TestTrainNetLearnsCorrection trains on positions labelled with EvalPlus
// plus a hidden rim-knight term and checks that the hold-out error falls
// well below the untrained network's and that the quantised network's
// correction finds the term.
func TestTrainNetLearnsCorrection(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 9))
	var samples []NetSample
	var boards []*board.Board
	for len(samples) < 3600 {
		b := board.New()
		for ply := 0; ply < 80 && b.HasLegalMoves(); ply++ {
			moves := b.LegalMoves()
			b.Make(moves[rng.IntN(len(moves))])
			// One position in eight: neighbours in a game are near copies.
			if ply < 6 || b.InsufficientMaterial() || rng.IntN(8) != 0 {
				continue
			}
			s, err := NewNetSample(b, Evaluate(b, EvalPlus)+rimKnightBonus*rimKnights(b))
			if err != nil {
				t.Fatal(err)
			}
			samples = append(samples, s)
			boards = append(boards, b.Clone())
		}
	}
	train, hold := samples[:3000], samples[3000:]
	var last float64
	net, err := TrainNet(context.Background(), train, hold, TrainOptions{Epochs: 10, Batch: 128, LearningRate: 0.005, WeightDecay: 0.1, Seed: 1,
		Progress: func(_ int, _, h float64) { last = h }})
	if err != nil {
		t.Fatal(err)
	}
	untrained := newFloatNet(rand.New(rand.NewPCG(1, 0x6f7574706f7374))).meanLoss(hold)
	t.Logf("hold-out MSE: untrained %.5f, trained %.5f", untrained, last)
	if last > untrained/4 {
		t.Fatalf("hold-out MSE %.5f, untrained %.5f: the network did not learn the correction", last, untrained)
	}
	// The correction in hold-out positions where the side to move has one
	// rim knight more than the other side must be about the bonus.
	var sum, n int
	for _, b := range boards[3000:] {
		if rimKnights(b) == 1 {
			sum += net.Evaluate(b) - Evaluate(b, EvalPlus)
			n++
		}
	}
	if n < 50 || sum/n < rimKnightBonus/2 || sum/n > rimKnightBonus*3/2 {
		t.Fatalf("mean correction %d cp over %d positions with one rim knight more, want about %d", sum/max(n, 1), n, rimKnightBonus)
	}
	t.Logf("mean correction %d cp over %d positions with one rim knight more", sum/n, n)
}

// TestEmbeddedNet checks that the committed network parses and judges
// plain positions as any chess player would: the start about level, a
// queen up clearly winning for either side to move, a bare-king draw 0.
func TestEmbeddedNet(t *testing.T) {
	net := embeddedNet()
	for _, c := range []struct {
		fen    string
		lo, hi int
	}{
		{board.StartFEN, -60, 60},
		{"rnb1kbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 3", 500, 3000}, // White a queen up, to move
		{"rnb1kbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 3", -3000, -500},
		{"8/8/4k3/8/8/3K4/8/8 w - - 0 1", 0, 0},
		{"8/8/4k3/8/8/3K4/4R3/8 b - - 0 1", -3000, -300}, // Black faces a rook
	} {
		b, err := board.FromFEN(c.fen)
		if err != nil {
			t.Fatal(err)
		}
		if got := net.Evaluate(b); got < c.lo || got > c.hi {
			t.Errorf("%s: %d cp, want %d..%d", c.fen, got, c.lo, c.hi)
		}
		if got, want := Evaluate(b, EvalNet), net.Evaluate(b); got != want {
			t.Errorf("%s: Evaluate(EvalNet) %d, the network %d", c.fen, got, want)
		}
	}
}

// TestConfigureNet: option Net loads a network file for feature net. A
// network of zeros corrects nothing, so hard with it searches exactly as
// hard without the feature (same move, same nodes); a missing or broken
// file is refused, naming it.
func TestConfigureNet(t *testing.T) {
	data, err := new(Net).MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	zero, broken := filepath.Join(dir, "zero.bin"), filepath.Join(dir, "broken.bin")
	if err := os.WriteFile(zero, data, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(broken, data[:100], 0o644); err != nil {
		t.Fatal(err)
	}
	search := func(opts map[string]string) engine.Move {
		t.Helper()
		e, err := NewHard(WithHashMB(8))
		if err != nil {
			t.Fatal(err)
		}
		defer e.Close()
		if err := e.Configure(opts); err != nil {
			t.Fatal(err)
		}
		m, err := e.SelectMove(context.Background(), engine.Position{Moves: []string{"e2e4", "e7e5", "g1f3"}}, engine.Limits{Nodes: 20000})
		if err != nil {
			t.Fatal(err)
		}
		return m
	}
	withZero, without, embedded := search(map[string]string{"Net": zero}), search(map[string]string{"Disable": "net"}), search(nil)
	if withZero.UCI != without.UCI || withZero.Nodes != without.Nodes || withZero.Score != without.Score {
		t.Errorf("Net=zeros: %s %d nodes %+v; without net: %s %d nodes %+v", withZero.UCI, withZero.Nodes, withZero.Score, without.UCI, without.Nodes, without.Score)
	}
	if embedded.Score == without.Score && embedded.Nodes == without.Nodes {
		t.Errorf("the embedded network changed nothing: the comparison cannot tell networks apart")
	}
	e, err := NewHard(WithHashMB(8))
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	for _, path := range []string{filepath.Join(dir, "missing.bin"), broken} {
		if err := e.Configure(map[string]string{"Net": path}); err == nil || !strings.Contains(err.Error(), filepath.Base(path)) {
			t.Errorf("Net=%s: error %v, want one naming the file", path, err)
		}
	}
}

// TestConfigureNetAfterSearch: an engine that searched with the embedded
// network and is then given another one evaluates with the new one only —
// no score of the old network is left in its eval cache.
func TestConfigureNetAfterSearch(t *testing.T) {
	data, err := new(Net).MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	zero := filepath.Join(t.TempDir(), "zero.bin")
	if err := os.WriteFile(zero, data, 0o644); err != nil {
		t.Fatal(err)
	}
	pos, lim := engine.Position{Moves: []string{"e2e4", "e7e5", "g1f3"}}, engine.Limits{Nodes: 20000}
	run := func(e *Engine) engine.Move {
		t.Helper()
		m, err := e.SelectMove(context.Background(), pos, lim)
		if err != nil {
			t.Fatal(err)
		}
		return m
	}
	fresh, err := NewHard(WithHashMB(8), WithFeatures(AllFeatures&^FeatTT))
	if err != nil {
		t.Fatal(err)
	}
	defer fresh.Close()
	reused, err := NewHard(WithHashMB(8), WithFeatures(AllFeatures&^FeatTT))
	if err != nil {
		t.Fatal(err)
	}
	defer reused.Close()
	run(reused) // fills the eval cache with the embedded network's scores
	for _, e := range []*Engine{fresh, reused} {
		if err := e.Configure(map[string]string{"Net": zero}); err != nil {
			t.Fatal(err)
		}
		// The move ordering's history and the correction history rightly
		// carry over from one search to the next within a game; a new game
		// clears them, leaving the eval cache the only state in question.
		if err := e.NewGame(context.Background()); err != nil {
			t.Fatal(err)
		}
	}
	want, got := run(fresh), run(reused)
	if got.UCI != want.UCI || got.Nodes != want.Nodes || got.Score != want.Score {
		t.Errorf("after a search with the embedded network: %s %d nodes %+v; a fresh engine: %s %d nodes %+v",
			got.UCI, got.Nodes, got.Score, want.UCI, want.Nodes, want.Score)
	}
}

// TestTrainNetInit: TrainOptions.Init is where training starts and what
// weight decay pulls toward. With a step too small to move anything and a
// decay of exactly one per step (the step is a tenth of LearningRate in
// the last third of the epochs: here the only epoch), each weight lands
// back on Init's, so the result is Init itself (the embedded network);
// without Init the same run decays a random start to zeros.
func TestTrainNetInit(t *testing.T) {
	init := embeddedNet()
	if got := init.dequantise().quantise(); *got != *init {
		t.Fatal("dequantise then quantise changed the embedded network")
	}
	var samples []NetSample
	for _, fen := range []string{board.StartFEN, "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3", "8/8/4k3/8/8/3K4/4R3/8 b - - 0 1"} {
		b, err := board.FromFEN(fen)
		if err != nil {
			t.Fatal(err)
		}
		s, err := NewNetSample(b, 300)
		if err != nil {
			t.Fatal(err)
		}
		samples = append(samples, s)
	}
	opts := TrainOptions{Epochs: 1, Batch: 2, LearningRate: 1e-9, WeightDecay: 1e10, Seed: 3, Init: init}
	got, err := TrainNet(context.Background(), samples, nil, opts)
	if err != nil {
		t.Fatal(err)
	}
	if *got != *init {
		t.Error("fine-tuning anchored to the embedded network moved away from it")
	}
	opts.Init = nil
	got, err = TrainNet(context.Background(), samples, nil, opts)
	if err != nil {
		t.Fatal(err)
	}
	if *got != (Net{}) {
		t.Error("without Init, a decay of one per step did not bring the weights to zero")
	}
}
