package uciengine

import (
	"context"
	"errors"
	"path/filepath"
	"reflect"
	"testing"
	"time"

	"github.com/outpostchess/outpost/bots/engine"
	"github.com/outpostchess/outpost/bots/enginepath"
	"github.com/outpostchess/outpost/bots/score"
	"github.com/outpostchess/outpost/bots/uci"
	"github.com/outpostchess/outpost/bots/uci/pipetest"
	"github.com/outpostchess/outpost/bots/uci/ucitest"
)

func TestMain(m *testing.M) { ucitest.Run(m) }

func fake(t *testing.T, mode ucitest.Mode, env ...string) *Engine {
	t.Helper()
	path, args, e := ucitest.Config(mode, env...)
	eng, err := New(context.Background(), Config{Path: path, Args: args, Env: e,
		Client: uci.Config{StopTimeout: 200 * time.Millisecond, QuitTimeout: 200 * time.Millisecond}})
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	t.Cleanup(func() { _ = eng.Close() })
	return eng
}

// legal reports whether move is legal after pos.
func legal(t *testing.T, pos engine.Position, move string) bool {
	t.Helper()
	b, err := pos.Board()
	if err != nil {
		t.Fatal(err)
	}
	_, ok := b.FindUCI(move)
	return ok
}

func TestLimits(t *testing.T) {
	tests := []struct {
		in   engine.Limits
		want uci.Limits
	}{
		{engine.Limits{Depth: 5, Nodes: 100}, uci.Limits{Depth: 5, Nodes: 100}},
		{engine.Limits{MoveTime: time.Second, MoveOverhead: 100 * time.Millisecond}, uci.Limits{MoveTime: 900 * time.Millisecond}},
		{engine.Limits{MoveTime: 50 * time.Millisecond, MoveOverhead: time.Second}, uci.Limits{MoveTime: time.Millisecond}},
		{engine.Limits{WTime: time.Minute, BTime: 2 * time.Minute, WInc: time.Second, BInc: 2 * time.Second, MovesToGo: 10},
			uci.Limits{WTime: time.Minute, BTime: 2 * time.Minute, WInc: time.Second, BInc: 2 * time.Second, MovesToGo: 10}},
		{engine.Limits{Infinite: true, Depth: 3}, uci.Limits{}},
		// The time plan's deadline goes beside the clock as movetime ...
		{engine.Limits{WTime: 15 * time.Minute, BTime: 15 * time.Minute, Deadline: 9900 * time.Millisecond},
			uci.Limits{WTime: 15 * time.Minute, BTime: 15 * time.Minute, MoveTime: 9900 * time.Millisecond}},
		// ... cuts a depth limit ...
		{engine.Limits{Depth: 30, Deadline: time.Second}, uci.Limits{Depth: 30, MoveTime: time.Second}},
		// ... and never lengthens a fixed move time.
		{engine.Limits{MoveTime: time.Second, Deadline: 5 * time.Second}, uci.Limits{MoveTime: time.Second}},
	}
	for _, tc := range tests {
		if got := Limits(tc.in); !reflect.DeepEqual(got, tc.want) {
			t.Errorf("Limits(%+v) = %+v, want %+v", tc.in, got, tc.want)
		}
	}
}

