package match

import (
	"context"
	"errors"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/outpostchess/outpost/bots"
	"github.com/outpostchess/outpost/bots/engine"
	"github.com/outpostchess/outpost/bots/enginepath"
	"github.com/outpostchess/outpost/bots/uci"
	"github.com/outpostchess/outpost/bots/uci/ucitest"
)

func TestMain(m *testing.M) { ucitest.Run(m) }

// scripted plays moves from a function of the position.
type scripted struct {
	name string
	fn   func(ctx context.Context, pos engine.Position) (string, error)
}

func (s *scripted) SelectMove(ctx context.Context, pos engine.Position, _ engine.Limits) (engine.Move, error) {
	m, err := s.fn(ctx, pos)
	return engine.Move{UCI: m}, err
}
func (s *scripted) Name() string { return s.name }
func (s *scripted) Close() error { return nil }

// firstLegal plays the first legal move in sorted order.
func firstLegal(_ context.Context, pos engine.Position) (string, error) {
	g, err := pos.Board()
	if err != nil {
		return "", err
	}
	return bots.LegalMoves(g)[0], nil
}

// script plays the given moves in turn, then the first legal move.
func script(moves ...string) func(context.Context, engine.Position) (string, error) {
	return func(ctx context.Context, pos engine.Position) (string, error) {
		if k := len(pos.Moves) / 2; k < len(moves) {
			return moves[k], nil
		}
		return firstLegal(ctx, pos)
	}
}

// testClock is a referee clock that moves only when a test engine says so:
// a move takes no time unless its engine advances the clock, however busy
// the machine.
type testClock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *testClock) now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

func (c *testClock) advance(d time.Duration) {
	c.mu.Lock()
	c.t = c.t.Add(d)
	c.mu.Unlock()
}

func eng(name string, fn func(context.Context, engine.Position) (string, error)) engine.Engine {
	return &scripted{name: name, fn: fn}
}

func TestReferee(t *testing.T) {
	clock := &testClock{}
	ref := referee{moveTime: 20 * time.Millisecond, tolerance: 100 * time.Millisecond, maxPlies: 200, clock: clock.now}
	knights := func(white bool) func(context.Context, engine.Position) (string, error) {
		seq := []string{"g1f3", "f3g1"}
		if !white {
			seq = []string{"g8f6", "f6g8"}
		}
		return func(_ context.Context, pos engine.Position) (string, error) { return seq[(len(pos.Moves)/2)%2], nil }
	}
	tests := []struct {
		name         string
		white, black engine.Engine
		start        engine.Position
		result       Result
		reason       string
		plies        int
	}{
		{"fool's mate", eng("w", script("f2f3", "g2g4")), eng("b", script("e7e5", "d8h4")), engine.Position{},
			BlackWins, "checkmate", 4},
		{"threefold repetition", eng("w", knights(true)), eng("b", knights(false)), engine.Position{},
			Draw, "threefold repetition", 8},
		{"illegal move forfeits", eng("w", script("e2e4")), eng("b", script("e7e4")), engine.Position{},
			WhiteWins, "illegal move: b played \"e7e4\"", 1},
		{"error forfeits", eng("w", func(context.Context, engine.Position) (string, error) { return "", errors.New("kaput") }),
			eng("b", firstLegal), engine.Position{}, BlackWins, "engine error: w: kaput", 0},
		{"overrun forfeits", eng("w", firstLegal), eng("b", func(context.Context, engine.Position) (string, error) {
			clock.advance(300 * time.Millisecond)
			return "e7e5", nil
		}), engine.Position{}, WhiteWins, "time forfeit: b took", 1},
		{"stalemate", eng("w", script("e7f7")), eng("b", firstLegal), engine.Position{StartFEN: "7k/4Q3/6K1/8/8/8/8/8 w - - 0 1"},
			Draw, "stalemate", 1},
		{"insufficient material", eng("w", script("a4e8")), eng("b", firstLegal), engine.Position{StartFEN: "4n2k/8/8/8/B7/8/8/K7 w - - 0 1"},
			Draw, "insufficient material", 1},
		{"fifty-move rule", eng("w", firstLegal), eng("b", firstLegal), engine.Position{StartFEN: "4k3/8/8/8/8/8/8/R3K3 w - - 99 80"},
			Draw, "fifty-move rule", 1},
		{"ply limit (10 here) counts the opening", eng("w", firstLegal), eng("b", firstLegal), engine.Position{Moves: []string{"e2e4", "e7e5"}},
			Draw, "adjudicated after 10 plies", 8},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := ref
			if strings.HasPrefix(tc.name, "ply limit") {
				r.maxPlies = 10
			}
			g, err := r.play(context.Background(), tc.white, tc.black, tc.start)
			if err != nil {
				t.Fatal(err)
			}
			if g.Result != tc.result || !strings.HasPrefix(g.Reason, tc.reason) || g.Plies != tc.plies {
				t.Errorf("got %s %q after %d plies (%v), want %s %q after %d", g.Result, g.Reason, g.Plies, g.Moves, tc.result, tc.reason, tc.plies)
			}
		})
	}
}

