package daemon

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/outpostchess/outpost/bots/engine"
	"github.com/outpostchess/outpost/config"
)

func TestSyzygyUCIOptions(t *testing.T) {
	base := map[string]string{"Threads": "1"}
	off := config.EngineConfig{Type: "uci", Syzygy: &config.SyzygyConfig{Path: []string{"/a"}}}
	assert.Equal(t, base, syzygyUCIOptions(off, base), "disabled: unchanged")
	on := config.EngineConfig{Type: "uci", Syzygy: &config.SyzygyConfig{Enabled: true, Path: []string{"/a", "/b"}, MaxPieces: 5, ProbeDepth: 3}}
	got := syzygyUCIOptions(on, base)
	assert.Equal(t, map[string]string{"Threads": "1", "SyzygyPath": "/a:/b", "SyzygyProbeLimit": "5", "SyzygyProbeDepth": "3"}, got)
	assert.Len(t, base, 1, "the caller's map is not modified")
}

func TestSyzygySourcesBuilder(t *testing.T) {
	tables, err := filepath.Abs(filepath.Join("..", "..", "..", "shared", "tablebases", "syzygy"))
	require.NoError(t, err)
	ctx := context.Background()
	def := config.EngineConfig{Type: "hard", Syzygy: &config.SyzygyConfig{Enabled: true, Path: []string{tables}}}
	srcs, err := syzygySources(ctx, nil, "tb", def)
	require.NoError(t, err)
	require.Len(t, srcs, 1)
	mv, err := srcs[0].Source.Move(ctx, engine.Position{StartFEN: "8/8/8/8/8/2k5/8/K5qR w - - 0 1"}, engine.Limits{})
	require.NoError(t, err)
	assert.Equal(t, "h1g1", mv.UCI, "the rook takes the queen")
	require.NoError(t, srcs[0].Source.(interface{ Close() error }).Close())

	srcs, err = syzygySources(ctx, nil, "sf", config.EngineConfig{Type: "uci", Syzygy: def.Syzygy})
	require.NoError(t, err)
	assert.Empty(t, srcs, "a uci engine probes the tables itself")
	assert.Len(t, syzygySearchOptions(config.EngineConfig{Type: "hard", Syzygy: def.Syzygy}), 1)
	assert.Empty(t, syzygySearchOptions(config.EngineConfig{Type: "hard"}))

	bad := config.EngineConfig{Type: "knobs", Syzygy: &config.SyzygyConfig{Enabled: true, Path: []string{t.TempDir()}}}
	_, err = syzygySources(ctx, nil, "tb", bad)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "engines.tb.syzygy")
}
