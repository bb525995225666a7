package postgame

import (
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/rs/zerolog"

	"github.com/outpostchess/outpost/analysis"
	"github.com/outpostchess/outpost/config"
	"github.com/outpostchess/outpost/internal/testkit"
)

// TestFromConfigEngine: the summary's engine is [summary] engine, else
// [analysis] engine; a missing one is replaced by our hard engine (this
// binary over UCI) with a warning; with [cluster] url the positions go to
// the cluster and the name stays for its workers to resolve, but a
// command line is never sent: the log names the key and the engine runs
// here.
func TestFromConfigEngine(t *testing.T) {
	self, err := os.Executable()
	if err != nil {
		t.Skip(err)
	}
	hard := []string{self, "uci", "--engine", "hard"}
	tests := []struct {
		name     string
		set      func(*config.Config)
		want     []string
		cluster  bool
		warnings bool
	}{
		{"summary engine found", func(c *config.Config) { c.Summary.Engine = []string{"/bin/sh"} }, []string{"/bin/sh"}, false, false},
		{"analysis engine when the summary names none", func(c *config.Config) { c.Summary.Engine, c.Analysis.Engine = nil, []string{"/bin/sh", "-x"} }, []string{"/bin/sh", "-x"}, false, false},
		{"missing engine: our hard engine", func(c *config.Config) { c.Summary.Engine = []string{"/nonexistent/stockfish"} }, hard, false, true},
		{"cluster: the name goes to the workers", func(c *config.Config) {
			c.Summary.Engine = []string{"sf18"}
			c.Cluster.URL = "nats://127.0.0.1:1"
		}, []string{"sf18"}, true, false},
		{"cluster: a command line is not sent, the engine runs here", func(c *config.Config) {
			c.Summary.Engine = []string{"/nonexistent/stockfish"}
			c.Cluster.URL = "nats://127.0.0.1:1"
		}, hard, false, true},
		{"cluster: the analysis engine, a command line, runs here", func(c *config.Config) {
			c.Summary.Engine, c.Analysis.Engine = nil, []string{"/bin/sh"}
			c.Cluster.URL = "nats://127.0.0.1:1"
		}, []string{"/bin/sh"}, false, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			cfg := config.Default()
			tc.set(cfg)
			var logs testkit.SyncBuffer
			s := FromConfig(cfg, "OutpostBot", zerolog.New(&logs))
			defer s.Close()
			if !slices.Equal(s.cfg.Command, tc.want) {
				t.Errorf("command %q, want %q", s.cfg.Command, tc.want)
			}
			if (s.cfg.Dispatcher != nil) != tc.cluster {
				t.Errorf("dispatcher %v, want cluster %v", s.cfg.Dispatcher, tc.cluster)
			}
			if got := strings.Contains(logs.String(), "summary engine missing"); got != tc.warnings {
				t.Errorf("warning logged %v, want %v: %s", got, tc.warnings, logs.String())
			}
			refused := cfg.Cluster.URL != "" && !tc.cluster
			if got := strings.Contains(logs.String(), "engine (or analysis.hash_mb) with [cluster] url: the summaries are analysed in-process") &&
				strings.Contains(logs.String(), "is a command line"); got != refused {
				t.Errorf("refusal logged %v, want %v: %s", got, refused, logs.String())
			}
			if s.me != "OutpostBot" || s.nodes != int64(cfg.Summary.Nodes) {
				t.Errorf("me %q nodes %d", s.me, s.nodes)
			}
		})
	}
}

// TestWithConfigEWROff: no expected-winrate line unless [summary] ewr and
// enabled, and none without Maia (saying why in the log).
func TestWithConfigEWROff(t *testing.T) {
	for _, tc := range []struct {
		name    string
		ewr, on bool
		log     string
	}{
		{"ewr off", false, true, ""},
		{"summaries off", true, false, ""},
		{"no Maia", true, true, "no Maia models"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cfg := config.Default()
			cfg.Summary.EWR, cfg.Summary.Enabled = tc.ewr, tc.on
			var logs testkit.SyncBuffer
			s := New(analysis.PoolConfig{}, 0, "")
			s.WithConfigEWR(cfg, nil, nil, 0, zerolog.New(&logs))
			if s.ewr != nil {
				t.Error("expected-winrate line added")
			}
			if !strings.Contains(logs.String(), tc.log) || (tc.log == "" && logs.Len() > 0) {
				t.Errorf("log %q, want %q", logs.String(), tc.log)
			}
		})
	}
}
