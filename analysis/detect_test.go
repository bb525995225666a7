package analysis_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/outpostchess/outpost/analysis"
	"github.com/outpostchess/outpost/analysis/input"
	"github.com/outpostchess/outpost/bots/enginepath"
	"github.com/outpostchess/outpost/bots/score"
	"github.com/outpostchess/outpost/bots/uci"
)

// sharedGame reads one game of ../shared/lichess-games (skipping when the
// shared folder is missing).
func sharedGame(t *testing.T, name string) *analysis.Game {
	t.Helper()
	f, err := os.Open("../../shared/lichess-games/" + name)
	if err != nil {
		t.Skipf("shared game %s: %v", name, err)
	}
	defer f.Close()
	games, errs := input.ReadPGN(f, name)
	if len(errs) > 0 || len(games) != 1 {
		t.Fatalf("%s: %d games, errors %v", name, len(games), errs)
	}
	return games[0]
}

// lichessEngine is a fake engine that knows Lichess's evals of a game and
// gives them only when searched exactly with one method: the node limit
// and, for a chunked method, each position right after the one that
// follows it (the warm-up or the previous search of the chunk, backwards)
// since ucinewgame; for a fresh-hash method, each position first after
// ucinewgame. Otherwise it is one centipawn off. Its searches are logged.
type lichessEngine struct {
	evals  map[int]score.Score // position (moves played) → Lichess's eval, White POV
	nodes  int64
	fresh  bool
	last   int // moves of the previous search since ucinewgame; -1 after ucinewgame
	log    *[]string
	engine string
	// anyBefore: positions before it get Lichess's eval whatever the
	// method (two methods that agree there).
	anyBefore int
}

func (e *lichessEngine) Analyse(ctx context.Context, pos uci.Position, lim uci.Limits) (*uci.Result, error) {
	k := len(pos.Moves)
	*e.log = append(*e.log, fmt.Sprintf("%s %d@%d", e.engine, k, lim.Nodes))
	right := k < e.anyBefore || lim.Nodes == e.nodes && (e.fresh && e.last == -1 || !e.fresh && e.last == k+1)
	e.last = k
	sc, ok := e.evals[k]
	if !ok {
		sc = score.CP(0)
	}
	if !right {
		sc.CP++
	}
	if k%2 == 1 { // Black to move: the engine speaks for Black
		sc.CP, sc.Mate = -sc.CP, -sc.Mate
	}
	return &uci.Result{BestMove: "e2e4", Nodes: lim.Nodes, Lines: []uci.Info{{Depth: 20, Score: sc, HasScore: true, PV: []string{"e2e4"}}}}, nil
}
func (e *lichessEngine) NewGame(context.Context) error { e.last = -1; return nil }
func (e *lichessEngine) Restart(context.Context) error { return nil }
func (e *lichessEngine) Close() error                  { return nil }

// fakePools starts, per engine name, a lichessEngine that gives Lichess's
// evals with the method of the preset right (and is off by a centipawn for
// every other engine and method); names in missing are not installed.
func fakePools(g *analysis.Game, right string, missing ...string) (func(context.Context, string) (*analysis.Pool, func(), error), *[]string) {
	evals := map[int]score.Score{}
	for i, p := range g.Lichess.Plies {
		if p.Eval != nil {
			evals[i+1] = *p.Eval
		}
	}
	var log []string
	return func(ctx context.Context, engine string) (*analysis.Pool, func(), error) {
		for _, m := range missing {
			if m == engine {
				return nil, nil, fmt.Errorf("engine %s: not built: %w", engine, enginepath.ErrNotInstalled)
			}
		}
		b := analysis.Presets[right]
		nodes := b.FishnetLimits().Nodes
		if engine != b.Engine {
			nodes = -1 // never the right method
		}
		p, err := analysis.NewPool(ctx, analysis.PoolConfig{Command: []string{engine}, Factory: func(context.Context, int) (analysis.Searcher, error) {
			return &lichessEngine{evals: evals, nodes: nodes, fresh: b.FreshHash, last: -1, log: &log, engine: engine}, nil
		}})
		return p, func() { p.Close() }, err
	}, &log
}

// TestDetectPeriodPicksTheMethod: with fake engines of which one gives
// Lichess's evals when run by its period's method, detection names that
// period and 5/5 exact evals, for a fresh-hash period (15.1, 16) and a
// chunked one (17.1, 18: the chunk searched backwards after its warm-up);
// an engine that is not installed is reported, not fatal; with no right
// engine it says none matches.
func TestDetectPeriodPicksTheMethod(t *testing.T) {
	g := sharedGame(t, "lila-expected1.pgn")
	for _, tc := range []struct {
		right, want string
		missing     []string
	}{
		{"lichess-sf15", "Stockfish 15.1 (fishnet 2.6.7): 5/5 evals exact", nil},
		{"lichess-sf16", "Stockfish 16 (fishnet 2.7.0): 5/5 evals exact", []string{"sf18"}},
		{"lichess-sf16-2.8", "Stockfish 16 (fishnet 2.8.0): 5/5 evals exact", nil},
		{"lichess-sf17.1", "Stockfish 17.1 (fishnet 2.9.5): 5/5 evals exact", nil},
		{"lichess-sf18", "Stockfish 18 (fishnet 2.13.0): 5/5 evals exact", []string{"sf16"}},
		{"none", "no obtainable period gives Lichess's evals (Stockfish 15.1 (fishnet 2.6.7) 0/5; Stockfish 16 (fishnet 2.7.0) not installed;", []string{"sf16"}},
	} {
		t.Run(tc.right, func(t *testing.T) {
			pools, log := fakePools(g, tc.right, tc.missing...)
			d, err := analysis.DetectPeriod(context.Background(), g, analysis.DetectOptions{Pool: pools})
			if err != nil {
				t.Fatal(err)
			}
			if !strings.HasPrefix(d.String(), tc.want) {
				t.Errorf("detection %q, want %q; searches %v", d, tc.want, *log)
			}
			if len(d.Positions) != 5 || d.Positions[0] < analysis.DetectFromPly {
				t.Errorf("positions %v: want 5 from ply %d on", d.Positions, analysis.DetectFromPly)
			}
		})
	}
}

