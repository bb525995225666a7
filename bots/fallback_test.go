package bots

import (
	"bytes"
	"context"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/rs/zerolog"

	"github.com/outpostchess/outpost/bots/engine"
	"github.com/outpostchess/outpost/bots/timeman"
)

// scripted is a test engine whose SelectMove is a function.
type scripted struct {
	name   string
	fn     func(ctx context.Context) (engine.Move, error)
	mu     sync.Mutex
	closed bool
}

func (s *scripted) SelectMove(ctx context.Context, _ engine.Position, _ engine.Limits) (engine.Move, error) {
	return s.fn(ctx)
}
func (s *scripted) Name() string { return s.name }
func (s *scripted) Close() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.closed = true
	return nil
}

func answer(m string) func(context.Context) (engine.Move, error) {
	return func(context.Context) (engine.Move, error) { return engine.Move{UCI: m}, nil }
}

func TestFallback(t *testing.T) {
	start := engine.Position{Moves: []string{"e2e4", "e7e5"}}
	boom := errors.New("boom")
	// stuck blocks an engine that ignores its context until the test ends:
	// it never answers in time, however slow the machine (a fixed sleep
	// could end before a busy machine fires the fallback's deadline).
	stuck := make(chan struct{})
	t.Cleanup(func() { close(stuck) })
	tests := []struct {
		name      string
		primary   func(context.Context) (engine.Move, error)
		secondary func(context.Context) (engine.Move, error) // nil: no secondary
		lim       engine.Limits
		want      string         // the move played
		reason    FallbackReason // "" when the primary's move is used
		by        string
		// patient: the fallback never gives the primary up (an injected
		// alarm that never fires), so the outcome cannot depend on how
		// fast the machine delivers the primary's answer
		patient bool
	}{
		{name: "good primary", primary: answer("g1f3"), secondary: answer("d2d4"), lim: engine.Limits{MoveTime: time.Second},
			want: "g1f3"},
		{name: "error", primary: func(context.Context) (engine.Move, error) { return engine.Move{}, boom },
			secondary: answer("d2d4"), lim: engine.Limits{Depth: 3}, want: "d2d4", reason: ReasonError, by: "second"},
		{name: "illegal", primary: answer("e1e3"), secondary: answer("d2d4"), lim: engine.Limits{Depth: 3},
			want: "d2d4", reason: ReasonIllegal, by: "second"},
		{name: "garbage move", primary: answer("(none)"), secondary: answer("d2d4"), lim: engine.Limits{Depth: 3},
			want: "d2d4", reason: ReasonIllegal, by: "second"},
		{name: "upper-case move", primary: answer("G1F3"), secondary: answer("d2d4"), lim: engine.Limits{Depth: 3},
			want: "d2d4", reason: ReasonIllegal, by: "second"},
		{name: "move with a stray promotion", primary: answer("e2e4q"), secondary: answer("d2d4"), lim: engine.Limits{Depth: 3},
			want: "d2d4", reason: ReasonIllegal, by: "second"},
		{name: "timeout ignoring ctx", primary: func(context.Context) (engine.Move, error) {
			<-stuck
			return engine.Move{UCI: "g1f3"}, nil
		}, secondary: answer("d2d4"), lim: engine.Limits{MoveTime: 100 * time.Millisecond}, want: "d2d4", reason: ReasonTimeout, by: "second"},
		{name: "clock timeout", primary: func(context.Context) (engine.Move, error) {
			<-stuck
			return engine.Move{UCI: "g1f3"}, nil
		}, secondary: answer("d2d4"), lim: engine.Limits{WTime: 2 * time.Second, BTime: time.Second}, want: "d2d4", reason: ReasonTimeout, by: "second"},
		{name: "honours ctx with best so far", primary: func(ctx context.Context) (engine.Move, error) {
			<-ctx.Done()
			return engine.Move{UCI: "b1c3"}, nil
		}, secondary: answer("d2d4"), lim: engine.Limits{MoveTime: 100 * time.Millisecond}, want: "b1c3", patient: true},
		{name: "secondary also illegal", primary: answer("e1e3"), secondary: answer("a1a8"), lim: engine.Limits{Depth: 1},
			want: "a2a3", reason: ReasonIllegal, by: "legal-move"},
		{name: "no secondary", primary: func(context.Context) (engine.Move, error) { return engine.Move{}, boom },
			lim: engine.Limits{Depth: 1}, want: "a2a3", reason: ReasonError, by: "legal-move"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var events []FallbackEvent
			var sec engine.Engine
			if tc.secondary != nil {
				sec = &scripted{name: "second", fn: tc.secondary}
			}
			opts := []FallbackOption{WithFallbackHook(func(ev FallbackEvent) { events = append(events, ev) })}
			if tc.patient {
				opts = append(opts, WithFallbackAlarm(func(time.Duration) (<-chan time.Time, func()) { return nil, func() {} }))
			}
			f := NewFallback(&scripted{name: "first", fn: tc.primary}, sec, opts...)
			begin := time.Now()
			m, err := f.SelectMove(context.Background(), start, tc.lim)
			if err != nil {
				t.Fatal(err)
			}
			if m.UCI != tc.want {
				t.Errorf("move %q, want %q", m.UCI, tc.want)
			}
			if tc.reason == "" {
				if len(events) != 0 {
					t.Errorf("unexpected fallback %+v", events)
				}
				return
			}
			if len(events) != 1 || events[0].Reason != tc.reason || events[0].Secondary != tc.by || events[0].Primary != "first" {
				t.Fatalf("events = %+v", events)
			}
			if tc.reason == ReasonTimeout {
				budget, _ := timeman.SafetyCap(tc.lim, true)
				if d := time.Since(begin); d > budget+time.Second {
					t.Errorf("timeout fallback took %v (budget %v)", d, budget)
				}
			}
		})
	}
}

