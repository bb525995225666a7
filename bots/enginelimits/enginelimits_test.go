package enginelimits

import (
	"context"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/outpostchess/outpost/bots/engine"
	"github.com/outpostchess/outpost/bots/timeman"
)

// fakeEngine records its limits and advances the fake clock by took.
type fakeEngine struct {
	clock *fakeClock
	took  time.Duration
	lim   engine.Limits
}

func (f *fakeEngine) SelectMove(_ context.Context, _ engine.Position, lim engine.Limits) (engine.Move, error) {
	f.lim = lim
	f.clock.now = f.clock.now.Add(f.took)
	return engine.Move{UCI: "e2e4"}, nil
}
func (f *fakeEngine) Name() string { return "fake" }
func (f *fakeEngine) Close() error { return nil }

type fakeClock struct {
	now   time.Time
	slept []time.Duration
	err   error
}

func (c *fakeClock) Now() time.Time { return c.now }
func (c *fakeClock) Sleep(_ context.Context, d time.Duration) error {
	c.slept = append(c.slept, d)
	return c.err
}

func TestCapsApply(t *testing.T) {
	tests := []struct {
		name string
		caps Caps
		in   engine.Limits
		want engine.Limits
	}{
		{"unset limits take the caps", Caps{Nodes: 1000, Depth: 8, MoveTime: time.Second},
			engine.Limits{WTime: time.Minute, Deadline: 5 * time.Second},
			engine.Limits{WTime: time.Minute, Deadline: 5 * time.Second, Nodes: 1000, Depth: 8, MoveTime: time.Second}},
		{"tighter limits stay", Caps{Nodes: 1000, Depth: 8, MoveTime: time.Second},
			engine.Limits{Nodes: 10, Depth: 2, MoveTime: time.Millisecond},
			engine.Limits{Nodes: 10, Depth: 2, MoveTime: time.Millisecond}},
		{"looser limits are capped", Caps{MoveTime: time.Second},
			engine.Limits{MoveTime: 10 * time.Second, Deadline: 500 * time.Millisecond},
			engine.Limits{MoveTime: time.Second, Deadline: 500 * time.Millisecond}},
		{"infinite analysis untouched", Caps{Depth: 3}, engine.Limits{Infinite: true}, engine.Limits{Infinite: true}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			require.Equal(t, tt.want, tt.caps.Apply(tt.in))
		})
	}
	// The time plan still cuts a capped move time: the deadline wins.
	capped := Caps{MoveTime: 10 * time.Second}.Apply(engine.Limits{WTime: 3 * time.Second})
	p := timeman.Plan(capped, true)
	require.Less(t, p.Deadline, 3*time.Second)
}

