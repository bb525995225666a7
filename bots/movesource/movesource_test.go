package movesource

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/outpostchess/outpost/bots/engine"
)

type fakeSource struct {
	name  string
	move  string
	err   error
	block bool // wait for the context to end
	asked int
}

func (f *fakeSource) Name() string { return f.name }

func (f *fakeSource) Move(ctx context.Context, _ engine.Position, _ engine.Limits) (engine.Move, error) {
	f.asked++
	if f.block {
		<-ctx.Done()
		return engine.Move{}, ctx.Err()
	}
	if f.err != nil {
		return engine.Move{}, f.err
	}
	return engine.Move{UCI: f.move}, nil
}

type fakeEngine struct {
	lim    engine.Limits
	called bool
}

func (f *fakeEngine) SelectMove(_ context.Context, _ engine.Position, lim engine.Limits) (engine.Move, error) {
	f.called, f.lim = true, lim
	return engine.Move{UCI: "e2e4"}, nil
}
func (f *fakeEngine) Name() string { return "fake" }
func (f *fakeEngine) Close() error { return nil }

func TestWrapOrder(t *testing.T) {
	tests := []struct {
		name       string
		sources    []*fakeSource
		wantMove   string
		wantSource string
		wantEngine bool
	}{
		{"no sources", nil, "e2e4", "", true},
		{"first source answers", []*fakeSource{{name: "book", move: "d2d4"}, {name: "cloud", move: "c2c4"}}, "d2d4", "book", false},
		{"no move then move", []*fakeSource{{name: "book", err: ErrNoMove}, {name: "cloud", move: "c2c4"}}, "c2c4", "cloud", false},
		{"failure is skipped", []*fakeSource{{name: "cloud", err: errors.New("502")}, {name: "syzygy", move: "g1f3"}}, "g1f3", "syzygy", false},
		{"slow source is cut by its bound", []*fakeSource{{name: "explorer", block: true}, {name: "book", move: "b1c3"}}, "b1c3", "book", false},
		{"all silent", []*fakeSource{{name: "book", err: ErrNoMove}, {name: "explorer", block: true}}, "e2e4", "", true},
		{"empty move is not a move", []*fakeSource{{name: "book"}}, "e2e4", "", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			inner := &fakeEngine{}
			var bounded []Bounded
			for _, s := range tt.sources {
				bounded = append(bounded, Bounded{Source: s, Timeout: time.Millisecond})
			}
			var events []Event
			e := Wrap(inner, bounded, func(ev Event) { events = append(events, ev) })
			mv, err := e.SelectMove(context.Background(), engine.Position{}, engine.Limits{})
			require.NoError(t, err)
			require.Equal(t, tt.wantMove, mv.UCI)
			require.Equal(t, tt.wantSource, mv.Source)
			require.Equal(t, tt.wantEngine, inner.called)
			for i, ev := range events {
				require.Equal(t, tt.sources[i].name, ev.Source)
			}
		})
	}
}

func TestWrapShortensDeadline(t *testing.T) {
	inner := &fakeEngine{}
	slow := &fakeSource{name: "explorer", block: true}
	e := Wrap(inner, []Bounded{{Source: slow, Timeout: time.Hour}}, nil)
	lim := engine.Limits{Deadline: 40 * time.Millisecond}
	_, err := e.SelectMove(context.Background(), engine.Position{}, lim)
	require.NoError(t, err)
	require.True(t, inner.called)
	// The source was cut at a quarter of the deadline, and its time was
	// taken off what the engine got.
	require.Less(t, inner.lim.Deadline, lim.Deadline)
	require.Positive(t, inner.lim.Deadline)
}

func TestWrapCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	e := Wrap(&fakeEngine{}, []Bounded{{Source: &fakeSource{name: "book", block: true}}}, nil)
	_, err := e.SelectMove(ctx, engine.Position{}, engine.Limits{})
	require.ErrorIs(t, err, context.Canceled)
}
