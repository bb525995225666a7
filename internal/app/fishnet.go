package app

import (
	"errors"
	"os"

	"github.com/outpostchess/outpost/analysis"
	"github.com/outpostchess/outpost/bots/enginepath"
	"github.com/outpostchess/outpost/config"
	"github.com/outpostchess/outpost/internal/sandbox/fishnet"
)

// Budgets of the embedded sandbox's stand-in fishnet in `outpost run
// --sandbox`: the summary's node budget (Lichess's is 1M, too slow next to
// the games on two cores) and a cloud depth that evaluates a game's
// positions in seconds.
const (
	DemoFishnetNodes = 100_000
	DemoCloudDepth   = 12
)

// SandboxFishnet returns the sandbox's stand-in for Lichess's analysis,
// on the configured analysis engine (our own hard engine when it is
// missing, as for the summaries).
func SandboxFishnet(cfg *config.Config, nodes int64, depth int) *fishnet.Analyser {
	cmd := cfg.Analysis.Engine
	if len(cmd) > 0 && enginepath.Name(cmd) == "" { // engine names are resolved by the pool
		if _, err := os.Stat(cmd[0]); errors.Is(err, os.ErrNotExist) {
			if self, err := os.Executable(); err == nil {
				cmd = []string{self, "uci", "--engine", "hard"}
			}
		}
	}
	return fishnet.New(fishnet.Config{Pool: analysis.PoolConfig{Command: cmd, Workers: 1, Threads: 1, HashMB: 16},
		Nodes: nodes, CloudDepth: depth})
}
