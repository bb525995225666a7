package postgame

import (
	"testing"

	"github.com/outpostchess/outpost/analysis/ewr"
	"github.com/outpostchess/outpost/config"
)

// TestEWRModeOfSummary: the summary's calculation in each [summary]
// ewr_mode — by default the settle mode on engines that clear their hash
// before every search; "exact" and "fast" keep a 64 MB hash.
func TestEWRModeOfSummary(t *testing.T) {
	def := config.Default().Summary.EWRMode
	if def != ewr.ModeSettle {
		t.Fatalf("default [summary] ewr_mode %q, want %q", def, ewr.ModeSettle)
	}
	for _, c := range []struct {
		mode   string
		params ewr.Params
		clear  bool
		hash   int
	}{
		{def, ewr.DefaultParams().Settle(), true, ewr.ClearHashMB},
		{"", ewr.DefaultParams().Settle(), true, ewr.ClearHashMB},
		{ewr.ModeExact, ewr.DefaultParams(), false, 64},
		{ewr.ModeFast, ewr.DefaultParams().Fast(), false, 64},
	} {
		o := EWROptions{Mode: c.mode, Engine: []string{"sf15"}, Workers: 2}
		if got := o.params(); got != c.params {
			t.Errorf("%q: params %+v, want %+v", c.mode, got, c.params)
		}
		if hash, clear := o.engineHash(); clear != c.clear || hash != c.hash {
			t.Errorf("%q: engines' hash %d MB, cleared each search %v; want %d, %v", c.mode, hash, clear, c.hash, c.clear)
		}
	}
}
