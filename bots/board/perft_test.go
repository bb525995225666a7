package board

import (
	"context"
	"errors"
	"testing"

	"github.com/notnil/chess"
)

// perftCase is a position with its published perft counts
// (chessprogramming.org "Perft Results").
type perftCase struct {
	name   string
	fen    string
	counts []int64 // counts[d-1] = perft(d)
	notnil int     // depth at which notnil/chess is compared (it is slow)
}

var perftCases = []perftCase{
	{"start", StartFEN, []int64{20, 400, 8902, 197281, 4865609}, 3},
	{"kiwipete", "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", []int64{48, 2039, 97862, 4085603}, 2},
	{"position3", "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1", []int64{14, 191, 2812, 43238, 674624}, 3},
	{"position4", "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1", []int64{6, 264, 9467, 422333}, 2},
	{"position4mirrored", "r2q1rk1/pP1p2pp/Q4n2/bbp1p3/Np6/1B3NBn/pPPP1PPP/R3K2R b KQ - 0 1", []int64{6, 264, 9467, 422333}, 2},
	{"position5", "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8", []int64{44, 1486, 62379, 2103487}, 2},
	{"position6", "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10", []int64{46, 2079, 89890, 3894594}, 2},
	// Small positions targeting one rule each (counts verified against notnil below).
	{"promotions", "n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1", []int64{24, 496, 9483, 182838}, 3},
	{"ep-discovered-check", "8/8/8/KPp4r/8/8/8/7k w - c6 0 2", nil, 4},
	{"ep-evades-check", "8/8/8/2k5/3Pp3/8/8/4K3 b - d3 0 1", nil, 4},
	{"castle-through-check", "r3k2r/8/8/8/8/8/5q2/R3K2R w KQkq - 0 1", nil, 3},
	{"castle-rook-attacked", "r3k2r/8/8/8/8/8/8/1R2K2R b Kkq - 0 1", nil, 3},
}

func TestPerftPublished(t *testing.T) {
	for _, c := range perftCases {
		t.Run(c.name, func(t *testing.T) {
			b, err := FromFEN(c.fen)
			if err != nil {
				t.Fatal(err)
			}
			for d, want := range c.counts {
				if testing.Short() && want > 500000 {
					break
				}
				if got := b.Perft(d + 1); got != want {
					t.Fatalf("perft(%d) = %d, want %d", d+1, got, want)
				}
			}
			if b.FEN() != mustFEN(t, c.fen).FEN() {
				t.Fatalf("make/unmake changed the board: %s", b.FEN())
			}
		})
	}
}

// mustFEN is mustFENv for a standard position.
func mustFEN(t testing.TB, fen string) *Board {
	t.Helper()
	return mustFENv(t, fen, false)
}

func notnilPos(t testing.TB, fen string) *chess.Position {
	t.Helper()
	pos := &chess.Position{}
	if err := pos.UnmarshalText([]byte(fen)); err != nil {
		t.Fatalf("notnil rejects %q: %v", fen, err)
	}
	return pos
}

func TestPerftAgreesWithNotnil(t *testing.T) {
	for _, c := range perftCases {
		t.Run(c.name, func(t *testing.T) {
			b := mustFEN(t, c.fen)
			pos := notnilPos(t, c.fen)
			for d := 1; d <= c.notnil; d++ {
				want := NotnilPerft(pos, d)
				if got := b.Perft(d); got != want {
					t.Fatalf("perft(%d) = %d, notnil says %d", d, got, want)
				}
			}
			// Per-root-move agreement pinpoints any discrepancy.
			notnil := map[string]int64{}
			for _, m := range pos.ValidMoves() {
				notnil[m.String()] = NotnilPerft(pos.Update(m), 1)
			}
			div := b.Divide(2)
			if len(div) != len(notnil) {
				t.Fatalf("%d root moves, notnil has %d", len(div), len(notnil))
			}
			for _, e := range div {
				if notnil[e.Move.String()] != e.Nodes {
					t.Errorf("divide %s = %d, notnil %d", e.Move, e.Nodes, notnil[e.Move.String()])
				}
			}
		})
	}
}

func BenchmarkPerftOurs(b *testing.B) {
	bd := mustFEN(b, perftCases[1].fen)
	var nodes int64
	for b.Loop() {
		nodes += bd.Perft(3)
	}
	b.ReportMetric(float64(nodes)/b.Elapsed().Seconds(), "nodes/s")
}

func BenchmarkPerftNotnil(b *testing.B) {
	pos := notnilPos(b, perftCases[1].fen)
	var nodes int64
	for b.Loop() {
		nodes += NotnilPerft(pos, 3)
	}
	b.ReportMetric(float64(nodes)/b.Elapsed().Seconds(), "nodes/s")
}

func TestSpecialRules(t *testing.T) {
	cases := []struct {
		name, fen, move string
		legal           bool
	}{
		{"ep exposing the king along the rank", "8/8/8/KPp4r/8/8/8/7k w - c6 0 2", "b5c6", false},
		{"ep capturing the checking pawn", "8/8/8/2k5/3Pp3/8/8/4K3 b - d3 0 1", "e4d3", true},
		{"ep by a pawn pinned off the line", "8/8/4B3/8/2pP4/1k6/8/6K1 b - d3 0 1", "c4d3", false},
		{"castle through an attacked square", "r3k2r/8/8/8/8/8/5q2/R3K2R w KQkq - 0 1", "e1g1", false},
		{"castle with the rook attacked", "4k2r/8/8/8/8/8/8/4K2R w K - 0 1", "e1g1", true},
		{"castle out of check", "4k3/8/8/8/8/8/4r3/R3K2R w KQ - 0 1", "e1c1", false},
		{"castle long with b-file attacked", "1r2k3/8/8/8/8/8/8/R3K3 w Q - 0 1", "e1c1", true},
		{"ep by a pawn pinned along the line", "8/8/8/1k6/2pP4/8/8/5BK1 b - d3 0 1", "c4d3", true},
		{"under-promotion", "8/1P6/8/8/8/8/k7/4K3 w - - 0 1", "b7b8n", true},
	}
	for _, c := range cases {
		b := mustFEN(t, c.fen)
		_, err := b.ParseUCI(c.move)
		if (err == nil) != c.legal {
			t.Errorf("%s: %s legal=%v, want %v (%v)", c.name, c.move, err == nil, c.legal, err)
		}
	}
}

// TestDivideContext: the counts are Divide's, and an ended context stops
// the count between root moves with its error.
func TestDivideContext(t *testing.T) {
	b, err := FromFEN(StartFEN)
	if err != nil {
		t.Fatal(err)
	}
	got, err := b.DivideContext(context.Background(), 3)
	if err != nil {
		t.Fatal(err)
	}
	var total int64
	for _, e := range got {
		total += e.Nodes
	}
	if len(got) != 20 || total != 8902 {
		t.Errorf("divide(3) of the start: %d moves, %d nodes; want 20, 8902", len(got), total)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	part, err := b.DivideContext(ctx, 3)
	if !errors.Is(err, context.Canceled) || len(part) != 0 {
		t.Errorf("cancelled: %d entries, %v", len(part), err)
	}
	if b.FEN() != StartFEN {
		t.Errorf("board changed: %s", b.FEN())
	}
}
