package web

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/outpostchess/outpost/lichess"
	"github.com/outpostchess/outpost/lichess/provider"
)

// The Engines page shows what the provider registered and its recent jobs
// (escaped), or why it cannot.
func TestEnginesPage(t *testing.T) {
	now := time.Date(2026, 12, 1, 22, 30, 0, 0, time.UTC)
	st := &provider.Status{
		Engines: []lichess.ExternalEngine{{ID: "eei_abc", Name: "Maia 1500 <x>", UserID: "alice", MaxThreads: 1, MaxHash: 1, Variants: []string{"chess"}}},
		Jobs:    []provider.JobRecord{{Time: now, Engine: "Maia 1500 <x>", Moves: 12, MultiPV: 3, Limit: "depth 20", Lines: 4, Took: 12 * time.Millisecond, Outcome: "done"}},
	}
	e := newTestEnv(t, func(o *Options) {
		o.Engines = func(context.Context) (*provider.Status, error) { return st, nil }
	})
	body := e.page(t, "/engines")
	mustContain(t, body, "Maia 1500 &lt;x&gt;", "<code>eei_abc</code>", "<td>alice</td>", "2026-12-01 22:30:00", "<td>depth 20</td>", "<td>done</td>",
		`href="/engines" aria-current="page"`)
	down := newTestEnv(t, func(o *Options) {
		o.Engines = func(context.Context) (*provider.Status, error) {
			return nil, errors.New("provider: no job log at x (is outpost provider running with this configuration?)")
		}
	})
	_, body = down.get(t, "/engines")
	mustContain(t, body, `role="alert">provider: no job log at x`)
	_, body = newTestEnv(t, nil).get(t, "/engines")
	mustContain(t, body, "Not available in this console")
}
