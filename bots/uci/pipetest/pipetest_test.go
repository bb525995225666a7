package pipetest

import (
	"os"
	"testing"
	"time"
)

// TestCatEcho drives cat, which answers every line with itself.
func TestCatEcho(t *testing.T) {
	const cat = "/bin/cat"
	if _, err := os.Stat(cat); err != nil {
		t.Skipf("no %s: %v", cat, err)
	}
	e := Start(t, cat, time.Minute)
	e.Send(t, "uci\nid name x\nuciok")
	got := e.Until(t, "uciok")
	if len(got) != 3 || got[0] != "uci" || got[2] != "uciok" {
		t.Errorf("Until = %q, want the three lines sent", got)
	}
	e.Send(t, "readyok")
	if got := e.Until(t, "ready"); len(got) != 1 {
		t.Errorf("Until(ready) = %q, want one line", got)
	}
}
