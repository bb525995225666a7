package fishnet

import (
	"context"
	"os"
	"strings"
	"testing"

	"github.com/outpostchess/outpost/analysis"
	"github.com/outpostchess/outpost/analysis/replay"
	"github.com/outpostchess/outpost/internal/sandbox"
)

const stockfish = "/usr/games/stockfish"

// TestAnalyseFoolsMate analyses fool's mate with Stockfish at a tiny
// budget and checks the shape Lichess gives its analysis.
func TestAnalyseFoolsMate(t *testing.T) {
	if _, err := os.Stat(stockfish); err != nil {
		t.Skip("Stockfish not installed (make setup)")
	}
	a := New(Config{Pool: analysis.PoolConfig{Command: []string{stockfish}}, Nodes: 20000, CloudDepth: 6})
	defer a.Close()
	req := sandbox.AnalysisRequest{GameID: "fools", Moves: []string{"f2f3", "e7e5", "g2g4", "d8h4"}, FENs: []string{
		"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
		"rnbqkbnr/pppppppp/8/8/8/5P2/PPPPP1PP/RNBQKBNR b KQkq - 0 1",
		"rnbqkbnr/pppp1ppp/8/4p3/8/5P2/PPPPP1PP/RNBQKBNR w KQkq - 0 2",
		"rnbqkbnr/pppp1ppp/8/4p3/6P1/5P2/PPPPP2P/RNBQKBNR b KQkq - 0 2",
		"rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3",
	}}
	res, err := a.Analyse(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	an := res.Analysis
	if len(an.Moves) != 4 {
		t.Fatalf("%d entries", len(an.Moves))
	}
	g4 := an.Moves[2]
	if g4.Mate == nil || *g4.Mate != -1 || g4.Judgment == nil || g4.Judgment.Name != "Blunder" || g4.Best == "" ||
		g4.Judgment.Comment == "" || g4.Variation == "" {
		t.Fatalf("2. g4: %+v %+v", g4, g4.Judgment)
	}
	if m := an.Moves[3]; m.Eval != nil || m.Mate != nil || m.Judgment != nil {
		t.Fatalf("the mating move has no eval: %+v", m)
	}
	if an.White.Blunder < 1 || an.Black.Blunder != 0 || an.White.Accuracy == nil {
		t.Fatalf("players %+v %+v", an.White, an.Black)
	}
	for i, m := range an.Moves {
		if m.Judgment == nil && (m.Best != "" || m.Variation != "") {
			t.Fatalf("ply %d: best without a judgement: %+v", i+1, m)
		}
	}
	if len(res.Cloud) != 5 || res.Cloud[4] != nil {
		t.Fatalf("cloud: %d entries, final %+v", len(res.Cloud), res.Cloud[len(res.Cloud)-1])
	}
	for i, c := range res.Cloud[:4] {
		if c == nil || len(c.PVs) != 1 || c.PVs[0].Moves == "" || c.Depth < 6 {
			t.Fatalf("cloud %d: %+v", i, c)
		}
	}
	if pv := res.Cloud[3].PVs[0]; pv.Mate == nil || *pv.Mate != -1 || pv.Moves[:4] != "d8h4" {
		t.Fatalf("before 2... Qh4#: %+v", pv)
	}
}

func TestRequestGameRejectsIllegalMoves(t *testing.T) {
	_, err := requestGame(sandbox.AnalysisRequest{GameID: "x", Moves: []string{"e2e5"}})
	if err == nil {
		t.Fatal("illegal move accepted")
	}
}

// TestRequestGameChess960: a Chess960 game is replayed with its castling rules
// (its start position is illegal as standard chess) and tagged for the
// engine; the same request without the variant is refused.
func TestRequestGameChess960(t *testing.T) {
	req := sandbox.AnalysisRequest{GameID: "c960", Variant: "chess960",
		InitialFEN: "bnrbnkqr/pppppppp/8/8/8/8/PPPPPPPP/BNRBNKQR w KQkq - 0 1", Moves: []string{"g2g3", "g7g6"}}
	g, err := requestGame(req)
	if err != nil {
		t.Fatal(err)
	}
	if !g.Chess960() || len(g.Moves) != 2 || g.Moves[0].SAN != "g3" {
		t.Fatalf("game %+v", g)
	}
	req.Variant = "standard"
	if _, err := requestGame(req); err == nil {
		t.Fatal("a Chess960 start read as standard chess was accepted")
	}
}

// TestAnalyseChess960: a Chess960 game gets its server analysis (replayed
// with Chess960 castling) and cloud evals of its positions, searched as
// Chess960 (each line legal under its rules).
func TestAnalyseChess960(t *testing.T) {
	if _, err := os.Stat(stockfish); err != nil {
		t.Skip("Stockfish not installed (make setup)")
	}
	a := New(Config{Pool: analysis.PoolConfig{Command: []string{stockfish}}, Nodes: 5000, CloudDepth: 6})
	defer a.Close()
	start := "bnrbnkqr/pppppppp/8/8/8/8/PPPPPPPP/BNRBNKQR w KQkq - 0 1"
	req := sandbox.AnalysisRequest{GameID: "c960", Variant: "chess960", InitialFEN: start, Moves: []string{"g2g3", "g7g6"},
		FENs: []string{start, "bnrbnkqr/pppppppp/8/8/8/6P1/PPPPPP1P/BNRBNKQR b KQkq - 0 1",
			"bnrbnkqr/pppppp1p/6p1/8/8/6P1/PPPPPP1P/BNRBNKQR w KQkq - 0 2"}}
	res, err := a.Analyse(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Analysis.Moves) != 2 || len(res.Cloud) != 3 {
		t.Fatalf("analysis %d entries, cloud %v", len(res.Analysis.Moves), res.Cloud)
	}
	for i, ev := range res.Cloud {
		if ev == nil || len(ev.PVs) == 0 {
			t.Fatalf("position %d: no cloud eval", i)
		}
		b, err := replay.NewVariant(req.FENs[i], true)
		if err != nil {
			t.Fatal(err)
		}
		for _, u := range strings.Fields(ev.PVs[0].Moves) {
			m, err := b.ParseUCI(u)
			if err != nil {
				t.Fatalf("position %d: line %q: %v", i, ev.PVs[0].Moves, err)
			}
			b = b.Play(m)
		}
	}
}
