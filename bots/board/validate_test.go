package board

import (
	"errors"
	"strings"
	"testing"
)

func TestValidate(t *testing.T) {
	tests := []struct {
		name     string
		fen      string
		chess960 bool
		want     string // "" for a legal position
	}{
		{"start", StartFEN, false, ""},
		{"kings only", "4k3/8/8/8/8/8/8/4K3 w - - 0 1", false, ""},
		{"en passant after e4", "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1", false, ""},
		{"en passant nobody can take", "4k3/8/8/8/4P3/8/8/4K3 b - e3 0 1", false, ""},
		{"chess960 X-FEN", "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9", true, ""},
		{"chess960 KQ", "rkrnnqbb/pppppppp/8/8/8/8/PPPPPPPP/RKRNNQBB w KQkq - 0 1", true, ""},
		{"chess960 Shredder letters without the flag", "rkrnnqbb/pppppppp/8/8/8/8/PPPPPPPP/RKRNNQBB w CAca - 0 1", false, ""},
		// issue 18: castling without a rook reached Stockfish, which crashed
		{"castling without rooks", "4k3/8/8/8/8/8/8/4K3 w KQkq - 0 1", false, `castling right 'K': no white rook on h1`},
		{"castling with the king away", "r3k2r/8/8/8/8/8/8/R2K3R w KQ - 0 1", false, `castling right 'K': the white king is on d1, not on e1`},
		{"black queen side without rook", "1r2k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", false, `castling right 'q': no black rook on a8`},
		{"repeated right", "r3k2r/8/8/8/8/8/8/R3K2R w KK - 0 1", false, "name the same right"},
		{"chess960 no rook on king side", "rkr5/8/8/8/8/8/8/RK6 w K - 0 1", true, `castling right 'K': no white rook on the king side`},
		{"chess960 king off first rank", "rkr5/8/8/8/8/8/1K6/R1R5 w KQ - 0 1", true, "not on its first rank"},
		{"chess960 file letter without rook", "rkr5/8/8/8/8/8/8/RKR5 w H - 0 1", true, `castling right 'H': no white rook on h1`},
		// issue 18: the side not to move in check (predict showed a king capture)
		{"side not to move in check", "4k3/8/8/8/8/8/8/4R1K1 w - - 0 1", false, "the side not to move (black) is in check"},
		{"pawn on first rank", "4k3/8/8/8/8/8/8/P3K3 w - - 0 1", false, "pawn on rank 1"},
		{"pawn on last rank", "3pk3/8/8/8/8/8/8/4K3 w - - 0 1", false, "pawn on rank 8"},
		{"no white king", "4k3/8/8/8/8/8/8/8 w - - 0 1", false, "white has 0 kings"},
		{"two black kings", "k3k3/8/8/8/8/8/8/4K3 w - - 0 1", false, "black has 2 kings"},
		{"nine pawns", "4k3/8/8/8/8/P7/PPPPPPPP/4K3 w - - 0 1", false, "white has 9 pawns"},
		{"seventeen pieces", "4k3/pppppppp/pppppppp/8/8/8/8/4K3 w - - 0 1", false, "black has 17 pieces, more than 16"},
		// FromFEN reads this K as Chess960 castling with the g1 rook (as
		// Lichess does); the strict check keeps the standard squares
		{"castling with the rook on g1", "4k3/8/8/8/8/8/8/4K1R1 w K - 0 1", false, `castling right 'K': no white rook on h1`},
		{"double check", "4k3/8/3N4/8/8/8/4R3/6K1 b - - 0 1", false, ""},
		{"triple check", "4k3/8/3N4/1B6/8/8/4R3/6K1 b - - 0 1", false, "black is in check by 3 pieces at once"},
		{"en passant without the pawn", "4k3/8/8/8/8/8/8/4K3 b - e3 0 1", false, "no white pawn on e4"},
		{"en passant square occupied", "4k3/8/8/8/4P3/4N3/8/4K3 b - e3 0 1", false, "e3 is occupied"},
		{"en passant origin occupied", "4k3/8/8/8/4P3/8/4N3/4K3 b - e3 0 1", false, "e2, which the pawn just left, is occupied"},
		{"en passant on the wrong rank", "4k3/8/8/8/4P3/8/8/4K3 b - e4 0 1", false, "not on rank 3"},
		// trial 19 (D7): more promoted pieces than missing pawns
		{"nine queens and a pawn", "8/8/8/8/7k/4Q3/QQQQ3P/QQQQ2K1 w - - 0 1", false, "white has 1 pawns and 8 promoted pieces: 9, more than the 8 pawns"},
		{"ten queens and two pawns", "6nk/6pp/8/8/PP6/4Q3/QQQQ4/QQQQQ1K1 w - - 0 1", false, "white has 2 pawns and 9 promoted pieces: 11"},
		{"black third rook with eight pawns", "rrr1k3/pppppppp/8/8/8/8/8/4K3 w - - 0 1", false, "black has 8 pawns and 1 promoted pieces: 9"},
		{"twelve knights", "4k3/8/8/8/8/8/NNNNNNNN/NNNNK3 w - - 0 1", false, "white has 0 pawns and 10 promoted pieces: 10"},
		{"promotions make up the missing pawns", "4k3/8/8/8/8/8/QPPPPPPP/QQ2K3 w - - 0 1", false, "white has 7 pawns and 2 promoted pieces: 9"},
		{"two queens and seven pawns", "rnbqkbnr/pppppppp/8/8/8/8/1PPPPPPP/RNBQKBNQ w Qkq - 0 1", false, ""},
		{"nine queens, no pawns", "6nk/6pp/8/8/8/Q7/QQQQ4/QQQQ1K2 w - - 0 1", false, ""},
		{"three bishops, two pawns missing", "rnbqkbnr/pppppppp/8/8/8/8/2PPPPPP/RNBQKBBR w KQkq - 0 1", false, ""},
		{"chess960 start with a promoted queen", "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/QPP1P1P1/BQ1BNRKR w HFhf - 2 9", true, ""},
		{"chess960 too many promotions", "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/QPPQPQP1/BQ1B1RKR w HFhf - 2 9", true, "white has 7 pawns and 3 promoted pieces: 10"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := Validate(tt.fen, tt.chess960)
			if tt.want == "" {
				if err != nil {
					t.Fatalf("legal position refused: %v", err)
				}
				return
			}
			var pe *PositionError
			if !errors.As(err, &pe) || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("got %v, want a PositionError containing %q", err, tt.want)
			}
		})
	}
}

