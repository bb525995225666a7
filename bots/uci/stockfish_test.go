package uci

import (
	"context"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/outpostchess/outpost/bots/enginepath"
	"github.com/outpostchess/outpost/bots/uci/ucitest"
)

// stockfishPath returns the Stockfish binary or skips the test.
func stockfishPath(t *testing.T) string {
	t.Helper()
	if p := os.Getenv("OUTPOST_STOCKFISH"); p != "" {
		return p
	}
	cmd, err := enginepath.Stockfish15Command()
	if err != nil {
		t.Skip(err)
	}
	return cmd[0]
}

func TestStockfishIntegration(t *testing.T) {
	ucitest.NoLeak(t)
	path := stockfishPath(t)
	ctx := context.Background()
	e, err := Start(ctx, Config{Path: path, Options: map[string]string{"Hash": "16", "Threads": "1", "UCI_ShowWDL": "true"}})
	if err != nil {
		t.Fatalf("Start: %v", err)
	}
	defer e.Close()
	if !strings.HasPrefix(e.ID().Name, "Stockfish") {
		t.Errorf("ID = %+v", e.ID())
	}
	res, err := e.Analyse(ctx, Position{}, Limits{Depth: 10, MultiPV: 2})
	if err != nil {
		t.Fatalf("Analyse: %v", err)
	}
	if len(res.Lines) != 2 || res.Lines[0].Depth != 10 || res.Lines[0].WDL == nil || !res.Lines[1].HasScore {
		t.Fatalf("lines = %+v", res.Lines)
	}
	if res.BestMove != res.Lines[0].PV[0] || res.Nodes == 0 {
		t.Errorf("result = %+v", res)
	}
	if cp := res.Lines[0].Score.CP; cp < -100 || cp > 150 {
		t.Errorf("start position scored %d cp", cp)
	}

	// Scholar's mate pattern: White mates in one with Qxf7#.
	mate := Position{FEN: "r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 4 4"}
	res, err = e.Analyse(ctx, mate, Limits{Depth: 5})
	if err != nil {
		t.Fatalf("Analyse mate: %v", err)
	}
	if best, _ := res.Best(); res.BestMove != "h5f7" || !best.Score.IsMate() || best.Score.Mate != 1 {
		t.Errorf("mate in one: bestmove %s, best %+v", res.BestMove, best)
	}

	// Stalemated side: bestmove (none).
	_, err = e.Analyse(ctx, Position{FEN: "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1"}, Limits{Depth: 3})
	if err == nil || !strings.Contains(err.Error(), "no move") {
		t.Errorf("stalemate: %v", err)
	}

	// Infinite search ended by the context.
	cctx, cancel := context.WithTimeout(ctx, 200*time.Millisecond)
	defer cancel()
	res, err = e.Analyse(cctx, Position{}, Limits{})
	if err != nil || !res.Stopped || !IsMove(res.BestMove) {
		t.Errorf("infinite: %+v, %v", res, err)
	}

	used, err := e.LimitElo(ctx, 1000)
	if err != nil || used != 1350 {
		t.Errorf("LimitElo(1000) = %d, %v; want 1350", used, err)
	}
	if err := e.SetSkillLevel(ctx, 25); err == nil {
		t.Error("Skill Level 25 accepted")
	}
	if err := e.Restart(ctx); err != nil {
		t.Fatalf("Restart: %v", err)
	}
	if e.applied["UCI_Elo"] != "1350" || e.applied["UCI_LimitStrength"] != "true" {
		t.Errorf("applied after restart = %v", e.applied)
	}
}