func TestRunEasyVsEasy(t *testing.T) {
	newEasy := func(seed uint64) Factory {
		var n atomic.Uint64
		return func(ctx context.Context) (engine.Engine, error) {
			return bots.New(ctx, "easy", bots.WithSeed(seed+n.Add(1)))
		}
	}
	var mu sync.Mutex
	var seen []Game
	sum, err := Run(context.Background(), Config{A: newEasy(1), B: newEasy(100), Games: 6, MoveTime: 20 * time.Millisecond,
		Concurrency: 2, Openings: testOpenings()[:2], Clock: (&testClock{}).now,
		OnGame: func(g Game) { mu.Lock(); seen = append(seen, g); mu.Unlock() }})
	if err != nil {
		t.Fatal(err)
	}
	if len(sum.Games) != 6 || sum.Wins+sum.Losses+sum.Draws != 6 || len(seen) != 6 || sum.NameA != "easy" {
		t.Fatalf("summary %+v", sum)
	}
	for i, g := range sum.Games {
		if g.Index != i || g.AIsWhite != (i%2 == 0) || g.Result == "" {
			t.Errorf("game %d: %+v", i, g)
		}
		// Openings: games 0-1 the first, 2-3 the second, 4-5 the first again.
		if want := testOpenings()[(i/2)%2].Name; g.Opening != want {
			t.Errorf("game %d opening %q, want %q", i, g.Opening, want)
		}
		if strings.Contains(g.Reason, "forfeit") || strings.Contains(g.Reason, "error") || strings.Contains(g.Reason, "illegal") {
			t.Errorf("game %d: %s", i, g.Reason)
		}
	}
}

