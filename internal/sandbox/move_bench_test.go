package sandbox

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/outpostchess/outpost/bots/board"
)

// BenchmarkMoveAtPly measures what a move costs the server under its mutex
// (validation, SAN, game-end detection, state broadcast): 20 moves played
// from ply 20 and from ply 200 of the same game, in ns per move. The cost
// must not grow with the game's length.
//
//	go test ./internal/sandbox -run '^$' -bench MoveAtPly -benchtime 20x
func BenchmarkMoveAtPly(b *testing.B) {
	const measured = 20
	line := benchLine(b, 200+measured)
	for _, ply := range []int{20, 200} {
		b.Run(fmt.Sprintf("ply=%d", ply), func(b *testing.B) {
			srv := New(Config{Accounts: []Account{{Name: "white", Token: "tw"}, {Name: "black", Token: "tb"}}})
			defer srv.Close()
			players := [2]*account{srv.tokens["tw"], srv.tokens["tb"]}
			play := func(g *game, i int) {
				if err := srv.move(g, players[i%2], line[i], false); err != nil {
					b.Fatalf("ply %d %s: %s", i, line[i], err.msg)
				}
			}
			b.ResetTimer()
			b.StopTimer()
			for n := 0; n < b.N; n++ {
				srv.mu.Lock()
				g := srv.startGame(&challenge{id: fmt.Sprintf("b%07d", n), variant: "standard"}, players[0], players[1])
				for i := range ply {
					play(g, i)
				}
				b.StartTimer()
				for i := ply; i < ply+measured; i++ {
					play(g, i)
				}
				b.StopTimer()
				if g.over() {
					b.Fatalf("the line ended the game (%s)", g.status)
				}
				srv.finish(g, "aborted", noWinner)
				srv.mu.Unlock()
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*measured), "ns/move")
		})
	}
}

// benchLine is a deterministic legal line of n plies from the start that
// does not end the game: no position occurs twice, captures only when
// nothing else is left, pawn moves preferred when the fifty-move count
// grows.
func benchLine(tb testing.TB, n int) []string {
	tb.Helper()
	for seed := uint64(1); seed < 100; seed++ {
		if line, ok := tryLine(seed, n); ok {
			return line
		}
	}
	tb.Fatal("no line found")
	return nil
}

func tryLine(seed uint64, n int) ([]string, bool) {
	rng := rand.New(rand.NewPCG(seed, 7))
	b := board.New()
	seen := map[uint64]bool{b.Hash(): true}
	var line []string
	for len(line) < n {
		var quiet, pawn, any []board.Move
		for _, m := range b.LegalMoves() {
			b.Make(m)
			ok := !seen[b.Hash()] && b.Status() == board.Ongoing
			b.Unmake()
			switch {
			case !ok:
			case m.IsCapture():
				any = append(any, m)
			case b.PieceAt(m.From()).Type() == board.Pawn:
				pawn = append(pawn, m)
				quiet = append(quiet, m)
			default:
				quiet = append(quiet, m)
			}
		}
		pick := quiet
		if b.HalfmoveClock() > 40 && len(pawn) > 0 {
			pick = pawn
		}
		if len(pick) == 0 {
			pick = any
		}
		if len(pick) == 0 {
			return nil, false
		}
		m := pick[rng.IntN(len(pick))]
		b.Make(m)
		seen[b.Hash()] = true
		line = append(line, m.String())
	}
	return line, true
}
