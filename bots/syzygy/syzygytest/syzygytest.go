// Package syzygytest opens the shared 3–4-piece Syzygy tables for tests and
// counts their WDL probes. It is for tests only.
package syzygytest

import (
	"context"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/outpostchess/outpost/bots/board"
	"github.com/outpostchess/outpost/bots/engine"
	"github.com/outpostchess/outpost/bots/syzygy"
)

// Counting is a *syzygy.Tables that counts its WDL probes.
type Counting struct {
	*syzygy.Tables
	Probes int
}

// ProbeWDL probes the tables and counts the probe.
func (c *Counting) ProbeWDL(b *board.Board) (syzygy.WDL, error) {
	c.Probes++
	return c.Tables.ProbeWDL(b)
}

// Open opens ../shared/tablebases/syzygy (beside the project root) or fails
// the test, naming the setup step that installs libfathom1. In a build that
// cannot load libfathom (no cgo, or not Linux) it skips the test.
func Open(t testing.TB) *Counting {
	t.Helper()
	if !syzygy.Available {
		t.Skip("Syzygy probing needs a cgo build on Linux")
	}
	_, file, _, _ := runtime.Caller(0)
	dir := filepath.Join(filepath.Dir(file), "..", "..", "..", "..", "shared", "tablebases", "syzygy")
	tb, err := syzygy.Open([]string{dir})
	if err != nil {
		t.Fatalf("open the shared Syzygy tables (run `make setup` for libfathom1): %v", err)
	}
	return &Counting{Tables: tb}
}

// DrawingCapture is what AvoidsDrawingCapture leaves for a test's further
// checks.
type DrawingCapture struct {
	// Tables are the tables WithTables searched with.
	Tables *Counting
	// Plain searched without tables, WithTables with them. Plain is
	// closed at the end of the test; WithTables by CloseClosesTables.
	Plain, WithTables engine.Engine
	// Move is the move WithTables chose.
	Move engine.Move
}

// AvoidsDrawingCapture checks an engine that probes tables in its search.
// In fen, grab is a capture into a tablebase draw that looks like a gain of
// material: the engine newEngine(nil) makes plays it at lim; the one
// newEngine(tb) makes with freshly opened tables plays another move and
// probes them.
func AvoidsDrawingCapture(t *testing.T, fen, grab string, lim engine.Limits, newEngine func(tb *Counting) (engine.Engine, error)) DrawingCapture {
	t.Helper()
	pos := engine.Position{StartFEN: fen}
	plain, err := newEngine(nil)
	if err != nil {
		t.Fatalf("engine without tables: %v", err)
	}
	t.Cleanup(func() { _ = plain.Close() })
	if mv, err := plain.SelectMove(context.Background(), pos, lim); err != nil || mv.UCI != grab {
		t.Fatalf("without tables the capture looks free: want %s, got %s (%v)", grab, mv.UCI, err)
	}

	tb := Open(t)
	withTB, err := newEngine(tb)
	if err != nil {
		t.Fatalf("engine with tables: %v", err)
	}
	mv, err := withTB.SelectMove(context.Background(), pos, lim)
	if err != nil {
		t.Fatalf("engine with tables: %v", err)
	}
	if mv.UCI == grab {
		t.Errorf("with tables the capture %s is a known draw, yet it was played", grab)
	}
	if tb.Probes <= 0 {
		t.Errorf("the search never probed the tables")
	}
	return DrawingCapture{Tables: tb, Plain: plain, WithTables: withTB, Move: mv}
}

// CloseClosesTables closes WithTables and checks that it closed its tables:
// probing fen fails afterwards.
func (c DrawingCapture) CloseClosesTables(t *testing.T, fen string) {
	t.Helper()
	if err := c.WithTables.Close(); err != nil {
		t.Fatalf("close the engine: %v", err)
	}
	b, err := board.FromFEN(fen)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.Tables.Tables.ProbeWDL(b); err == nil {
		t.Error("closing the engine left its tables open: a probe succeeded")
	}
}
