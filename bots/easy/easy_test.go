package easy

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/notnil/chess"

	"github.com/outpostchess/outpost/bots/board"
	"github.com/outpostchess/outpost/bots/engine"
)

// TestLegalMovesWholeGames plays easy against itself with notnil/chess as
// the referee: every move must be legal until the game ends.
func TestLegalMovesWholeGames(t *testing.T) {
	e, err := New(WithSeed(1))
	if err != nil {
		t.Fatal(err)
	}
	moves := 0
	for g := 0; g < 4; g++ {
		game := chess.NewGame()
		var pos engine.Position
		for game.Outcome() == chess.NoOutcome && len(pos.Moves) < 200 {
			m, err := e.SelectMove(context.Background(), pos, engine.Limits{})
			if err != nil {
				t.Fatalf("game %d after %v: %v", g, pos.Moves, err)
			}
			mv, err := chess.UCINotation{}.Decode(game.Position(), m.UCI)
			if err != nil {
				t.Fatalf("game %d: illegal move %s in %s", g, m.UCI, game.FEN())
			}
			if err := game.Move(mv); err != nil {
				t.Fatalf("game %d: notnil rejects %s: %v", g, m.UCI, err)
			}
			pos.Moves = append(pos.Moves, m.UCI)
			moves++
		}
	}
	if moves < 200 {
		t.Fatalf("only %d moves played", moves)
	}
}

// shareOf returns the share of 2000 moves in pos, by an engine seeded with
// seed, that are uci.
func shareOf(t *testing.T, seed uint64, pos engine.Position, uci string) float64 {
	t.Helper()
	e, err := New(WithSeed(seed))
	if err != nil {
		t.Fatal(err)
	}
	const trials = 2000
	hits := 0
	for i := 0; i < trials; i++ {
		m, err := e.SelectMove(context.Background(), pos, engine.Limits{})
		if err != nil {
			t.Fatal(err)
		}
		if m.UCI == uci {
			hits++
		}
	}
	return float64(hits) / trials
}

func TestFavoursCaptures(t *testing.T) {
	// White can capture on d5 (pawn), or make 20-odd quiet moves.
	pos := engine.Position{StartFEN: "rnbqkbnr/ppp1pppp/8/3p4/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2"}
	b, _ := board.FromFEN(pos.StartFEN)
	n := len(b.LegalMoves())
	// Expected share: 0.7 + 0.3 * 0.5 * 0 (no checks) + 0.3*0.5/n... roughly
	// 0.7 + 0.15/n; allow sampling noise.
	share := shareOf(t, 42, pos, "e4d5")
	want := CaptureShare + (1-CaptureShare)/float64(n)
	if share < want-0.05 || share > want+0.05 {
		t.Fatalf("capture share %.3f, want about %.3f", share, want)
	}
}

func TestFavoursChecks(t *testing.T) {
	// No captures; Qh5+ is not check here, but Bb5+ is. Black: e7-e5? Use a
	// position where exactly one move checks: White Bf1-b5+ after 1.e4 d6.
	pos := engine.Position{Moves: []string{"e2e4", "d7d6"}}
	share := shareOf(t, 7, pos, "f1b5")
	if share < 0.40 || share > 0.60 { // 0.5 + 0.5/30
		t.Fatalf("check share %.3f, want about 0.52", share)
	}
}

func TestSeedReproducible(t *testing.T) {
	a, _ := New(WithSeed(9))
	b, _ := New(WithSeed(9))
	pos := engine.Position{}
	for i := 0; i < 50; i++ {
		ma, _ := a.SelectMove(context.Background(), pos, engine.Limits{})
		mb, _ := b.SelectMove(context.Background(), pos, engine.Limits{})
		if ma.UCI != mb.UCI {
			t.Fatalf("same seed, different moves: %s vs %s", ma.UCI, mb.UCI)
		}
		pos.Moves = append(pos.Moves, ma.UCI)
		if bd, _ := pos.Board(); bd.Status() != board.Ongoing {
			break
		}
	}
}

func TestErrors(t *testing.T) {
	e, _ := New(WithSeed(1))
	ctx := context.Background()
	if _, err := e.SelectMove(ctx, engine.Position{StartFEN: "7k/5QQ1/8/8/8/8/8/K7 b - - 0 1"}, engine.Limits{}); err == nil || !strings.Contains(err.Error(), "no legal moves") {
		t.Errorf("checkmate: err = %v", err)
	}
	if _, err := e.SelectMove(ctx, engine.Position{Moves: []string{"e2e5"}}, engine.Limits{}); err == nil || !strings.Contains(err.Error(), "e2e5") {
		t.Errorf("illegal history: err = %v", err)
	}
	cctx, cancel := context.WithCancel(ctx)
	cancel()
	if _, err := e.SelectMove(cctx, engine.Position{}, engine.Limits{}); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled: err = %v", err)
	}
	if _, err := New(WithName("")); err == nil {
		t.Error("empty name accepted")
	}
	_ = e.Close()
	_ = e.Close()
	if _, err := e.SelectMove(ctx, engine.Position{}, engine.Limits{}); !errors.Is(err, ErrClosed) {
		t.Errorf("closed: err = %v", err)
	}
	if e.Name() != "easy" || e.Info().Kind != engine.KindBuiltin {
		t.Errorf("name/info wrong: %q %+v", e.Name(), e.Info())
	}
}
