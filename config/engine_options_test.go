package config

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// TestBuiltinOptionsConfig: [engines.NAME.options] of built-in engines.
func TestBuiltinOptionsConfig(t *testing.T) {
	bad := []refusal{
		{"unknown for medium", "[engines.m]\ntype = \"hard\"\n[engines.m.options]\nThreads = 2", "engines.m.options.Threads", "Hash, Features, Disable"},
		{"hash range", "[engines.m]\ntype = \"medium\"\n[engines.m.options]\nHash = 0", "engines.m.options.Hash", "1..4096"},
		{"feature name", "[engines.m]\ntype = \"hard\"\n[engines.m.options]\nDisable = \"lmr,nmp\"", "engines.m.options.Disable", "nullmove"},
		{"maia temperature twice", "[engines.m]\ntype = \"maia\"\nrating = 1500\ntemperature = 0.5\n[engines.m.options]\ntemperature = 1.0", "engines.m.options.temperature", "not both"},
		{"maia seed", "[engines.m]\ntype = \"maia\"\nrating = 1500\n[engines.m.options]\nseed = -1", "engines.m.options.seed", "integer"},
		{"easy takes none", "[engines.m]\ntype = \"easy\"\n[engines.m.options]\nHash = 16", "engines.m.options", "only for type uci, medium, hard, maia"},
	}
	checkRefusals(t, bad, nil)
	cfg, err := Parse([]byte("[engines.m]\ntype = \"hard\"\n[engines.m.options]\nhash = 32\nDisable = \"lmr, nullmove\"\n"+
		"[engines.z]\ntype = \"maia\"\nrating = 1100\n[engines.z.options]\ntemperature = 0.7\nseed = 42\n"), "t.toml")
	require.NoError(t, err)
	require.Equal(t, map[string]any{"hash": int64(32), "Disable": "lmr, nullmove"}, cfg.Engines.Defs["m"].Options)
}
