package postgame

import (
	"context"
	"errors"
	"sync"
	"testing"

	"github.com/rs/zerolog"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/outpostchess/outpost/bots/uci"
)

// testPhases is a Phases the test drives: whether a game is on the clock,
// and how many engines may search while one is.
type testPhases struct {
	mu      sync.Mutex
	on      bool
	inGame  int
	changed chan struct{}
}

func newTestPhases(on bool, inGame int) *testPhases {
	return &testPhases{on: on, inGame: inGame, changed: make(chan struct{})}
}

func (p *testPhases) Allowed() (int, <-chan struct{}) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if !p.on {
		return 1 << 20, p.changed
	}
	return p.inGame, p.changed
}

func (p *testPhases) OnClock() (bool, <-chan struct{}) {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.on, p.changed
}

func (p *testPhases) set(on bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.on = on
	close(p.changed)
	p.changed = make(chan struct{})
}

// search is one search of a fakeEngine: the niceness of the engine that
// ran it, and its end (an answer, or stopped by its context).
type search struct {
	nice    int
	stopped bool
}

// fakeEngines start engines that report each search as it starts
// (searching) and answer when the test sends on answer, or stop when
// their context ends.
type fakeEngines struct {
	mu        sync.Mutex
	starts    []int // the niceness of each engine started
	searches  []search
	searching chan int      // the niceness of a search that started
	stops     chan struct{} // a search was stopped
	answer    chan struct{}
	closed    int
}

func newFakeEngines() *fakeEngines {
	return &fakeEngines{searching: make(chan int, 16), stops: make(chan struct{}, 16), answer: make(chan struct{})}
}

func (f *fakeEngines) start(_ context.Context, nice int) (searcher, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.starts = append(f.starts, nice)
	return &fakeEngine{f: f, nice: nice}, nil
}

type fakeEngine struct {
	f    *fakeEngines
	nice int
}

func (e *fakeEngine) Analyse(ctx context.Context, _ uci.Position, _ uci.Limits) (*uci.Result, error) {
	e.f.searching <- e.nice
	select {
	case <-e.f.answer:
		e.f.record(search{nice: e.nice})
		return &uci.Result{BestMove: "e2e4"}, nil
	case <-ctx.Done():
		e.f.record(search{nice: e.nice, stopped: true})
		e.f.stops <- struct{}{}
		return &uci.Result{Stopped: true}, nil
	}
}

func (f *fakeEngines) record(s search) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.searches = append(f.searches, s)
}

func (e *fakeEngine) Restart(context.Context) error { return nil }
func (e *fakeEngine) Close() error {
	e.f.mu.Lock()
	defer e.f.mu.Unlock()
	e.f.closed++
	return nil
}

// TestPhasedEngine: a summary engine searches at normal priority while no
// game is on the clock; a game that starts during a search stops it at
// once, and the engine, restarted at the lowest priority, searches again
// (or waits for the game's end when no engine may search in a game); after
// the game the next search runs at normal priority again. Events only: the
// test starts and ends games between a search's start and its answer.
func TestPhasedEngine(t *testing.T) {
	type step int
	const (
		gameStarts   step = iota // a game comes on the clock during the search
		gameEnds                 // the game ends during the search
		gameEndsHeld             // the game ends while the search waits for the gate
		endBefore                // the game ends before the search starts
		answer                   // the running search answers
	)
	for _, tc := range []struct {
		name   string
		onAt   bool // a game on the clock when the engine is built
		inGame int
		// searches run one after the other; each lists what happens
		// around it
		runs         [][]step
		wantStarts   []int
		wantSearches []search
	}{
		{"idle: normal priority", false, 1, [][]step{{answer}},
			[]int{idleNice}, []search{{idleNice, false}}},
		{"a game starts: stopped, searched again niced", false, 1, [][]step{{gameStarts, answer}},
			[]int{idleNice, inGameNice}, []search{{idleNice, true}, {inGameNice, false}}},
		{"a game starts, none may search: held until it ends", false, 0, [][]step{{gameStarts, gameEndsHeld, answer}},
			[]int{idleNice}, []search{{idleNice, true}, {idleNice, false}}},
		{"the game ends: stopped, searched again at normal priority", true, 1, [][]step{{gameEnds, answer}},
			[]int{inGameNice, idleNice}, []search{{inGameNice, true}, {idleNice, false}}},
		{"built in a game, next search after it at normal priority", true, 1, [][]step{{answer}, {endBefore, answer}},
			[]int{inGameNice, idleNice}, []search{{inGameNice, false}, {idleNice, false}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ctx := context.Background()
			ph := newTestPhases(tc.onAt, tc.inGame)
			f := newFakeEngines()
			e, err := newPhasedEngine(ctx, 0, ph, f.start, zerolog.Nop())
			require.NoError(t, err)
			for _, run := range tc.runs {
				if run[0] == endBefore {
					ph.set(false)
					run = run[1:]
				}
				done := make(chan error, 1)
				go func() {
					res, err := e.Analyse(ctx, uci.Position{}, uci.Limits{Depth: 1})
					if err == nil && res.BestMove != "e2e4" {
						err = errors.New("not the engine's answer")
					}
					done <- err
				}()
				<-f.searching
				for _, s := range run {
					switch s {
					case gameStarts, gameEnds:
						ph.set(s == gameStarts)
						<-f.stops // seen before the phase changes again
						if s == gameEnds || tc.inGame > 0 {
							<-f.searching // searched again
						}
					case gameEndsHeld:
						ph.set(false)
						<-f.searching // searched again at normal priority
					case answer:
						f.answer <- struct{}{}
					}
				}
				require.NoError(t, <-done)
			}
			require.NoError(t, e.Close())
			assert.Equal(t, tc.wantStarts, f.starts, "the niceness of each engine started")
			assert.Equal(t, tc.wantSearches, f.searches)
			assert.Equal(t, len(f.starts), f.closed, "every engine started is closed")
		})
	}
}

// TestPhasedEngineCancelled: the caller's context ending while the engine
// waits for the gate returns its error (no search, no engine started
// beyond the first).
func TestPhasedEngineCancelled(t *testing.T) {
	ph := newTestPhases(true, 0)
	f := newFakeEngines()
	e, err := newPhasedEngine(context.Background(), 0, ph, f.start, zerolog.Nop())
	require.NoError(t, err)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err = e.Analyse(ctx, uci.Position{}, uci.Limits{Depth: 1})
	require.ErrorIs(t, err, context.Canceled)
	require.NoError(t, e.Close())
	assert.Equal(t, []int{inGameNice}, f.starts)
	assert.Empty(t, f.searches)
}
