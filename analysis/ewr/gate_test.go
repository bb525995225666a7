package ewr

import (
	"context"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/outpostchess/outpost/bots/score"
	"github.com/outpostchess/outpost/bots/uci"
	"github.com/outpostchess/outpost/internal/testkit"
)

// testGate allows `allowed` engines until open is closed, then all. It
// signals on held each time it is asked while it holds every engine back.
type testGate struct {
	allowed int
	open    chan struct{}
	held    chan int
}

func (g *testGate) Allowed() (int, <-chan struct{}) {
	select {
	case <-g.open:
		return 1 << 20, nil
	default:
	}
	if g.allowed == 0 {
		select {
		case g.held <- 0:
		default:
		}
	}
	return g.allowed, g.open
}

// countingSearcher scores every position 0 and counts its searches and
// new games.
type countingSearcher struct {
	mu       sync.Mutex
	searches int
	newGames int
	depths   map[int]int
}

func (c *countingSearcher) Analyse(_ context.Context, _ uci.Position, lim uci.Limits) (*uci.Result, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.searches++
	if c.depths == nil {
		c.depths = map[int]int{}
	}
	c.depths[lim.Depth]++
	return &uci.Result{BestMove: "e2e4", Nodes: 10, Lines: []uci.Info{{MultiPV: 1, Depth: lim.Depth, HasScore: true, Score: score.CP(0)}}}, nil
}
func (c *countingSearcher) Restart(context.Context) error { return nil }
func (c *countingSearcher) Close() error                  { return nil }
func (c *countingSearcher) NewGame(context.Context) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.newGames++
	return nil
}

func (c *countingSearcher) count() (searches, newGames int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.searches, c.newGames
}

func TestEngineEvaluatorGate(t *testing.T) {
	defer testkit.NoLeaks(t)
	pos := Position{Moves: []string{"e2e4", "e7e5"}}
	for _, tc := range []struct {
		name    string
		allowed int
	}{
		{"shrunk to one engine: the other never searches", 1},
		{"paused: nothing until the gate opens", 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e0, e1 := &countingSearcher{}, &countingSearcher{}
			ev := NewEngineEvaluator(e0, e1)
			gate := &testGate{allowed: tc.allowed, open: make(chan struct{}), held: make(chan int, 1)}
			ev.Gate = gate
			c := &Calculator{Prober: GatedProber{MoveProber: &fakeProber{}, Gate: gate}, Evaluator: ev}
			type out struct {
				res *Result
				err error
			}
			done := make(chan out, 1)
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			if tc.allowed == 0 {
				// Nothing runs while the gate is shut: a calculation
				// cancelled there has searched nothing.
				cctx, ccancel := context.WithCancel(ctx)
				go func() { r, err := c.Calculate(cctx, pos, DefaultParams(), Options{}); done <- out{r, err} }()
				<-gate.held // an engine (or Maia) is held back
				ccancel()
				o := <-done
				require.ErrorIs(t, o.err, context.Canceled)
				s0, _ := e0.count()
				s1, _ := e1.count()
				assert.Zero(t, s0+s1, "no search while the gate is shut")
				close(gate.open)
			}
			go func() { r, err := c.Calculate(ctx, pos, DefaultParams(), Options{}); done <- out{r, err} }()
			o := <-done
			require.NoError(t, o.err)
			require.NotEmpty(t, o.res.Moves)
			s0, n0 := e0.count()
			s1, n1 := e1.count()
			if tc.allowed == 1 {
				assert.Positive(t, s0)
				assert.Zero(t, s1, "engine 1 held back")
			} else {
				assert.Positive(t, s0+s1)
			}
			assert.Positive(t, n0, "hash cleared before the calculation")
			assert.Positive(t, n1)
		})
	}
}
