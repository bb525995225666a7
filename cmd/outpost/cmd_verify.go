package main

import (
	"context"
	"fmt"
	"os"

	"github.com/outpostchess/outpost/internal/store"
	"github.com/outpostchess/outpost/internal/verify"
)

// printBotVerifications implements `outpost compare --bot`: the bot's games
// with their checks against Lichess (or the sandbox's stand-in: [lichess]
// url), newest first, and the totals.
func printBotVerifications(ctx context.Context, env *Env, cfgPath, storePath string, maxGames int, asJSON bool) (err error) {
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
	defer closeOnReturn(&err, "the store", st.Close)
	rows, err := verify.BotGames(ctx, st, maxGames)
	if err != nil {
		return err
	}
	if asJSON {
		return verify.WriteBotGamesJSON(env.Stdout, rows)
	}
	verify.WriteBotGames(env.Stdout, rows, verify.AgainstURL(cfg.Lichess.URL))
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
