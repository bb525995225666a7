package board_test

import (
	"math/rand/v2"
	"testing"

	"github.com/notnil/chess"

	"github.com/outpostchess/outpost/bots/board"
)

// TestSANMatchesNotnil plays random games and checks the SAN of every legal
// move in every position against notnil/chess.
func TestSANMatchesNotnil(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 11))
	fens := []string{
		board.StartFEN,
		"r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", // castling, pins
		"8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",                            // en passant
		"n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1",                              // promotions
		"1k6/8/8/8/8/8/8/R3K2R w KQ - 0 1",                                     // rooks to disambiguate
		"8/8/7k/8/Q3Q3/8/8/Q3Q2K w - - 0 1",                                    // queens: square disambiguation
	}
	positions := 0
	for _, fen := range fens {
		for game := 0; game < 8; game++ {
			b, err := board.FromFEN(fen)
			if err != nil {
				t.Fatal(err)
			}
			for ply := 0; ply < 80; ply++ {
				legal := b.LegalMoves()
				if len(legal) == 0 {
					break
				}
				pos, err := b.ToNotnil()
				if err != nil {
					t.Fatal(err)
				}
				want := map[string]string{}
				for _, m := range pos.ValidMoves() {
					want[m.String()] = chess.AlgebraicNotation{}.Encode(pos, m)
				}
				for _, m := range legal {
					got := b.SAN(m)
					if got != want[m.String()] {
						t.Fatalf("%s %s: SAN %q, notnil %q", b.FEN(), m, got, want[m.String()])
					}
					if back, err := b.ParseSAN(got); err != nil || back != m {
						t.Fatalf("%s: ParseSAN(%q) = %s, %v; want %s", b.FEN(), got, back, err, m)
					}
				}
				positions++
				b.Make(legal[rng.IntN(len(legal))])
			}
		}
	}
	if positions < 1000 {
		t.Fatalf("only %d positions checked", positions)
	}
}