func TestFallbackBadPositions(t *testing.T) {
	f := NewFallback(&scripted{name: "p", fn: answer("e2e4")}, nil)
	if _, err := f.SelectMove(context.Background(), engine.Position{Moves: []string{"e2e5"}}, engine.Limits{}); err == nil {
		t.Error("illegal history accepted")
	}
	if _, err := f.SelectMove(context.Background(), engine.Position{StartFEN: "not a fen"}, engine.Limits{}); err == nil {
		t.Error("bad FEN accepted")
	}
	mated := engine.Position{Moves: []string{"f2f3", "e7e5", "g2g4", "d8h4"}}
	if _, err := f.SelectMove(context.Background(), mated, engine.Limits{}); !errors.Is(err, ErrNoLegalMove) {
		t.Errorf("checkmated side: %v, want ErrNoLegalMove", err)
	}
}

func TestFallbackCallerCancels(t *testing.T) {
	stuck := make(chan struct{}) // an engine that ignores its context until the test ends
	t.Cleanup(func() { close(stuck) })
	f := NewFallback(&scripted{name: "p", fn: func(context.Context) (engine.Move, error) {
		<-stuck
		return engine.Move{}, nil
	}}, nil)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Millisecond)
	defer cancel()
	m, err := f.SelectMove(ctx, engine.Position{}, engine.Limits{Infinite: true})
	if err != nil || m.UCI == "" {
		t.Errorf("after caller cancel: %+v, %v", m, err)
	}
}

func TestFallbackDelegates(t *testing.T) {
	p := &scripted{name: "p", fn: answer("e2e4")}
	s := &scripted{name: "s", fn: answer("e2e4")}
	f := NewFallback(p, s)
	if f.Name() != "p" || f.Info().Name != "p" || f.Primary() != p {
		t.Errorf("delegation: %q %+v", f.Name(), f.Info())
	}
	if err := f.Configure(map[string]string{"x": "1"}); err == nil {
		t.Error("Configure on a non-configurable primary succeeded")
	}
	if err := f.NewGame(context.Background()); err != nil {
		t.Error(err)
	}
	if err := f.Close(); err != nil || !p.closed || !s.closed {
		t.Errorf("Close: %v, primary closed %v, secondary closed %v", err, p.closed, s.closed)
	}
}

