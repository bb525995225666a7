package analysis

import (
	"os"
	"testing"

	"github.com/outpostchess/outpost/analysis/pgn"
	"github.com/outpostchess/outpost/analysis/replay"
	"github.com/outpostchess/outpost/bots/enginepath"
	"github.com/outpostchess/outpost/bots/uci"
	"github.com/outpostchess/outpost/internal/testkit"
)

// chess960Game reads the first game of ../shared/chess960 (cutechess,
// Variant "fischerandom", start nbbrknrq) up to its first plies plies: it
// has 9... O-O (king e8 to g8 taking the g8 rook: e8g8 in both notations)
// and 21. O-O-O (king e1 to c1 with the d1 rook: e1d1 king-takes-rook,
// which an engine without UCI_Chess960 refuses).
func chess960Game(t *testing.T, plies int) *Game {
	t.Helper()
	data, err := os.ReadFile("../../shared/chess960/cutechess-fischerrandom.pgn")
	if err != nil {
		t.Skipf("reference games not present: %v", err)
	}
	games, errs := pgn.Parse(data)
	if len(games) == 0 || len(errs) > 0 && errs[0] != nil {
		t.Fatalf("parse: %v", errs)
	}
	pg := games[0]
	fen, _ := pg.Tag("FEN")
	variant, _ := pg.Tag("Variant")
	g := &Game{Index: 1, Source: "cutechess-fischerrandom.pgn", StartFEN: fen, Result: "*",
		Tags: []Tag{{Name: "Variant", Value: variant}, {Name: "FEN", Value: fen}}}
	if !g.Chess960() {
		t.Fatalf("variant %q not Chess960", variant)
	}
	b, err := replay.NewVariant(fen, true)
	if err != nil {
		t.Fatal(err)
	}
	for i, n := range pg.Moves[:plies] {
		m, err := b.ParseSAN(n.SAN)
		if err != nil {
			t.Fatalf("ply %d %s: %v", i+1, n.SAN, err)
		}
		g.Moves = append(g.Moves, Move{SAN: n.SAN, UCI: m.UCI})
		b = b.Play(m)
	}
	if g.Moves[17].SAN != "O-O" || g.Moves[40].SAN != "O-O-O" || g.Moves[40].UCI != "e1d1" {
		t.Fatalf("castling plies: %+v %+v", g.Moves[17], g.Moves[40])
	}
	return g
}

// TestLichessPresetsAnalyseChess960 analyses a Chess960 game with the two
// Lichess presets' methods (lichess-sf15: every position on its own with a
// fresh hash, on Stockfish 15.1; lichess-sf18: fishnet's chunks, on
// Stockfish 18 when built) at a small node budget. The engine must search
// with UCI_Chess960 on: otherwise it refuses 21. O-O-O (e1d1) and searches
// the wrong positions from there. Checked: every best move is legal in the
// position we think was analysed, and a position after each castling
// searched through the game's moves gives exactly what the same position
// searched from its X-FEN alone gives (fresh hash, same node budget).
func TestLichessPresetsAnalyseChess960(t *testing.T) {
	if testing.Short() {
		t.Skip("runs Stockfish")
	}
	testkit.AwaitSetup(t, testkit.SetupSF15, testkit.SetupSF18)
	var l enginepath.Locator
	sf18, err := l.Native(enginepath.Stockfish18)
	if err != nil {
		t.Fatal(err)
	}
	sf15 := l.DebianStockfish()
	if n, _ := l.Native(enginepath.Stockfish15); n != "" {
		sf15 = n
	}
	g := chess960Game(t, 44)
	for _, tc := range []struct {
		preset, engine string
	}{
		{"lichess-sf15", sf15},
		{"lichess-sf18", sf18},
	} {
		t.Run(tc.preset, func(t *testing.T) {
			if tc.engine == "" {
				t.Skipf("engine of %s not built (make setup; outpost engines install sf18)", tc.preset)
			}
			ctx := t.Context() // the searches are bounded by nodes; go test -timeout bounds the rest
			p, err := NewPool(ctx, PoolConfig{Command: []string{tc.engine}, Workers: 1, HashMB: 16})
			if err != nil {
				t.Fatal(err)
			}
			defer p.Close()
			budget, err := Preset(tc.preset)
			if err != nil {
				t.Fatal(err)
			}
			budget.Nodes = 20_000 // the preset's method at a test's budget
			as, errs, err := p.AnalyseGames(ctx, []*Game{g}, EngineOptions{Budget: budget, BorderlineBand: -1})
			if err != nil || errs[0] != nil {
				t.Fatal(err, errs)
			}
			checkBestMovesLegal(t, g, as[0])
			gp, err := positionsOf(t.Context(), g)
			if err != nil {
				t.Fatal(err)
			}
			lim := uci.Limits{Nodes: 20_000}
			for _, k := range []int{18, 41} { // just after each castling
				byMoves := gp.job(k, lim)
				byFEN := Job{Pos: uci.Position{FEN: gp.boards[k].FEN(), Chess960: true}, WhiteToMove: gp.boards[k].WhiteToMove(), Limits: lim}
				outs, err := p.Search(ctx, []Job{byMoves, byFEN}, SearchOptions{ChunkSize: 1})
				if err != nil {
					t.Fatalf("ply %d: %v", k, err)
				}
				if outs[0].Eval == nil || outs[1].Eval == nil || *outs[0].Eval != *outs[1].Eval ||
					outs[0].BestUCI != outs[1].BestUCI || outs[0].Nodes != outs[1].Nodes {
					t.Errorf("after ply %d (%s): through the moves %+v, from the FEN %s %+v", k, g.Moves[k-1].SAN, outs[0], byFEN.Pos.FEN, outs[1])
				}
			}
		})
	}
}

// checkBestMovesLegal asserts that every ply's best move is legal in the
// position before it, and that every position but a mate has an eval.
func checkBestMovesLegal(t *testing.T, g *Game, a *Analysis) {
	t.Helper()
	b, err := replay.NewVariant(g.StartFEN, true)
	if err != nil {
		t.Fatal(err)
	}
	if len(a.Plies) != len(g.Moves) {
		t.Fatalf("%d plies analysed, want %d", len(a.Plies), len(g.Moves))
	}
	for i, pl := range a.Plies {
		if pl.BestUCI == nil {
			t.Errorf("ply %d %s: no best move", i+1, g.Moves[i].SAN)
		} else if _, err := b.ParseUCI(*pl.BestUCI); err != nil {
			t.Errorf("ply %d %s: best move %s illegal in %s: %v", i+1, g.Moves[i].SAN, *pl.BestUCI, b.FEN(), err)
		}
		if pl.Eval == nil {
			t.Errorf("ply %d %s: no eval", i+1, g.Moves[i].SAN)
		}
		m, err := b.ParseUCI(g.Moves[i].UCI)
		if err != nil {
			t.Fatal(err)
		}
		b = b.Play(m)
	}
}