func TestSelectMove(t *testing.T) {
	e := fake(t, ucitest.Normal)
	pos := engine.Position{Moves: []string{"e2e4", "c7c5", "g1f3"}}
	m, err := e.SelectMove(context.Background(), pos, engine.Limits{Depth: 3, MoveOverhead: 30 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	if !legal(t, pos, m.UCI) || m.Depth != 3 || !m.HasScore || len(m.PV) == 0 || m.PV[0] != m.UCI || m.Nodes != 300 {
		t.Errorf("move = %+v", m)
	}
	if e.Name() != "Fake Engine 1.0" || e.Info().Kind != engine.KindUCI || !e.Info().Features["multipv"] {
		t.Errorf("name %q info %+v", e.Name(), e.Info())
	}
	if err := e.NewGame(context.Background()); err != nil {
		t.Error(err)
	}
	if err := e.Configure(map[string]string{"UCI_Elo": "1600"}); err != nil || e.Elo() != 1600 {
		t.Errorf("Configure UCI_Elo: %v, elo %d", err, e.Elo())
	}
	if err := e.Configure(map[string]string{"Bogus": "1"}); err == nil {
		t.Error("Configure accepted an unknown option")
	}
	var _ engine.Configurable = e
	var _ engine.Stateful = e
	var _ engine.Inspectable = e
}

func TestCrashRestartsAndRetriesOnce(t *testing.T) {
	marker := filepath.Join(t.TempDir(), "m")
	e := fake(t, ucitest.CrashOnce, ucitest.EnvMarker+"="+marker)
	m, err := e.SelectMove(context.Background(), engine.Position{}, engine.Limits{Depth: 2})
	if err != nil || !legal(t, engine.Position{}, m.UCI) {
		t.Fatalf("after one crash: %+v, %v", m, err)
	}
	always := fake(t, ucitest.CrashOnGo)
	_, err = always.SelectMove(context.Background(), engine.Position{}, engine.Limits{Depth: 2})
	if !errors.Is(err, uci.ErrCrashed) {
		t.Errorf("engine crashing every time: %v, want ErrCrashed", err)
	}
}

func TestHungEngineHonoursDeadline(t *testing.T) {
	e := fake(t, ucitest.Hang)
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	start := time.Now()
	_, err := e.SelectMove(ctx, engine.Position{}, engine.Limits{MoveTime: 50 * time.Millisecond})
	if !errors.Is(err, uci.ErrTimeout) {
		t.Errorf("hung engine: %v, want ErrTimeout", err)
	}
	if d := time.Since(start); d > time.Second {
		t.Errorf("took %v", d)
	}
	// The next move restarts the (still hanging) engine rather than failing
	// on the dead process. Its deadline covers the restart (a process start
	// and the UCI handshake, slow under the race detector on a loaded
	// machine) before the hang itself times out.
	ctx2, cancel2 := context.WithTimeout(context.Background(), 3*time.Second)
	defer cancel2()
	if _, err := e.SelectMove(ctx2, engine.Position{}, engine.Limits{Depth: 1}); !errors.Is(err, uci.ErrTimeout) {
		t.Errorf("second move on hung engine: %v, want ErrTimeout after a restart", err)
	}
}

func TestToMoveScore(t *testing.T) {
	for _, c := range []struct {
		line   string
		want   score.Score
		scored bool
	}{
		{"info depth 3 score cp 35 pv e2e4", score.CP(35), true},
		{"info depth 3 score mate -4 pv e2e4", score.Mate(-4), true},
		{"info depth 0 score mate 0", score.Score{}, false}, // checkmated: no score
	} {
		in, err := uci.ParseInfo(c.line)
		if err != nil {
			t.Fatal(err)
		}
		m := toMove(&uci.Result{BestMove: "e2e4", Lines: []uci.Info{in}})
		if m.Score != c.want || m.HasScore != c.scored {
			t.Errorf("%q: move score %+v (scored %v), want %+v (%v)", c.line, m.Score, m.HasScore, c.want, c.scored)
		}
	}
}

// TestVariants checks that an engine without UCI_Chess960 declares
// standard chess only (from any position).
func TestVariants(t *testing.T) {
	e := fake(t, ucitest.Normal)
	if got := engine.Variants(e); !reflect.DeepEqual(got, []string{"standard", "fromPosition"}) {
		t.Errorf("fake engine plays %v", got)
	}
}

func TestStockfish(t *testing.T) {
	cmd, err := enginepath.Stockfish15Command()
	if err != nil {
		t.Skip(err)
	}
	path := cmd[0]
	e, err := New(context.Background(), Config{Path: path, Elo: 1500, Options: map[string]string{"Hash": "16"}})
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	if e.Elo() != 1500 || e.Info().Version != "Stockfish 15.1" {
		t.Errorf("elo %d info %+v", e.Elo(), e.Info())
	}
	if !engine.Plays(e, engine.VariantChess960) || engine.Plays(e, "crazyhouse") {
		t.Errorf("Stockfish (UCI_Chess960) plays %v", engine.Variants(e))
	}
	pos := engine.Position{StartFEN: "r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 4 4"}
	lim := engine.Limits{WTime: 5 * time.Second, BTime: 5 * time.Second, WInc: 100 * time.Millisecond, BInc: 100 * time.Millisecond, MoveOverhead: 20 * time.Millisecond}
	start := time.Now()
	m, err := e.SelectMove(context.Background(), pos, lim)
	if err != nil || !legal(t, pos, m.UCI) {
		t.Fatalf("move %+v, %v", m, err)
	}
	if d := time.Since(start); d > 2*time.Second {
		t.Errorf("used %v of a 5 s clock", d)
	}
}

// TestStockfishChess960 plays Chess960 positions whose history holds both
// castlings written king takes rook (e1g1 is castling with the g1 rook
// here), then a standard position: UCI_Chess960 follows the variant and
// every answer is legal, written as the variant's UCI writes it.
func TestStockfishChess960(t *testing.T) {
	e, err := New(context.Background(), Config{Path: pipetest.Installed(t, enginepath.DebianStockfish), Options: map[string]string{"Hash": "16"}})
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	positions := []engine.Position{
		{StartFEN: "1r2k1r1/pppppppp/8/8/8/8/PPPPPPPP/1R2K1R1 w KQkq - 0 1", Moves: []string{"e1g1", "e8b8"}, Chess960: true},
		// The king-move spelling of castling is accepted and sent as e1h1.
		{StartFEN: "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
			Moves: []string{"e2e4", "e7e5", "g1f3", "b8c6", "f1c4", "g8f6", "e1g1"}, Chess960: true},
		{StartFEN: "r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R w KQkq - 0 1", Moves: []string{"e1h1"}},
	}
	for _, pos := range positions {
		m, err := e.SelectMove(context.Background(), pos, engine.Limits{Depth: 8})
		if err != nil || !legal(t, pos, m.UCI) {
			t.Fatalf("%+v: move %+v, %v", pos, m, err)
		}
	}
}

func TestReplayWritesTheVariantsCastling(t *testing.T) {
	for _, c := range []struct {
		pos  engine.Position
		want string
	}{
		{engine.Position{StartFEN: "4k3/8/8/8/8/8/8/R3K2R w KQ - 0 1", Moves: []string{"e1g1"}, Chess960: true}, "e1h1"},
		{engine.Position{StartFEN: "4k3/8/8/8/8/8/8/R3K2R w KQ - 0 1", Moves: []string{"e1a1"}}, "e1c1"},
		{engine.Position{StartFEN: "4k3/8/8/8/8/8/8/R3K2R w KQ - 0 1", Moves: []string{"e1g1"}}, "e1g1"},
	} {
		_, moves, err := replay(c.pos)
		if err != nil || len(moves) != 1 || moves[0] != c.want {
			t.Errorf("replay(%+v) = %v, %v; want [%s]", c.pos, moves, err, c.want)
		}
	}
	if _, _, err := replay(engine.Position{Moves: []string{"e2e5"}}); err == nil {
		t.Error("illegal move accepted")
	}
}
