package enginelimits

import (
	"context"
	"testing"
	"time"

	"github.com/outpostchess/outpost/bots/engine"
)

// pondererFake records the limits of its ponder search and of the hit.
type pondererFake struct {
	fakeEngine
	ponderLim, hitLim engine.Limits
	stopped           bool
}

func (f *pondererFake) Ponder(_ context.Context, _ engine.Position, lim engine.Limits) (engine.Pondering, error) {
	f.ponderLim = lim
	return f, nil
}

func (f *pondererFake) Hit(_ context.Context, lim engine.Limits) (engine.Move, error) {
	f.hitLim = lim
	return engine.Move{UCI: "e2e4"}, nil
}

func (f *pondererFake) Stop() { f.stopped = true }

// TestPonderThroughLimits: the wrapper forwards pondering with the caps
// applied to the ponder search and to the hit, and says it cannot ponder
// when the wrapped engine cannot.
func TestPonderThroughLimits(t *testing.T) {
	f := &pondererFake{}
	w := Wrap(f, Options{Caps: Caps{Depth: 6, Nodes: 5000}})
	if !engine.CanPonder(w) {
		t.Fatal("a wrapped ponderer cannot ponder")
	}
	p, err := w.(engine.Ponderer).Ponder(context.Background(), engine.Position{}, engine.Limits{WTime: time.Minute})
	if err != nil {
		t.Fatal(err)
	}
	if f.ponderLim.Depth != 6 || f.ponderLim.Nodes != 5000 || f.ponderLim.WTime != time.Minute {
		t.Errorf("ponder limits = %+v, want the clock with the caps", f.ponderLim)
	}
	m, err := p.Hit(context.Background(), engine.Limits{WTime: 50 * time.Second, Depth: 9, Deadline: time.Second})
	if err != nil || m.UCI != "e2e4" {
		t.Fatalf("Hit = %+v, %v", m, err)
	}
	if f.hitLim.Depth != 6 || f.hitLim.Nodes != 5000 || f.hitLim.Deadline != time.Second || f.hitLim.WTime != 50*time.Second {
		t.Errorf("hit limits = %+v, want the real clock with the caps", f.hitLim)
	}
	p.Stop()
	if !f.stopped {
		t.Error("Stop not forwarded")
	}
	plain := Wrap(&fakeEngine{}, Options{Caps: Caps{Depth: 6}})
	if engine.CanPonder(plain) {
		t.Error("a wrapped engine that cannot ponder says it can")
	}
	if _, err := plain.(engine.Ponderer).Ponder(context.Background(), engine.Position{}, engine.Limits{}); err == nil {
		t.Error("Ponder on an engine that cannot ponder gave no error")
	}
}