// TestDetectPeriodWindow: the positions are one fishnet chunk counted from
// the game's end (98 positions: chunks [93,98), …, [18,23)), the first past
// the opening; the chunked method searches it backwards after the warm-up
// of position 23, the fresh-hash one each position alone.
func TestDetectPeriodWindow(t *testing.T) {
	g := sharedGame(t, "lila-expected1.pgn")
	pools, log := fakePools(g, "lichess-sf18")
	d, err := analysis.DetectPeriod(context.Background(), g, analysis.DetectOptions{Pool: pools,
		Periods: []analysis.Period{analysis.LichessPeriodAt(time.Date(2023, 1, 1, 0, 0, 0, 0, time.UTC)), analysis.LichessPeriodAt(time.Date(2026, 1, 31, 0, 0, 0, 0, time.UTC))}})
	if err != nil {
		t.Fatal(err)
	}
	if fmt.Sprint(d.Positions) != "[18 19 20 21 22]" {
		t.Errorf("positions %v, want [18 19 20 21 22]", d.Positions)
	}
	want := "sf15 22@1500000 sf15 21@1500000 sf15 20@1500000 sf15 19@1500000 sf15 18@1500000 sf18 23@857142 sf18 22@857142 sf18 21@857142 sf18 20@857142 sf18 19@857142 sf18 18@857142"
	if got := strings.Join(*log, " "); got != want {
		t.Errorf("searches\n%s\nwant\n%s", got, want)
	}
}

// TestDetectPeriodErrors: a game without Lichess evals is refused, naming
// what is missing; a failing engine start other than "not installed" is
// reported as unavailable too, never fatal.
func TestDetectPeriodErrors(t *testing.T) {
	g := sharedGame(t, "lila-expected1.pgn")
	bare := *g
	bare.Lichess = nil
	if _, err := analysis.DetectPeriod(context.Background(), &bare, analysis.DetectOptions{}); err == nil || !strings.Contains(err.Error(), "no Lichess analysis") {
		t.Errorf("err = %v", err)
	}
	d, err := analysis.DetectPeriod(context.Background(), g, analysis.DetectOptions{Pool: func(context.Context, string) (*analysis.Pool, func(), error) {
		return nil, nil, errors.New("boom")
	}})
	if err != nil || d.Found != nil || !strings.Contains(d.String(), "not installed") {
		t.Errorf("detection %v, %v", d, err)
	}
}

// TestDetectPeriodTellsTheSF16MethodsApart: fishnet 2.7's and 2.8's
// methods run the same Stockfish 16; where both give Lichess's evals on the
// first positions, detection compares further chunks until only one does
// (here the 2.7 method, right on every position), and when they agree on
// the whole game it says so.
func TestDetectPeriodTellsTheSF16MethodsApart(t *testing.T) {
	g := sharedGame(t, "lila-expected1.pgn")
	evals := map[int]score.Score{}
	for i, p := range g.Lichess.Plies {
		if p.Eval != nil {
			evals[i+1] = *p.Eval
		}
	}
	b := analysis.Presets["lichess-sf16"]
	periods := []analysis.Period{analysis.LichessPeriodAt(time.Date(2023, 8, 1, 0, 0, 0, 0, time.UTC)), analysis.LichessPeriodAt(time.Date(2024, 1, 10, 0, 0, 0, 0, time.UTC))}
	for _, tc := range []struct {
		anyBefore int
		want      string
		positions int
	}{
		{30, "Stockfish 16 (fishnet 2.7.0): 15/15 evals exact", 15},
		{1000, "Stockfish 16 (fishnet 2.7.0): 80/80 evals exact (so does Stockfish 16 (fishnet 2.8.0): their evals agree on every position compared)", 80},
	} {
		var log []string
		pools := func(ctx context.Context, engine string) (*analysis.Pool, func(), error) {
			p, err := analysis.NewPool(ctx, analysis.PoolConfig{Command: []string{engine}, Factory: func(context.Context, int) (analysis.Searcher, error) {
				return &lichessEngine{evals: evals, nodes: b.FishnetLimits().Nodes, fresh: true, last: -1, log: &log, engine: engine, anyBefore: tc.anyBefore}, nil
			}})
			return p, func() { p.Close() }, err
		}
		d, err := analysis.DetectPeriod(context.Background(), g, analysis.DetectOptions{Pool: pools, Periods: periods})
		if err != nil {
			t.Fatal(err)
		}
		if d.String() != tc.want || len(d.Positions) != tc.positions {
			t.Errorf("agreeing before position %d: %q on %d positions, want %q on %d", tc.anyBefore, d, len(d.Positions), tc.want, tc.positions)
		}
	}
}
