package board

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/notnil/chess"
)

// compareWithNotnil checks that both libraries produce the same legal moves
// and that our tactical generator returns exactly the captures and queen
// promotions among them.
func compareWithNotnil(t *testing.T, b *Board, pos *chess.Position) {
	t.Helper()
	var theirs []string
	for _, m := range pos.ValidMoves() {
		theirs = append(theirs, m.String())
	}
	var ml MoveList
	b.GenerateMoves(&ml)
	var ours, wantTactical []string
	for _, m := range ml.Slice() {
		ours = append(ours, m.String())
		if m.IsCapture() || m.Promotion() == Queen {
			wantTactical = append(wantTactical, m.String())
		}
	}
	slices.Sort(theirs)
	slices.Sort(ours)
	if !slices.Equal(ours, theirs) {
		t.Fatalf("%s: moves differ\nours   %v\nnotnil %v", b.FEN(), ours, theirs)
	}
	b.GenerateCaptures(&ml)
	var tactical []string
	for _, m := range ml.Slice() {
		tactical = append(tactical, m.String())
	}
	slices.Sort(tactical)
	slices.Sort(wantTactical)
	if !slices.Equal(tactical, wantTactical) {
		t.Fatalf("%s: captures differ\ngot  %v\nwant %v", b.FEN(), tactical, wantTactical)
	}
	if len(theirs) == 0 {
		if got, want := b.Status(), pos.Status(); (got == Checkmate) != (want == chess.Checkmate) || (got == Stalemate) != (want == chess.Stalemate) {
			t.Fatalf("%s: status %v, notnil %v", b.FEN(), got, want)
		}
	}
}

// playRandom plays random games with both libraries in lock step.
func playRandom(t *testing.T, seed uint64, fen string, plies int) {
	rng := rand.New(rand.NewPCG(seed, 7))
	b := mustFEN(t, fen)
	pos := notnilPos(t, fen)
	for i := 0; i < plies; i++ {
		compareWithNotnil(t, b, pos)
		moves := pos.ValidMoves()
		if len(moves) == 0 {
			return
		}
		nm := moves[rng.IntN(len(moves))]
		m, err := b.ParseUCI(nm.String())
		if err != nil {
			t.Fatalf("%s: notnil move %s: %v", b.FEN(), nm, err)
		}
		hash := b.Hash()
		b.Make(m)
		b.Unmake()
		if b.Hash() != hash {
			t.Fatalf("%s: make/unmake of %s changed the hash", b.FEN(), m)
		}
		b.Make(m)
		if b.Hash() != b.computeHash() {
			t.Fatalf("%s: incremental hash differs after %s", b.FEN(), m)
		}
		pos = pos.Update(nm)
	}
}

func TestDifferentialRandomGames(t *testing.T) {
	fens := []string{StartFEN, perftCases[1].fen, perftCases[2].fen, perftCases[3].fen, perftCases[7].fen}
	for i := 0; i < 40; i++ {
		playRandom(t, uint64(i), fens[i%len(fens)], 120)
	}
}

// FuzzDifferential plays a random game chosen by the fuzzer's seed and
// compares every position's legal moves with notnil/chess.
func FuzzDifferential(f *testing.F) {
	for i := uint64(0); i < 8; i++ {
		f.Add(i, uint8(i))
	}
	f.Fuzz(func(t *testing.T, seed uint64, start uint8) {
		fen := perftCases[int(start)%len(perftCases)].fen
		playRandom(t, seed, fen, 80)
	})
}
