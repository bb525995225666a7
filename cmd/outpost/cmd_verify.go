package main

import (
	"context"
	"errors"
	"fmt"
	"os"

	"github.com/outpostchess/outpost/analysis"
	"github.com/outpostchess/outpost/bots/enginepath"
	"github.com/outpostchess/outpost/config"
	"github.com/outpostchess/outpost/internal/store"
	"github.com/outpostchess/outpost/internal/verify"
	"github.com/outpostchess/outpost/lichess/sandbox/fishnet"
)

// Budgets of the embedded sandbox's stand-in fishnet in `outpost run
// --sandbox`: the summary's node budget (Lichess's is 1M, too slow next to
// the games on two cores) and a cloud depth that evaluates a game's
// positions in seconds.
const (
	demoFishnetNodes = 100_000
	demoCloudDepth   = 12
)

// sandboxFishnet returns the sandbox's stand-in for Lichess's analysis,
// on the configured analysis engine (our own hard engine when it is
// missing, as for the summaries).
func sandboxFishnet(cfg *config.Config, nodes int64, depth int) *fishnet.Analyser {
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

// printBotVerifications implements `outpost compare --bot`: the bot's games
// with their checks against Lichess, newest first, and the totals.
func printBotVerifications(ctx context.Context, env *Env, cfgPath, storePath string, maxGames int, asJSON bool) error {
	cfg, err := loadConfig(cfgPath)
	if err != nil {
		return err
	}
	path := cfg.Store.Path
	if storePath != "" {
		path = storePath
	}
	if maxGames < 0 {
		return fmt.Errorf("--max %d: want 1 or more", maxGames)
	}
	if maxGames == 0 {
		maxGames = cfg.Compare.MaxGames
	}
	st, err := openExistingStore(ctx, path)
	if err != nil {
		return err
	}
	defer st.Close()
	rows, err := verify.BotGames(ctx, st, maxGames)
	if err != nil {
		return err
	}
	if asJSON {
		return verify.WriteBotGamesJSON(env.Stdout, rows)
	}
	verify.WriteBotGames(env.Stdout, rows)
	return nil
}

// openExistingStore opens the store at path, which must exist: the
// commands that only read it (`compare --bot`, `compare --last`) name
// --store when it does not.
func openExistingStore(ctx context.Context, path string) (*store.Store, error) {
	if _, err := os.Stat(path); err != nil {
		return nil, fmt.Errorf("--store: %w", err)
	}
	return store.Open(ctx, path)
}
