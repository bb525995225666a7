package board

import (
	"strings"
	"testing"
)

// mustFEN960 is mustFENv for a Chess960 position.
func mustFEN960(t testing.TB, fen string) *Board {
	t.Helper()
	return mustFENv(t, fen, true)
}

func TestChess960FEN(t *testing.T) {
	if fen, err := Chess960FEN(518); err != nil || fen != StartFEN {
		t.Fatalf("Chess960FEN(518) = %q, %v; want the standard start", fen, err)
	}
	if fen, _ := Chess960FEN(0); fen != "bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w KQkq - 0 1" {
		t.Errorf("Chess960FEN(0) = %q", fen)
	}
	seen := map[string]bool{}
	for n := 0; n < 960; n++ {
		fen, err := Chess960FEN(n)
		if err != nil {
			t.Fatal(err)
		}
		rank := fen[strings.LastIndexByte(fen[:strings.IndexByte(fen, ' ')], '/')+1 : strings.IndexByte(fen, ' ')]
		k, r1, r2 := strings.IndexByte(rank, 'K'), strings.IndexByte(rank, 'R'), strings.LastIndexByte(rank, 'R')
		b1, b2 := strings.IndexByte(rank, 'B'), strings.LastIndexByte(rank, 'B')
		if !(r1 < k && k < r2) || (b1+b2)%2 == 0 || seen[rank] {
			t.Fatalf("position %d: %s is not a new Chess960 start", n, rank)
		}
		seen[rank] = true
		if got, ok := Chess960Number(fen); !ok || got != n {
			t.Fatalf("Chess960Number(%s) = %d, %v; want %d", fen, got, ok, n)
		}
		b := mustFEN960(t, fen)
		if b.CastlingRights() != 15 || b.FEN() != fen {
			t.Fatalf("position %d: %s read back as %s", n, fen, b.FEN())
		}
	}
	if _, ok := Chess960Number("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"); ok {
		t.Error("a position after 1.e4 is a Chess960 start")
	}
	for _, n := range []int{-1, 960} {
		if _, err := Chess960FEN(n); err == nil {
			t.Errorf("Chess960FEN(%d) accepted", n)
		}
	}
}

func TestFEN960Castling(t *testing.T) {
	cases := []struct {
		name, in, fen, shredder string
		wk, wq, bk, bq          Square // rook squares of held rights (NoSquare = none)
	}{
		{"x-fen outermost", "nbbrknrq/pppppppp/8/8/8/8/PPPPPPPP/NBBRKNRQ w KQkq - 0 1",
			"nbbrknrq/pppppppp/8/8/8/8/PPPPPPPP/NBBRKNRQ w KQkq - 0 1", "nbbrknrq/pppppppp/8/8/8/8/PPPPPPPP/NBBRKNRQ w GDgd - 0 1", 6, 3, 62, 59},
		{"shredder in", "nbbrknrq/pppppppp/8/8/8/8/PPPPPPPP/NBBRKNRQ w GDgd - 0 1",
			"nbbrknrq/pppppppp/8/8/8/8/PPPPPPPP/NBBRKNRQ w KQkq - 0 1", "nbbrknrq/pppppppp/8/8/8/8/PPPPPPPP/NBBRKNRQ w GDgd - 0 1", 6, 3, 62, 59},
		{"inner rook by file", "4k3/8/8/8/8/8/8/R1R1K2R w KC - 0 1",
			"4k3/8/8/8/8/8/8/R1R1K2R w KC - 0 1", "4k3/8/8/8/8/8/8/R1R1K2R w HC - 0 1", 7, 2, NoSquare, NoSquare},
		{"right without rook dropped", "4k3/8/8/8/8/8/8/R3K3 w KQ - 0 1",
			"4k3/8/8/8/8/8/8/R3K3 w Q - 0 1", "4k3/8/8/8/8/8/8/R3K3 w A - 0 1", NoSquare, 0, NoSquare, NoSquare},
		{"king off its rank", "r6r/4k3/8/8/8/8/8/R3K2R w KQkq - 0 1",
			"r6r/4k3/8/8/8/8/8/R3K2R w KQ - 0 1", "r6r/4k3/8/8/8/8/8/R3K2R w HA - 0 1", 7, 0, NoSquare, NoSquare},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			b := mustFEN960(t, c.in)
			if got := b.FEN(); got != c.fen {
				t.Errorf("FEN() = %q, want %q", got, c.fen)
			}
			if got := b.ShredderFEN(); got != c.shredder {
				t.Errorf("ShredderFEN() = %q, want %q", got, c.shredder)
			}
			for i, want := range []Square{c.wk, c.wq, c.bk, c.bq} {
				sq, ok := b.CastlingRook(Color(i/2), i%2 == 0)
				if ok != (want != NoSquare) || (ok && sq != want) {
					t.Errorf("right %d: rook %s held %v, want %s", i, sq, ok, want)
				}
			}
			if b.Hash() != b.computeHash() {
				t.Error("hash mismatch")
			}
		})
	}
}

func TestFENCastlingModes(t *testing.T) {
	// Shredder letters select Chess960 even through FromFEN.
	b := mustFEN(t, "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w HAha - 0 1")
	if !b.Chess960() || b.FEN() != StartFEN {
		t.Errorf("FromFEN(HAha): chess960=%v FEN %q", b.Chess960(), b.FEN())
	}
	if New().Chess960() {
		t.Error("New() plays Chess960")
	}
	for _, c := range []struct{ fen, want string }{
		{"4k3/8/8/8/8/8/8/4K3 w E - 0 1", "king's file"},
		{"4k3/8/8/8/8/8/8/4K1RR w HG - 0 1", "second white right"},
		{"4k3/8/8/8/8/8/8/4K2R w X - 0 1", "castling character"},
	} {
		if _, err := FromFEN960(c.fen); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("FromFEN960(%q) error %v, want one containing %q", c.fen, err, c.want)
		}
	}
	if _, err := FromFEN("4k3/8/8/8/8/8/8/4K2R w X - 0 1"); err == nil {
		t.Error("standard FEN with castling X accepted")
	}
}

