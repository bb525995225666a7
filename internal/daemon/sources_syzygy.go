package daemon

import (
	"context"
	"fmt"
	"maps"

	"github.com/outpostchess/outpost/bots"
	"github.com/outpostchess/outpost/bots/movesource"
	"github.com/outpostchess/outpost/bots/syzygy"
	"github.com/outpostchess/outpost/config"
)

// syzygySources builds the local Syzygy move source of an engine whose
// [engines.NAME.syzygy] table is enabled. A uci engine gets none: it
// probes the tables itself (SyzygyPath, see syzygyUCIOptions).
func syzygySources(_ context.Context, _ *config.Config, name string, def config.EngineConfig) ([]movesource.Bounded, error) {
	if !def.SyzygyOn() || def.Type == config.EngineUCI {
		return nil, nil
	}
	t, err := syzygy.Open(def.Syzygy.Path, syzygy.WithMaxPieces(def.Syzygy.MaxPieces))
	if err != nil {
		return nil, fmt.Errorf("engines.%s.syzygy: %w", name, err)
	}
	return []movesource.Bounded{{Source: syzygy.OwnedSource(t), Timeout: movesource.DefaultTimeout}}, nil
}

// syzygyUCIOptions returns a uci engine's options with the Syzygy ones its
// [engines.NAME.syzygy] table sets (SyzygyPath, SyzygyProbeLimit,
// SyzygyProbeDepth as Stockfish names them); opts is not modified.
func syzygyUCIOptions(def config.EngineConfig, opts map[string]string) map[string]string {
	if !def.SyzygyOn() {
		return opts
	}
	out := maps.Clone(opts)
	out["SyzygyPath"] = def.Syzygy.SyzygyPathOption()
	if def.Syzygy.MaxPieces > 0 {
		out["SyzygyProbeLimit"] = fmt.Sprint(def.Syzygy.MaxPieces)
	}
	if def.Syzygy.ProbeDepth > 0 {
		out["SyzygyProbeDepth"] = fmt.Sprint(def.Syzygy.ProbeDepth)
	}
	return out
}

// syzygySearchOptions makes medium and hard probe the tables of an enabled
// [engines.NAME.syzygy] table inside their search (easy ignores it).
func syzygySearchOptions(def config.EngineConfig) []bots.Option {
	if !def.SyzygyOn() {
		return nil
	}
	return []bots.Option{bots.WithSyzygy(def.Syzygy.Path, def.Syzygy.MaxPieces, def.Syzygy.ProbeDepth)}
}