func TestSafetyCapAndGrace(t *testing.T) {
	ms := time.Millisecond
	tests := []struct {
		name  string
		lim   engine.Limits
		white bool
		want  time.Duration
		ok    bool
	}{
		{"nothing", engine.Limits{}, true, 0, false},
		{"depth only", engine.Limits{Depth: 8}, true, 0, false},
		{"infinite", engine.Limits{Infinite: true, MoveTime: time.Second}, true, 0, false},
		{"movetime", engine.Limits{MoveTime: 300 * ms}, true, 300 * ms, true},
		{"clock white", engine.Limits{WTime: 60 * time.Second, BTime: time.Second, WInc: time.Second}, true, 6750 * ms, true},
		{"clock black", engine.Limits{WTime: 60 * time.Second, BTime: 10 * time.Second}, false, time.Second, true},
		{"movestogo 1", engine.Limits{WTime: 10 * time.Second, MovesToGo: 1}, true, 5 * time.Second, true},
		{"movestogo 40", engine.Limits{WTime: 10 * time.Second, MovesToGo: 40}, true, time.Second, true},
		{"increment bigger than clock", engine.Limits{WTime: time.Second, WInc: 10 * time.Second, MoveOverhead: 100 * ms}, true, 850 * ms, true},
		{"tiny clock", engine.Limits{WTime: 5 * ms}, true, 10 * ms, true},
		{"movetime and clock", engine.Limits{MoveTime: 5 * time.Second, WTime: 10 * time.Second}, true, time.Second, true},
		{"plan deadline", engine.Limits{WTime: 60 * time.Second, Deadline: 300 * ms}, true, 300 * ms, true},
		{"depth under a plan deadline", engine.Limits{Depth: 20, Deadline: 300 * ms}, true, 300 * ms, true},
		{"rapid first move", engine.Limits{WTime: 15 * time.Minute, BTime: 15 * time.Minute, FirstMoveTotal: 30 * time.Second}, true, 10 * time.Second, true},
	}
	for _, tc := range tests {
		got, ok := timeman.SafetyCap(tc.lim, tc.white)
		if got != tc.want || ok != tc.ok {
			t.Errorf("%s: SafetyCap = %v, %v; want %v, %v", tc.name, got, ok, tc.want, tc.ok)
		}
		if ok {
			g := grace(tc.lim, tc.white, got)
			own := tc.lim.WTime
			if !tc.white {
				own = tc.lim.BTime
			}
			if g <= 0 || g > maxGrace || (own > 20*ms && got+2*g > own) {
				t.Errorf("%s: grace %v with budget %v overruns clock %v", tc.name, g, got, own)
			}
		}
	}
}