func TestCastling960Moves(t *testing.T) {
	cases := []struct {
		name, fen, move string
		chess960        bool
		after           string // FEN after the move; "" = the move must be illegal
		canonical, san  string
	}{
		{"king stays, rook jumps", "4k3/8/8/8/8/8/8/6KR w K - 0 1", "g1h1", true,
			"4k3/8/8/8/8/8/8/5RK1 b - - 1 1", "g1h1", "O-O"},
		{"king and rook swap", "4k3/8/8/8/8/8/8/5KR1 w K - 0 1", "f1g1", true,
			"4k3/8/8/8/8/8/8/5RK1 b - - 1 1", "f1g1", "O-O"},
		{"rook stays", "4k3/8/8/8/8/8/8/3RK3 w Q - 0 1", "e1d1", true,
			"4k3/8/8/8/8/8/8/2KR4 b - - 1 1", "e1d1", "O-O-O"},
		{"queen side, king on its target", "4k3/8/8/8/8/8/8/1RK5 w Q - 0 1", "c1b1", true,
			"4k3/8/8/8/8/8/8/2KR4 b - - 1 1", "c1b1", "O-O-O"},
		{"rook shielded the king's target", "4k3/8/8/8/8/8/8/qRK5 w Q - 0 1", "c1b1", true, "", "", ""},
		{"rook target occupied", "4k3/8/8/8/8/8/8/1RKN4 w Q - 0 1", "c1b1", true, "", "", ""},
		{"black long castle", "r1k5/8/8/8/8/8/8/4K3 b q - 0 1", "c8a8", true,
			"2kr4/8/8/8/8/8/8/4K3 w - - 1 2", "c8a8", "O-O-O"},
		{"960 accepts the king's target", "4k3/8/8/8/8/8/8/R3K2R w KQ - 0 1", "e1g1", true,
			"4k3/8/8/8/8/8/8/R4RK1 b - - 1 1", "e1h1", "O-O"},
		{"960 prefers the plain king move", "4k3/8/8/8/8/8/8/5K1R w K - 0 1", "f1g1", true,
			"4k3/8/8/8/8/8/8/6KR b - - 1 1", "f1g1", "Kg1"},
		{"standard accepts king takes rook", "4k3/8/8/8/8/8/8/R3K2R w KQ - 0 1", "e1a1", false,
			"4k3/8/8/8/8/8/8/2KR3R b - - 1 1", "e1c1", "O-O-O"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			b, err := FromFENVariant(c.fen, c.chess960)
			if err != nil {
				t.Fatal(err)
			}
			m, err := b.ParseUCI(c.move)
			if c.after == "" {
				if err == nil {
					t.Fatalf("%s accepted as %s", c.move, m)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if m.String() != c.canonical || b.SAN(m) != c.san {
				t.Errorf("%s = %s (%s), want %s (%s)", c.move, m, b.SAN(m), c.canonical, c.san)
			}
			if fm, ok := b.FindUCI(c.canonical); !ok || fm != m {
				t.Errorf("FindUCI(%s) = %s, %v", c.canonical, fm, ok)
			}
			b.Make(m)
			if got := b.FEN(); got != c.after {
				t.Errorf("after %s: %q, want %q", c.move, got, c.after)
			}
			if b.Hash() != b.computeHash() {
				t.Error("hash drift after castling")
			}
			b.Unmake()
			if got := b.FEN(); got != mustFENv(t, c.fen, c.chess960).FEN() || b.Hash() != b.computeHash() {
				t.Errorf("unmake: %q", got)
			}
		})
	}
}

// mustFENv parses fen for Chess960 when chess960 is set, for standard chess
// otherwise (FromFENVariant), or fails t.
func mustFENv(t testing.TB, fen string, chess960 bool) *Board {
	t.Helper()
	b, err := FromFENVariant(fen, chess960)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// chess960Perft are Chess960 positions with castling rights on both wings
// and their perft counts (chessprogramming.org "Chess960 Perft Results",
// confirmed with Stockfish's go perft in UCI_Chess960 mode).
var chess960Perft = []perftCase{
	{"frc1", "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9", []int64{21, 528, 12189, 326672}, 0},
	{"frc2", "2nnrbkr/p1qppppp/8/1ppb4/6PP/3PP3/PPP2P2/BQNNRBKR w HEhe - 1 9", []int64{21, 807, 18002, 667366}, 0},
	{"frc3", "b1q1rrkb/pppppppp/3nn3/8/P7/1PPP4/4PPPP/BQNNRKRB w GE - 1 9", []int64{20, 479, 10471, 273318}, 0},
}

func TestPerftChess960Published(t *testing.T) {
	for _, c := range chess960Perft {
		t.Run(c.name, func(t *testing.T) {
			b := mustFEN960(t, c.fen)
			for d, want := range c.counts {
				if testing.Short() && want > 500000 {
					break
				}
				if got := b.Perft(d + 1); got != want {
					t.Fatalf("perft(%d) = %d, want %d", d+1, got, want)
				}
			}
		})
	}
}
