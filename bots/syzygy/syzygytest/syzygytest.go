// Package syzygytest opens the shared 3–4-piece Syzygy tables for tests and
// counts their WDL probes. It is for tests only.
package syzygytest

import (
	"path/filepath"
	"runtime"
	"testing"

	"github.com/outpostchess/outpost/bots/board"
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
// the test, naming the setup step that installs libfathom1.
func Open(t testing.TB) *Counting {
	t.Helper()
	_, file, _, _ := runtime.Caller(0)
	dir := filepath.Join(filepath.Dir(file), "..", "..", "..", "..", "shared", "tablebases", "syzygy")
	tb, err := syzygy.Open([]string{dir})
	if err != nil {
		t.Fatalf("open the shared Syzygy tables (run `make setup` for libfathom1): %v", err)
	}
	return &Counting{Tables: tb}
}