func FuzzValidate(f *testing.F) {
	f.Add(StartFEN, false)
	f.Add("4k3/8/8/8/8/8/8/4K3 w KQkq - 0 1", false)
	f.Add("rkr5/8/8/8/8/8/8/RKR5 w KQkq e6 0 1", true)
	f.Add("8/8/8/8/7k/4Q3/QQQQ3P/QQQQ2K1 w - - 0 1", false)
	f.Add("rrr1k3/pppppppp/8/8/8/8/8/4K3 w - - 0 1", false)
	f.Fuzz(func(t *testing.T, fen string, chess960 bool) {
		b, err := FromFENChecked(fen, chess960)
		if err != nil {
			var pe *PositionError
			if !errors.As(err, &pe) {
				t.Fatalf("error of type %T: %v", err, err)
			}
			return // FuzzFromFENPlayable checks that the valid are playable
		}
		// a valid position has no more promoted pieces than missing pawns,
		// counted square by square
		for c := White; c <= Black; c++ {
			n := map[PieceType]int{}
			for sq := Square(0); sq < 64; sq++ {
				if p := b.PieceAt(sq); p != NoPiece && p.Color() == c {
					n[p.Type()]++
				}
			}
			extra := max(0, n[Queen]-1) + max(0, n[Rook]-2) + max(0, n[Bishop]-2) + max(0, n[Knight]-2)
			if n[Pawn]+extra > 8 {
				t.Fatalf("%s: %s has %d pawns and %d promoted pieces", fen, colorName(c), n[Pawn], extra)
			}
		}
		// a valid position keeps every right its FEN names and its moves
		// never capture a king
		for _, m := range b.LegalMoves() {
			if p := b.PieceAt(m.To()); p != NoPiece && p.Type() == King && !b.Chess960() {
				t.Fatalf("%s: legal move %s captures a king", fen, m)
			}
		}
	})
}