func TestThinkTime(t *testing.T) {
	think := ThinkTime{Min: 2 * time.Second, Max: 2 * time.Second}
	clock5m := engine.Limits{WTime: 5 * time.Minute, BTime: 5 * time.Minute, WInc: 3 * time.Second, BInc: 3 * time.Second}
	tests := []struct {
		name  string
		think ThinkTime
		pos   engine.Position
		lim   engine.Limits
		took  time.Duration
		want  []time.Duration // the waits asked for
	}{
		{"instant move waits the delay", think, engine.Position{}, clock5m, 0, []time.Duration{2 * time.Second}},
		{"the search time counts", think, engine.Position{}, clock5m, 1500 * time.Millisecond, []time.Duration{500 * time.Millisecond}},
		{"a slow move is not delayed", think, engine.Position{}, clock5m, 3 * time.Second, nil},
		{"off", ThinkTime{}, engine.Position{}, clock5m, 0, nil},
		{"no clock (correspondence)", think, engine.Position{}, engine.Limits{MoveTime: 10 * time.Second}, 0, nil},
		{"short clock", think, engine.Position{}, engine.Limits{WTime: 29 * time.Second, BTime: time.Hour}, 0, nil},
		{"black's clock for black", think, engine.Position{Moves: []string{"e2e4"}},
			engine.Limits{WTime: time.Hour, BTime: 10 * time.Second}, 0, nil},
		{"black from a FEN", think, engine.Position{StartFEN: "8/8/8/8/8/8/8/K6k b - - 0 1"},
			engine.Limits{WTime: 10 * time.Second, BTime: time.Hour}, 0, []time.Duration{2 * time.Second}},
		{"short clock threshold configurable", ThinkTime{Min: time.Second, Max: time.Second, ShortClock: 5 * time.Second},
			engine.Position{}, engine.Limits{WTime: 20 * time.Second, BTime: 20 * time.Second}, 0,
			// the target of 20 s sudden death is (20s-10ms)/30 < 1s
			[]time.Duration{timeman.Plan(engine.Limits{WTime: 20 * time.Second}, true).Target}},
		{"never beyond the time plan's target", ThinkTime{Min: 20 * time.Second, Max: 20 * time.Second},
			engine.Position{}, engine.Limits{WTime: time.Minute, BTime: time.Minute}, 0,
			[]time.Duration{timeman.Plan(engine.Limits{WTime: time.Minute}, true).Target}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			clk := &fakeClock{now: time.Unix(0, 0)}
			inner := &fakeEngine{clock: clk, took: tt.took}
			e := Wrap(inner, Options{Caps: Caps{Depth: 99}, Think: tt.think, Now: clk.Now, Sleep: clk.Sleep})
			mv, err := e.SelectMove(context.Background(), tt.pos, tt.lim)
			require.NoError(t, err)
			require.Equal(t, "e2e4", mv.UCI)
			require.Equal(t, tt.want, clk.slept)
		})
	}
}

func TestThinkTimeRange(t *testing.T) {
	clk := &fakeClock{now: time.Unix(0, 0)}
	e := Wrap(&fakeEngine{clock: clk}, Options{Think: ThinkTime{Min: time.Second, Max: 3 * time.Second},
		Rand: rand.New(rand.NewPCG(7, 8)), Now: clk.Now, Sleep: clk.Sleep})
	lim := engine.Limits{WTime: time.Hour, BTime: time.Hour}
	for range 500 {
		_, err := e.SelectMove(context.Background(), engine.Position{}, lim)
		require.NoError(t, err)
	}
	lo, hi := clk.slept[0], clk.slept[0]
	for _, d := range clk.slept {
		require.GreaterOrEqual(t, d, time.Second)
		require.LessOrEqual(t, d, 3*time.Second)
		lo, hi = min(lo, d), max(hi, d)
	}
	// The draws spread over the range.
	require.Less(t, lo, 1200*time.Millisecond)
	require.Greater(t, hi, 2800*time.Millisecond)
}

func TestThinkTimeCancelledKeepsMove(t *testing.T) {
	clk := &fakeClock{now: time.Unix(0, 0), err: context.Canceled}
	e := Wrap(&fakeEngine{clock: clk}, Options{Think: ThinkTime{Min: time.Second, Max: time.Second}, Now: clk.Now, Sleep: clk.Sleep})
	mv, err := e.SelectMove(context.Background(), engine.Position{}, engine.Limits{WTime: time.Hour, BTime: time.Hour})
	require.NoError(t, err)
	require.Equal(t, "e2e4", mv.UCI)
}

func TestWrapNothingReturnsInner(t *testing.T) {
	inner := &fakeEngine{clock: &fakeClock{}}
	require.Same(t, engine.Engine(inner), Wrap(inner, Options{}))
	w := Wrap(inner, Options{Caps: Caps{Nodes: 5}})
	require.Same(t, engine.Engine(inner), w.(*Engine).Unwrap())
	require.Equal(t, engine.Variants(inner), engine.Variants(w))
	_, err := w.SelectMove(context.Background(), engine.Position{}, engine.Limits{})
	require.NoError(t, err)
	require.Equal(t, int64(5), inner.lim.Nodes)
}

func TestSleepHonoursContext(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	require.ErrorIs(t, sleep(ctx, time.Hour), context.Canceled)
	require.NoError(t, sleep(context.Background(), 0))
}
