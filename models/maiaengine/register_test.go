package maiaengine

import (
	"context"
	"testing"

	"github.com/outpostchess/outpost/bots"
	"github.com/outpostchess/outpost/bots/engine"
	"github.com/outpostchess/outpost/models/modeltest"
)

func TestNewMaia(t *testing.T) {
	pred := modeltest.Predictor(t, 1500)
	e, err := bots.New(context.Background(), "maia-1500", Register(pred), bots.WithSeed(3))
	if err != nil {
		t.Fatal(err)
	}
	if e.Name() != "maia-1500" {
		t.Errorf("name %q", e.Name())
	}
	playOne(t, e, engine.Limits{})
	if err := e.Close(); err != nil {
		t.Fatal(err)
	}
	// The shared predictor is still usable after the engine closed.
	e2, err := bots.New(context.Background(), "maia-1900", Register(pred))
	if err != nil {
		t.Fatal(err)
	}
	defer e2.Close()
	playOne(t, e2, engine.Limits{})
}

func TestMaiaNames(t *testing.T) {
	names := map[string]bool{}
	for _, n := range bots.Names(Register(nil)) {
		names[n] = true
	}
	for _, want := range []string{"easy", "medium", "hard", "knobs", "stockfish", "maia-1100", "maia-1500", "maia-1900"} {
		if !names[want] {
			t.Errorf("Names() lacks %q: %v", want, names)
		}
	}
	if _, err := bots.New(context.Background(), "maia-1550", Register(nil)); err == nil {
		t.Error("maia-1550 accepted")
	}
}

// A Maia engine is built warm: its model has evaluated a position before
// the engine plays its first move (on the game's clock), once per model.
func TestMaiaBuiltWarm(t *testing.T) {
	pred := modeltest.Predictor(t, 1100)
	e, err := bots.New(context.Background(), "maia-1100", Register(pred))
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	if got := pred.Stats()["maia-1100"].Positions; got != 1 {
		t.Errorf("maia-1100 evaluated %d positions when built, want 1 (the warm-up)", got)
	}
	e2, err := bots.New(context.Background(), "maia-1100", Register(pred))
	if err != nil {
		t.Fatal(err)
	}
	defer e2.Close()
	if got := pred.Stats()["maia-1100"].Positions; got != 1 {
		t.Errorf("a second maia-1100 engine on the same predictor warmed it again: %d positions", got)
	}
}

func playOne(t *testing.T, e engine.Engine, lim engine.Limits) {
	t.Helper()
	pos := engine.Position{Moves: []string{"d2d4", "g8f6", "c2c4"}}
	m, err := e.SelectMove(context.Background(), pos, lim)
	if err != nil {
		t.Fatalf("%s: SelectMove: %v", e.Name(), err)
	}
	b, err := pos.Board()
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := b.FindUCI(m.UCI); !ok {
		t.Fatalf("%s played illegal %q", e.Name(), m.UCI)
	}
}