func TestRunFakeUCIVsEasy(t *testing.T) {
	path, args, env := ucitest.Config(ucitest.Normal)
	a := func(ctx context.Context) (engine.Engine, error) {
		e, err := uciengineNew(ctx, path, args, env)
		return e, err
	}
	b := func(ctx context.Context) (engine.Engine, error) { return bots.New(ctx, "easy", bots.WithSeed(3)) }
	sum, err := Run(context.Background(), Config{A: a, B: b, Games: 2, MoveTime: 40 * time.Millisecond, Concurrency: 1,
		Openings: testOpenings()[5:6], Tolerance: 10 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	if len(sum.Games) != 2 || sum.NameA != "Fake Engine 1.0" {
		t.Fatalf("summary %+v", sum)
	}
	for _, g := range sum.Games {
		if strings.Contains(g.Reason, "forfeit") || strings.Contains(g.Reason, "illegal") || strings.Contains(g.Reason, "error") {
			t.Errorf("%+v", g)
		}
	}
}

func TestRunErrors(t *testing.T) {
	ok := func(context.Context) (engine.Engine, error) { return eng("x", firstLegal), nil }
	bad := func(context.Context) (engine.Engine, error) { return nil, errors.New("no engine") }
	for _, tc := range []struct {
		cfg  Config
		want string
	}{
		{Config{A: ok, Games: 2, MoveTime: time.Millisecond}, "both engines"},
		{Config{A: ok, B: ok, MoveTime: time.Millisecond}, "want at least 1"},
		{Config{A: ok, B: ok, Games: 2}, "must be positive"},
		{Config{A: ok, B: bad, Games: 2, MoveTime: time.Millisecond, Openings: testOpenings()[:1]}, "engine B: no engine"},
		{Config{A: ok, B: ok, Games: 2, MoveTime: time.Millisecond, Openings: []Opening{{Name: "bad", Moves: []string{"e2e5"}}}}, "opening bad"},
	} {
		if _, err := Run(context.Background(), tc.cfg); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("Run error = %v, want %q", err, tc.want)
		}
	}
	// Cancellation returns promptly with what was played.
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	slow := func(context.Context) (engine.Engine, error) {
		return eng("slow", func(ctx context.Context, pos engine.Position) (string, error) {
			time.Sleep(5 * time.Millisecond)
			return firstLegal(ctx, pos)
		}), nil
	}
	start := time.Now()
	_, err := Run(ctx, Config{A: slow, B: slow, Games: 50, MoveTime: 10 * time.Millisecond, Openings: testOpenings()[:1]})
	if !errors.Is(err, context.DeadlineExceeded) || time.Since(start) > 3*time.Second {
		t.Errorf("cancelled run: %v after %v", err, time.Since(start))
	}
}

func TestLadderBrackets(t *testing.T) {
	// The engine under test beats (by forfeit) any opponent below 2000 and
	// forfeits against any at or above it.
	var rung atomic.Int64
	me := func(context.Context) (engine.Engine, error) {
		return eng("me", func(ctx context.Context, pos engine.Position) (string, error) {
			if rung.Load() >= 2000 {
				return "", errors.New("resign")
			}
			return firstLegal(ctx, pos)
		}), nil
	}
	opp := func(_ context.Context, elo int) (engine.Engine, error) {
		rung.Store(int64(elo))
		return eng("sf", func(ctx context.Context, pos engine.Position) (string, error) {
			if elo < 2000 {
				return "", errors.New("resign")
			}
			return firstLegal(ctx, pos)
		}), nil
	}
	var visited []int
	res, err := Ladder(context.Background(), LadderConfig{Engine: me, Opponent: opp, GamesPerRung: 4, MoveTime: 10 * time.Millisecond,
		Concurrency: 1, Openings: testOpenings()[:2], OnRung: func(r Rung) { visited = append(visited, r.Elo) },
		Clock: (&testClock{}).now})
	if err != nil {
		t.Fatal(err)
	}
	if len(visited) != 2 || visited[0] != 2100 || visited[1] != 1850 {
		t.Errorf("visited %v, want [2100 1850]", visited)
	}
	if res.Rungs[0].Losses != 4 || res.Rungs[1].Wins != 4 {
		t.Errorf("rungs %+v", res.Rungs)
	}
	if res.Fit.Elo <= 1850 || res.Fit.Elo >= 2100 || res.Fit.Bound != "" {
		t.Errorf("fit %+v, want between 1850 and 2100", res.Fit)
	}
}

// uciengineNew starts an external engine with a generous handshake timeout
// (the test binary's package initialisation is slow on a loaded machine).
func uciengineNew(ctx context.Context, path string, args, env []string) (engine.Engine, error) {
	return uciengineStart(ctx, path, args, env, uci.Config{HandshakeTimeout: time.Minute, ReadyTimeout: time.Minute})
}

// testOpenings returns the default openings.
func testOpenings() []Opening { return ECOOpenings() }

func TestRunStockfishVsEasy(t *testing.T) {
	if _, err := enginepath.Stockfish15Command(); err != nil {
		t.Skip(err)
	}
	sf := func(ctx context.Context) (engine.Engine, error) {
		return bots.New(ctx, "stockfish", bots.WithHashMB(16), bots.WithThreads(1))
	}
	easy := func(ctx context.Context) (engine.Engine, error) { return bots.New(ctx, "easy", bots.WithSeed(9)) }
	sum, err := Run(context.Background(), Config{A: sf, B: easy, Games: 2, MoveTime: 20 * time.Millisecond, Concurrency: 2,
		Openings: testOpenings()[10:11], Tolerance: 2 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	// Full-strength Stockfish mates a random mover from both sides.
	if sum.Wins != 2 || sum.NameA != "Stockfish 15.1" {
		for _, g := range sum.Games {
			t.Logf("%s vs %s: %s %s", g.White, g.Black, g.Result, g.Reason)
		}
		t.Errorf("Stockfish vs easy: %+v", sum.Stats)
	}
}

// TestRefereeWallClock: without a clock of its own the referee times moves
// on the wall clock. An engine that overruns forfeits (a busy machine can
// only make its move later, never earlier: the test cannot pass by chance).
func TestRefereeWallClock(t *testing.T) {
	ref := referee{moveTime: 10 * time.Millisecond, tolerance: 100 * time.Millisecond, maxPlies: 200}
	slow := eng("slow", func(ctx context.Context, pos engine.Position) (string, error) {
		time.Sleep(300 * time.Millisecond) // the engine's thinking, not a wait for the test
		return firstLegal(ctx, pos)
	})
	g, err := ref.play(context.Background(), slow, eng("b", firstLegal), engine.Position{})
	if err != nil {
		t.Fatal(err)
	}
	if g.Result != BlackWins || !strings.HasPrefix(g.Reason, "time forfeit: slow") {
		t.Errorf("got %s %q, want a time forfeit of slow", g.Result, g.Reason)
	}
}
