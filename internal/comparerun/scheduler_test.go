package comparerun

import (
	"context"
	"errors"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"go.uber.org/goleak"

	"github.com/outpostchess/outpost/analysis"
	"github.com/outpostchess/outpost/internal/testkit"
)

type runEvent struct {
	user string
	rep  *RunReport
	err  error
}

func schedConfig(w *world, st *memRunStore, o *oracle, interval time.Duration, events chan<- runEvent) SchedulerConfig {
	return SchedulerConfig{
		Compare: Schedule{Enabled: true, Users: []string{"alice"}, Interval: interval, MaxGames: 5, Since: 24 * time.Hour,
			Budget: analysis.Presets["quick"], Engine: []string{"fake-engine", "--flag"}, HashMB: 16},
		Client: w.public, Store: st, Factory: o.factory(), RetryAfter: interval,
		OnRun: func(user string, rep *RunReport, err error) { events <- runEvent{user, rep, err} },
	}
}

func nextEvent(t *testing.T, events <-chan runEvent) runEvent {
	t.Helper()
	select {
	case ev := <-events:
		return ev
	case <-time.After(10 * time.Second):
		t.Fatal("no scheduled run")
	}
	return runEvent{}
}

// startScheduler runs s in the background; the returned stop cancels it,
// calls afterCancel, and checks that Run returned nil.
func startScheduler(t *testing.T, s *Scheduler, afterCancel ...func()) (stop func()) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- s.Run(ctx) }()
	return func() {
		cancel()
		for _, f := range afterCancel {
			f()
		}
		select {
		case err := <-done:
			if err != nil {
				t.Errorf("Run: %v", err)
			}
		case <-time.After(5 * time.Second):
			t.Fatal("Run did not return after cancel")
		}
	}
}