// BenchmarkFallbackOverhead measures what the Fallback adds to a move
// (setting the position up and checking the move; the primary answers at
// once with a move computed beforehand) in a 120-ply game: "game" asks for
// the game's positions two plies apart, as the daemon does; "cold" asks a
// new Fallback for the position at ply 120 (a restarted daemon).
func BenchmarkFallbackOverhead(b *testing.B) {
	pos := engine.Position{}
	p, _ := pos.Board()
	var replies []string
	for i := 0; i < 120; i++ {
		ms := LegalMoves(p)
		replies = append(replies, ms[0])
		m := ms[(i*7)%len(ms)]
		mv, ok := p.FindUCI(m)
		next := p.Clone()
		next.Make(mv)
		if !ok || !next.HasLegalMoves() {
			break
		}
		p = next
		pos.Moves = append(pos.Moves, m)
	}
	b.Run("game", func(b *testing.B) {
		f := NewFallback(&scripted{name: "p", fn: func(context.Context) (engine.Move, error) { return engine.Move{}, nil }}, nil)
		i := 0
		for b.Loop() {
			ply := (2 * i) % len(pos.Moves)
			f.primary = &scripted{name: "p", fn: answer(replies[ply])}
			if _, err := f.SelectMove(context.Background(), engine.Position{Moves: pos.Moves[:ply]}, engine.Limits{Depth: 1}); err != nil {
				b.Fatal(err)
			}
			i++
		}
	})
	b.Run("cold", func(b *testing.B) {
		reply := LegalMoves(p)[0]
		for b.Loop() {
			f := NewFallback(&scripted{name: "p", fn: answer(reply)}, nil)
			if _, err := f.SelectMove(context.Background(), pos, engine.Limits{Depth: 1}); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// TestFallbackPositionCache feeds the position cache what a game, a
// takeback, another game and broken histories would, and checks each board
// against one set up from scratch.
func TestFallbackPositionCache(t *testing.T) {
	var c positionCache
	kiwipete := "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"
	steps := []engine.Position{
		{},
		{Moves: []string{"e2e4", "e7e5"}},
		{Moves: []string{"e2e4", "e7e5", "g1f3", "b8c6"}},
		{Moves: []string{"e2e4", "e7e5", "g1f3", "b8c6", "f1c4", "c6c6"}}, // illegal last move
		{Moves: []string{"e2e4", "e7e5", "g1f3", "b8c6", "f1c4", "g8f6"}},
		{Moves: []string{"e2e4", "e7e5", "g1f3"}}, // takeback
		{Moves: []string{"e2e4", "e7e5", "g1f3", "b8c6", "f1c4", "g8f6", "e1g1"}},
		{StartFEN: kiwipete, Moves: []string{"e1g1"}}, // another game, same moves
		{StartFEN: kiwipete, Moves: []string{"e1g1", "e8c8"}},
		{StartFEN: "not a fen"},
		{Moves: []string{"d2d4"}},
		{Moves: []string{"d2d4", "d7d5", "x"}},
		{Moves: []string{"d2d4", "d7d5", "c2c4", "d5c4"}},
	}
	for i, pos := range steps {
		got, err := c.board(pos)
		want, wantErr := pos.Board()
		if (err != nil) != (wantErr != nil) {
			t.Fatalf("step %d: error %v, from scratch %v", i, err, wantErr)
		}
		if err != nil {
			if err.Error() != wantErr.Error() {
				t.Errorf("step %d: error %q, from scratch %q", i, err, wantErr)
			}
			continue
		}
		if got.FEN() != want.FEN() || got.Hash() != want.Hash() || got.Ply() != want.Ply() || got.RepetitionCount() != want.RepetitionCount() {
			t.Errorf("step %d: %s (ply %d), from scratch %s (ply %d)", i, got.FEN(), got.Ply(), want.FEN(), want.Ply())
		}
		// The caller owns its board: playing on it leaves the cache alone.
		if ms := got.LegalMoves(); len(ms) > 0 {
			got.Make(ms[0])
		}
	}
}

// alarmAfter is an injected alarm that fires once ready is closed: the
// fallback gives the primary up then, whatever the machine's speed.
func alarmAfter(ready <-chan struct{}) func(time.Duration) (<-chan time.Time, func()) {
	return func(time.Duration) (<-chan time.Time, func()) {
		c := make(chan time.Time, 1)
		go func() {
			<-ready
			c <- time.Now()
		}()
		return c, func() {}
	}
}

// TestFallbackPlaysBestSoFarAtDeadline: a primary still searching when the
// fallback gives it up has its best move so far played, not the
// secondary's; only a primary that reported no (legal) move falls back.
func TestFallbackPlaysBestSoFarAtDeadline(t *testing.T) {
	stuck := make(chan struct{}) // the search is not scheduled again before the test ends
	t.Cleanup(func() { close(stuck) })
	tests := []struct {
		name     string
		reported []string // best moves so far the primary reports, in order
		want     string
		fellBack bool
	}{
		{name: "one iteration", reported: []string{"b1c3"}, want: "b1c3"},
		{name: "the last iteration", reported: []string{"b1c3", "g1f3"}, want: "g1f3"},
		{name: "nothing reported", want: "d2d4", fellBack: true},
		{name: "an illegal report", reported: []string{"e1e3"}, want: "d2d4", fellBack: true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var events []FallbackEvent
			reported := make(chan struct{})
			primary := &scripted{name: "first", fn: func(ctx context.Context) (engine.Move, error) {
				for _, m := range tc.reported {
					engine.ReportBestSoFar(ctx, engine.Move{UCI: m, Depth: 3})
				}
				close(reported) // the deadline passes now
				<-stuck
				return engine.Move{}, ctx.Err()
			}}
			f := NewFallback(primary, &scripted{name: "second", fn: answer("d2d4")},
				WithFallbackAlarm(alarmAfter(reported)), WithFallbackHook(func(ev FallbackEvent) { events = append(events, ev) }))
			lim := engine.Limits{Deadline: 10 * time.Second, WTime: time.Minute, BTime: time.Minute}
			m, err := f.SelectMove(context.Background(), engine.Position{Moves: []string{"e2e4", "e7e5"}}, lim)
			if err != nil {
				t.Fatal(err)
			}
			if m.UCI != tc.want {
				t.Errorf("move %q, want %q", m.UCI, tc.want)
			}
			if got := len(events) == 1 && events[0].Reason == ReasonTimeout; got != tc.fellBack || len(events) > 1 {
				t.Errorf("events %+v, want a timeout fallback: %v", events, tc.fellBack)
			}
		})
	}
}

// TestFallbackCallerGaveUpIsNoEngineFailure: when the caller's context ends
// during the search (the game ended), the answer is not logged as an
// engine failure (no warn line, no fallback event): nobody plays it.
func TestFallbackCallerGaveUpIsNoEngineFailure(t *testing.T) {
	stuck := make(chan struct{})
	t.Cleanup(func() { close(stuck) })
	for _, reported := range []string{"", "b1c3"} {
		var logs bytes.Buffer
		var events []FallbackEvent
		primary := &scripted{name: "first", fn: func(ctx context.Context) (engine.Move, error) {
			if reported != "" {
				engine.ReportBestSoFar(ctx, engine.Move{UCI: reported, Depth: 2})
			}
			<-stuck
			return engine.Move{}, ctx.Err()
		}}
		f := NewFallback(primary, &scripted{name: "second", fn: answer("d2d4")},
			WithFallbackLogger(zerolog.New(&logs)), WithFallbackHook(func(ev FallbackEvent) { events = append(events, ev) }),
			WithFallbackAlarm(func(time.Duration) (<-chan time.Time, func()) { return nil, func() {} }))
		ctx, cancel := context.WithCancel(context.Background())
		cancel() // the game is over
		m, err := f.SelectMove(ctx, engine.Position{Moves: []string{"e2e4", "e7e5"}}, engine.Limits{Deadline: time.Second, WTime: time.Minute, BTime: time.Minute})
		if err != nil || m.UCI == "" {
			t.Errorf("reported %q: %+v, %v", reported, m, err)
		}
		if strings.Contains(logs.String(), `"level":"warn"`) || strings.Contains(logs.String(), "engine failed") {
			t.Errorf("reported %q: logged as an engine failure:\n%s", reported, logs.String())
		}
		if len(events) != 0 {
			t.Errorf("reported %q: fallback events %+v", reported, events)
		}
	}
}

// TestBudgetWithin: the budget's worst case under the Fallback (budget plus
// twice its grace, for a move without a clock) fits within the total it is
// given, and one millisecond more would not: it is the largest such budget.
func TestBudgetWithin(t *testing.T) {
	worst := func(b time.Duration) time.Duration { return b + 2*grace(engine.Limits{}, true, b) }
	for _, total := range []time.Duration{
		101 * time.Millisecond, 200 * time.Millisecond, 350 * time.Millisecond,
		500 * time.Millisecond, 800 * time.Millisecond, time.Second, 3500 * time.Millisecond,
		9800 * time.Millisecond, time.Hour,
	} {
		b := BudgetWithin(total)
		if w := worst(b); w > total && total > 2*minGrace {
			t.Errorf("total %v: budget %v has worst case %v", total, b, w)
		}
		if total > 2*minGrace+time.Millisecond {
			if w := worst(b + time.Millisecond); w <= total {
				t.Errorf("total %v: budget %v is not the largest (%v + 1 ms has worst case %v)", total, b, b, w)
			}
		}
	}
	for _, total := range []time.Duration{0, 10 * time.Millisecond, 2 * minGrace} {
		if got := BudgetWithin(total); got != time.Millisecond {
			t.Errorf("total %v, within two graces: budget %v, want the 1 ms floor", total, got)
		}
	}
}
