package bots

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/outpostchess/outpost/bots/engine"
	"github.com/outpostchess/outpost/bots/enginepath"
	"github.com/outpostchess/outpost/bots/knobs"
	"github.com/outpostchess/outpost/bots/uci"
	"github.com/outpostchess/outpost/bots/uci/ucitest"
)

func TestMain(m *testing.M) { ucitest.Run(m) }

// fakeSpec returns a "uci:" spec for the fake engine in mode and the option
// that passes its environment.
func fakeSpec(t *testing.T, mode ucitest.Mode) (string, Option) {
	t.Helper()
	path, args, env := ucitest.Config(mode)
	// The handshake timeout is generous for a loaded machine (under -race
	// the fake engine, this test binary, starts in about 0.1 s).
	return "uci:" + path, WithUCIClient(uci.Config{Args: args, Env: env, HandshakeTimeout: time.Minute, ReadyTimeout: time.Minute,
		StopTimeout: 200 * time.Millisecond, QuitTimeout: 200 * time.Millisecond})
}

func playOne(t *testing.T, e engine.Engine, lim engine.Limits) string {
	t.Helper()
	pos := engine.Position{Moves: []string{"d2d4", "g8f6", "c2c4"}}
	m, err := e.SelectMove(context.Background(), pos, lim)
	if err != nil {
		t.Fatalf("%s: SelectMove: %v", e.Name(), err)
	}
	g, err := pos.Board()
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := g.FindUCI(m.UCI); !ok {
		t.Fatalf("%s played illegal %q", e.Name(), m.UCI)
	}
	return m.UCI
}

func TestNewBuiltins(t *testing.T) {
	ctx := context.Background()
	for _, spec := range []string{"easy", "medium", "hard,Hash=8", "knobs"} {
		t.Run(spec, func(t *testing.T) {
			e, err := New(ctx, spec, WithSeed(7), WithHashMB(8))
			if err != nil {
				t.Fatalf("New(%q): %v", spec, err)
			}
			defer e.Close()
			playOne(t, e, engine.Limits{Depth: 2, MoveTime: 200 * time.Millisecond})
			if !strings.HasPrefix(spec, e.Name()) {
				t.Errorf("name %q", e.Name())
			}
		})
	}
}

func TestNewEasySeeded(t *testing.T) {
	ctx := context.Background()
	var moves [2][]string
	for i := range moves {
		e, err := New(ctx, "easy", WithSeed(42))
		if err != nil {
			t.Fatal(err)
		}
		for range 5 {
			moves[i] = append(moves[i], playOne(t, e, engine.Limits{}))
		}
		e.Close()
	}
	if strings.Join(moves[0], " ") != strings.Join(moves[1], " ") {
		t.Errorf("same seed, different moves: %v vs %v", moves[0], moves[1])
	}
}

func TestNewKnobsWithConfig(t *testing.T) {
	k := knobs.Defaults()
	e, err := New(context.Background(), "knobs", WithKnobs(k), WithName("my-knobs"))
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	if e.Name() != "my-knobs" {
		t.Errorf("name %q", e.Name())
	}
}

func TestNewErrors(t *testing.T) {
	ctx := context.Background()
	for spec, want := range map[string]string{
		"grandmaster":         "unknown engine",
		"easy,Temperature=2":  "takes no options",
		"hard,Bogus=1":        "unknown option",
		"uci:/nonexistent/sf": "nonexistent",
	} {
		e, err := New(ctx, spec)
		if err == nil {
			e.Close()
			t.Errorf("New(%q) succeeded", spec)
			continue
		}
		if !strings.Contains(err.Error(), want) {
			t.Errorf("New(%q) = %v, want %q", spec, err, want)
		}
	}
	if _, err := New(ctx, "easy", WithHashMB(0)); err == nil {
		t.Error("WithHashMB(0) accepted")
	}
}

func TestNewUCIFake(t *testing.T) {
	spec, client := fakeSpec(t, ucitest.Normal)
	e, err := New(context.Background(), spec+",Style=Risky", client, WithHashMB(32), WithThreads(2), WithElo(1800))
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	if e.Name() != "Fake Engine 1.0" {
		t.Errorf("name %q", e.Name())
	}
	playOne(t, e, engine.Limits{Depth: 2})
}

func TestNewWithFallbackRescuesIllegalEngine(t *testing.T) {
	spec, client := fakeSpec(t, ucitest.Illegal)
	var events []FallbackEvent
	e, err := New(context.Background(), spec, client, WithFallback(), WithSeed(1))
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	f, ok := e.(*Fallback)
	if !ok {
		t.Fatalf("WithFallback gave %T", e)
	}
	f.onEvent = func(ev FallbackEvent) { events = append(events, ev) }
	playOne(t, e, engine.Limits{Depth: 1})
	if len(events) != 1 || events[0].Reason != ReasonIllegal || events[0].Secondary != "easy" {
		t.Errorf("events = %+v", events)
	}
}

func TestNewWithFallbackRescuesHungEngine(t *testing.T) {
	spec, client := fakeSpec(t, ucitest.Hang)
	e, err := New(context.Background(), spec, client, WithFallback())
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	start := time.Now()
	playOne(t, e, engine.Limits{MoveTime: 100 * time.Millisecond})
	if d := time.Since(start); d > time.Second {
		t.Errorf("fallback for a hung engine took %v", d)
	}
}

func TestNewStockfish(t *testing.T) {
	if _, err := enginepath.Stockfish15Command(); err != nil {
		t.Skip(err)
	}
	e, err := New(context.Background(), "stockfish", WithElo(1500), WithHashMB(16), WithThreads(1))
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	playOne(t, e, engine.Limits{MoveTime: 50 * time.Millisecond})
}

// TestNewStockfishNames: the engine names of package enginepath work as
// specs and as uci paths; a native build that is missing is an error naming
// how to build it.
func TestNewStockfishNames(t *testing.T) {
	t.Setenv(enginepath.EnvEnginesDir, t.TempDir()) // no native builds there
	for _, spec := range []string{"sf18", "uci:sf18", "uci:stockfish-18,Hash=16"} {
		_, err := New(context.Background(), spec)
		if err == nil || !errors.Is(err, enginepath.ErrNotInstalled) || !strings.Contains(err.Error(), enginepath.InstallSF18Command) {
			t.Errorf("%s: err = %v, want not installed naming %q", spec, err, enginepath.InstallSF18Command)
		}
	}
	if _, err := enginepath.Stockfish15Command(); err != nil {
		t.Skip(err)
	}
	e, err := New(context.Background(), "sf15", WithHashMB(16), WithThreads(1))
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	playOne(t, e, engine.Limits{MoveTime: 50 * time.Millisecond})
}
