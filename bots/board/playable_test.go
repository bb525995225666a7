package board

import (
	"errors"
	"strings"
	"testing"
)

// TestFromFENPlayable: a challenge's position is accepted, normalised or
// refused as Lichess does it (scalachess FenReader.read and the
// non-strict Position.playable; see lichessFEN): want is the board's FEN
// (the initialFen Lichess reports) or, after "error: ", the problem named.
func TestFromFENPlayable(t *testing.T) {
	tests := []struct {
		name, fen string
		chess960  bool
		want      string
		want960   bool // the board plays Chess960 castling
	}{
		// material: Lichess counts neither pieces nor pawns nor promotions
		{"nine queens and a pawn", "8/8/8/8/7k/4Q3/QQQQ3P/QQQQ2K1 w - - 0 1", false, "8/8/8/8/7k/4Q3/QQQQ3P/QQQQ2K1 w - - 0 1", false},
		{"ten pawns", "4k3/8/8/8/8/PP6/PPPPPPPP/4K3 w - - 0 1", false, "4k3/8/8/8/8/PP6/PPPPPPPP/4K3 w - - 0 1", false},
		{"seventeen pieces", "4k3/pppppppp/pppppppp/8/8/8/8/4K3 w - - 0 1", false, "4k3/pppppppp/pppppppp/8/8/8/8/4K3 w - - 0 1", false},
		{"three queens and every pawn", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNQQKQNR w KQkq - 0 1", false, "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNQQKQNR w KQkq - 0 1", false},
		{"triple check", "4k3/8/3N4/1B6/8/8/4R3/6K1 b - - 0 1", false, "4k3/8/3N4/1B6/8/8/4R3/6K1 b - - 0 1", false},
		// castling: a right without its king or rook is dropped
		{"castling without rooks", "4k3/8/8/8/8/8/8/4K3 w KQkq - 0 1", false, "4k3/8/8/8/8/8/8/4K3 w - - 0 1", false},
		{"some rooks missing", "r3k3/8/8/8/8/8/8/4K2R w KQkq - 0 1", false, "r3k3/8/8/8/8/8/8/4K2R w Kq - 0 1", false},
		{"king off its first rank", "r3k2r/8/8/8/8/8/4K3/R6R w KQkq - 0 1", false, "r3k2r/8/8/8/8/8/4K3/R6R w kq - 0 1", false},
		{"Shredder letters, black's rooks missing", "4k3/8/8/8/8/8/8/R3K2R w HAha - 0 1", false, "4k3/8/8/8/8/8/8/R3K2R w KQ - 0 1", false},
		{"characters naming no rook", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQxq1 - 0 1", false, "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQq - 0 1", false},
		{"a right written twice", "r3k2r/8/8/8/8/8/8/R3K2R w KKq - 0 1", false, "r3k2r/8/8/8/8/8/8/R3K2R w Kq - 0 1", false},
		// castling: K is the outermost rook, the king anywhere on its first rank
		{"K with the rook on g1", "4k3/8/8/8/8/8/8/4K1R1 w K - 0 1", false, "4k3/8/8/8/8/8/8/4K1R1 w K - 0 1", true},
		{"the king on d1", "r3k2r/8/8/8/8/8/8/R2K3R w KQkq - 0 1", false, "r3k2r/8/8/8/8/8/8/R2K3R w KQkq - 0 1", true},
		{"a file letter for an inner rook", "4k3/8/8/8/8/8/8/4KRR1 w F - 0 1", false, "4k3/8/8/8/8/8/8/4KRR1 w F - 0 1", true},
		{"chess960 start", "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9", true, "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w KQkq - 2 9", true},
		// en passant: kept only when a double step produced it
		{"en passant without the pawn", "4k3/8/8/8/8/8/8/4K3 b - e3 0 1", false, "4k3/8/8/8/8/8/8/4K3 b - - 0 1", false},
		{"en passant on the wrong rank", "4k3/8/8/8/4P3/8/8/4K3 b - e4 0 1", false, "4k3/8/8/8/4P3/8/8/4K3 b - - 0 1", false},
		{"en passant not a square", "4k3/8/8/8/8/8/8/4K3 b - zz 0 1", false, "4k3/8/8/8/8/8/8/4K3 b - - 0 1", false},
		{"en passant kept", "4k3/8/8/8/3pP3/8/8/4K3 b - e3 0 1", false, "4k3/8/8/8/3pP3/8/8/4K3 b - e3 0 1", false},
		// the other fields default and are bounded
		{"placement only", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR", false, "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1", false},
		{"no side, black in check", "4k3/8/8/8/8/8/4R3/4K3", false, "4k3/8/8/8/8/8/4R3/4K3 b - - 0 1", false},
		{"side x", "4k3/8/8/8/8/8/8/4K3 x - - 0 1", false, "4k3/8/8/8/8/8/8/4K3 w - - 0 1", false},
		{"clocks bounded", "4k3/8/8/8/8/8/8/4K3 w - - 150 900", false, "4k3/8/8/8/8/8/8/4K3 w - - 100 500", false},
		{"clocks unreadable", "4k3/8/8/8/8/8/8/4K3 w - - x -3", false, "4k3/8/8/8/8/8/8/4K3 w - - 0 1", false},
		{"three-check counts skipped", "4k3/8/8/8/8/8/8/4K3 w - - +1+0 7 30", false, "4k3/8/8/8/8/8/8/4K3 w - - 7 30", false},
		// the placement is read as Lichess reads it
		{"squares left out", "4k3/8/8/8/8/8/8/4K", false, "4k3/8/8/8/8/8/8/4K3 w - - 0 1", false},
		{"no slashes", "4k38888886K1 w - - 0 1", false, "4k3/8/8/8/8/8/8/6K1 w - - 0 1", false},
		{"a trailing slash", "4k3/8/8/8/8/8/8/4K3/ w - - 0 1", false, "4k3/8/8/8/8/8/8/4K3 w - - 0 1", false},
		{"a promoted mark", "4k3/8/8/8/8/8/8/Q~3K3 w - - 0 1", false, "4k3/8/8/8/8/8/8/Q3K3 w - - 0 1", false},
		// refused, as Lichess refuses them
		{"a pocket", "4k3/8/8/8/8/8/8/4K3/Q w - - 0 1", false, "error: Crazyhouse pocket", false},
		{"a bracket pocket", "4k3/8/8/8/8/8/8/4K3[Q] w - - 0 1", false, "error: Crazyhouse pocket", false},
		{"too many squares", "88888888/ w - - 0 1", false, "error: more than 64 squares", false},
		{"a rank too long", "4k3/8/8/8/8/8/8/4K4 w - - 0 1", false, "error: rank 1 has more than 8 squares", false},
		{"an invalid character", "4k3/8/8/8/8/8/8/4KX2 w - - 0 1", false, "error: invalid character 'X'", false},
		{"no kings", "8/8/8/8/8/8/8/8 w - - 0 1", false, "error: white has 0 kings", false},
		{"two black kings", "k3k3/8/8/8/8/8/8/4K3 w - - 0 1", false, "error: black has 2 kings", false},
		{"pawn on the last rank", "3pk3/8/8/8/8/8/8/4K3 w - - 0 1", false, "error: pawn on rank 8", false},
		{"the side not to move in check", "4k3/8/8/8/8/8/8/4R1K1 w - - 0 1", false, "error: the side not to move (black) is in check", false},
		{"two rooks for one right", "4k3/8/8/8/8/8/8/4K1RR w KG - 0 1", false, "error: name two white rooks on the same side of the king (h1 and g1)", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b, err := FromFENPlayable(tt.fen, tt.chess960)
			if problem, ok := strings.CutPrefix(tt.want, "error: "); ok {
				var pe *PositionError
				if !errors.As(err, &pe) || !strings.Contains(pe.Problem, problem) || pe.FEN != tt.fen {
					t.Fatalf("got %v, want a PositionError for %q naming %q", err, tt.fen, problem)
				}
				return
			}
			if err != nil {
				t.Fatalf("refused: %v", err)
			}
			if b.FEN() != tt.want || b.Chess960() != tt.want960 {
				t.Fatalf("FEN %q (Chess960 %v), want %q (%v)", b.FEN(), b.Chess960(), tt.want, tt.want960)
			}
		})
	}
}

// TestPlayableCastlingOffTheStandardSquares: a right Lichess keeps with
// its rook off the corner castles, as Lichess plays it (the king to g1,
// the rook to f1; in UCI the king takes its rook), and FromFEN reads the
// FEN Lichess writes for it the same way.
func TestPlayableCastlingOffTheStandardSquares(t *testing.T) {
	const fen = "4k3/8/8/8/8/8/8/4K1R1 w K - 0 1"
	for name, read := range map[string]func() (*Board, error){
		"FromFENPlayable": func() (*Board, error) { return FromFENPlayable(fen, false) },
		"FromFEN":         func() (*Board, error) { return FromFEN(fen) },
	} {
		b, err := read()
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if err := b.MakeUCI("e1g1"); err != nil {
			t.Fatalf("%s: castling e1g1: %v", name, err)
		}
		if got := b.FEN(); got != "4k3/8/8/8/8/8/8/5RK1 b - - 1 1" {
			t.Errorf("%s: after castling %q", name, got)
		}
	}
	// Validate keeps its standard squares: no rook on h1 is no K right.
	if err := Validate(fen, false); err == nil || !strings.Contains(err.Error(), "no white rook on h1") {
		t.Errorf("Validate(%q) = %v, want no white rook on h1", fen, err)
	}
}

// TestMaxMovesHoldsLichessPositions: positions Lichess makes games from
// (any material) never overflow a MoveList, and perft runs on them. The
// first has 259 legal moves, more than the 256 a list held before.
func TestMaxMovesHoldsLichessPositions(t *testing.T) {
	for _, c := range []struct {
		fen  string
		more int // at least this many legal moves
	}{
		{"knQQQQQQ/pp5Q/Q6Q/Q6Q/Q6Q/Q6Q/Q6Q/QQQQQQQK w - - 0 1", 257},
		{"4k3/8/8/8/8/PP6/PPPPPPPP/4K3 w - - 0 1", 1},
		{"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNQQKQNR w KQkq - 0 1", 1},
		{"4k3/8/3N4/1B6/8/8/4R3/6K1 b - - 0 1", 1},
		{"4k3/PPP1P1PP/8/8/8/8/ppp1p1pp/4K3 w - - 0 1", 1},
	} {
		b, err := FromFENPlayable(c.fen, false)
		if err != nil {
			t.Fatalf("%s: %v", c.fen, err)
		}
		var ml MoveList
		b.GenerateMoves(&ml)
		if ml.N < c.more {
			t.Errorf("%s: %d legal moves, want at least %d", c.fen, ml.N, c.more)
		}
		before := b.FEN()
		if n := b.Perft(2); n == 0 && ml.N > 0 {
			t.Errorf("%s: perft 2 = 0", c.fen)
		}
		if b.FEN() != before {
			t.Errorf("%s: perft changed the board to %s", c.fen, b.FEN())
		}
	}
}

// FuzzFromFENPlayable: the Lichess reading never panics; what it accepts
// reads back to itself (the FEN it writes is the one Lichess reports and
// plays from) and supports move generation and perft; and every position
// the strict check accepts is playable, the same position.
func FuzzFromFENPlayable(f *testing.F) {
	for _, s := range []string{StartFEN, "4k3/8/8/8/8/8/8/4K3 w KQkq e3 0 1", "4k3/8/8/8/8/8/8/4K1R1 w K - 0 1",
		"knQQQQQQ/pp5Q/Q6Q/Q6Q/Q6Q/Q6Q/Q6Q/QQQQQQQK w - - 0 1", "4k38888886K1", "4k3/8/8/8/8/8/8/4K3/Q w",
		"bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9"} {
		f.Add(s, false)
		f.Add(s, true)
	}
	f.Fuzz(func(t *testing.T, fen string, chess960 bool) {
		b, err := FromFENPlayable(fen, chess960)
		if strict, serr := FromFENChecked(fen, chess960); serr == nil {
			if err != nil {
				t.Fatalf("%q: valid but not playable: %v", fen, err)
			}
			if a, s := strings.Fields(b.FEN()), strings.Fields(strict.FEN()); strings.Join(a[:4], " ") != strings.Join(s[:4], " ") {
				t.Fatalf("%q: playable %q, valid %q", fen, b.FEN(), strict.FEN())
			}
		}
		if err != nil {
			var pe *PositionError
			if !errors.As(err, &pe) {
				t.Fatalf("error of type %T: %v", err, err)
			}
			return
		}
		out := b.FEN()
		again, err := FromFENPlayable(out, b.Chess960())
		if err != nil || again.FEN() != out || again.Chess960() != b.Chess960() {
			t.Fatalf("%q reads as %q, which reads as %v, %v", fen, out, again, err)
		}
		b.Perft(2)
		if b.FEN() != out {
			t.Fatalf("perft changed the board %q", out)
		}
	})
}