// TestSchedulerIntervalAndRestart runs two scheduled comparisons one
// interval apart, then checks a new scheduler on the same store waits only
// the rest of the interval.
func TestSchedulerIntervalAndRestart(t *testing.T) {
	w := newWorld(t)
	w.playSynthetic(t, syntheticGames[:2])
	o := newOracle(t, fetchAll(t, w), 1)
	st := openStore(t)
	const interval = 400 * time.Millisecond
	events := make(chan runEvent, 4)
	// The first scheduler holds after its second run until it is stopped:
	// a third run, due at once when a run takes longer than the interval
	// on a loaded machine, would otherwise race with the stop and leave an
	// interrupted run (and its event) for the second scheduler.
	cfg := schedConfig(w, st, o, interval, events)
	held := make(chan struct{})
	ran := 0
	cfg.OnRun = func(user string, rep *RunReport, err error) {
		events <- runEvent{user, rep, err}
		if ran++; ran == 2 {
			<-held
		}
	}
	s, err := NewScheduler(cfg)
	if err != nil {
		t.Fatal(err)
	}
	// low priority: one engine, one thread, under nice when it exists
	pc := s.comparer.Pool
	if pc.Workers != 1 || pc.Threads != 1 || pc.HashMB != 16 || s.comparer.EngineLabel != "fake-engine --flag" {
		t.Fatalf("pool %+v label %q", pc, s.comparer.EngineLabel)
	}
	if _, err := exec.LookPath("nice"); err == nil {
		if filepath.Base(pc.Command[0]) != "nice" || pc.Command[2] != NiceLevel || pc.Command[3] != "fake-engine" {
			t.Fatalf("command %q not under nice", pc.Command)
		}
	}
	before := goleak.IgnoreCurrent()
	stop := startScheduler(t, s, func() { close(held) })
	first := nextEvent(t, events)
	second := nextEvent(t, events)
	stop()
	// nothing left behind but idle HTTP connections
	testkit.NoLeaks(t, before, goleak.IgnoreTopFunction("net/http.(*persistConn).readLoop"),
		goleak.IgnoreTopFunction("net/http.(*persistConn).writeLoop"), goleak.IgnoreTopFunction("net/http.(*conn).serve"),
		goleak.IgnoreAnyFunction("internal/poll.runtime_pollWait"))
	for _, ev := range []runEvent{first, second} {
		if ev.err != nil || ev.user != "alice" || ev.rep.Headline.Games != 2 || *ev.rep.Headline.F1 != 1 {
			t.Fatalf("run %+v", ev)
		}
	}
	if gap := second.rep.StartedAt.Sub(first.rep.StartedAt); gap < interval-time.Millisecond {
		t.Fatalf("runs %v apart, want at least %v", gap, interval)
	}
	if len(second.rep.Trend) != 2 {
		t.Fatalf("trend %+v", second.rep.Trend)
	}

	// a new scheduler on the reopened store: due one interval after the
	// last run's start, not at once
	st2 := st
	s2, err := NewScheduler(schedConfig(w, st2, o, interval, events))
	if err != nil {
		t.Fatal(err)
	}
	due, err := s2.Due(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	runs, _ := st2.Runs(context.Background(), "alice", 1)
	if want := runs[0].StartedAt.Add(interval); !due["alice"].Equal(want) {
		t.Fatalf("due %v, want %v", due["alice"], want)
	}
	stop = startScheduler(t, s2)
	third := nextEvent(t, events)
	stop()
	if third.err != nil || third.rep.StartedAt.Before(due["alice"].Add(-time.Millisecond)) || third.rep.Resumed {
		t.Fatalf("third run %+v started %v, due %v", third.err, third.rep.StartedAt, due["alice"])
	}
}

// TestSchedulerResumesInterruptedRun interrupts a scheduled run (as a
// restart would) and checks the next scheduler resumes it at once.
func TestSchedulerResumesInterruptedRun(t *testing.T) {
	w := newWorld(t)
	w.playSynthetic(t, syntheticGames)
	o := newOracle(t, fetchAll(t, w), 1)
	st := openStore(t)
	events := make(chan runEvent, 4)
	cfg := schedConfig(w, st, o, time.Hour, events)
	s, err := NewScheduler(cfg)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	o.hook = func(n int) {
		if n == 5 { // into the second game
			cancel()
		}
	}
	if err := s.Run(ctx); err != nil {
		t.Fatalf("Run after cancel: %v", err)
	}
	ev := nextEvent(t, events)
	if !errors.Is(ev.err, ErrInterrupted) {
		t.Fatalf("interrupted run: %+v", ev)
	}
	o.hook = nil
	s2, err := NewScheduler(cfg)
	if err != nil {
		t.Fatal(err)
	}
	due, _ := s2.Due(context.Background())
	if !due["alice"].IsZero() {
		t.Fatalf("an interrupted run is due at once, got %v", due["alice"])
	}
	stop := startScheduler(t, s2)
	ev = nextEvent(t, events)
	stop()
	if ev.err != nil || !ev.rep.Resumed || ev.rep.Reused != 1 || ev.rep.Analysed != 2 {
		t.Fatalf("resumed run %+v", ev)
	}
}

func TestSchedulerDisabledAndChecks(t *testing.T) {
	w := newWorld(t)
	st := openStore(t)
	o := &oracle{pos: map[string]oracleAnswer{}}
	cfg := schedConfig(w, st, o, time.Hour, make(chan runEvent, 1))
	cfg.Compare.Enabled = false
	s, err := NewScheduler(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Run(context.Background()); err != nil {
		t.Fatalf("disabled Run: %v", err)
	}
	for name, mut := range map[string]func(*SchedulerConfig){
		"no store":  func(c *SchedulerConfig) { c.Store = nil },
		"no client": func(c *SchedulerConfig) { c.Client = nil },
		"no users":  func(c *SchedulerConfig) { c.Compare.Users = nil },
		"interval":  func(c *SchedulerConfig) { c.Compare.Interval = 0 },
	} {
		c := schedConfig(w, st, o, time.Hour, nil)
		mut(&c)
		if _, err := NewScheduler(c); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
}
