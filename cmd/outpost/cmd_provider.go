package main

import (
	"context"
	"os"

	"github.com/outpostchess/outpost/internal/app"
	"github.com/outpostchess/outpost/lichess"
)

// runProvider implements `outpost provider`: registers the configured
// engines as Lichess external engines and serves their analysis requests
// until stopped (docs/provider.md).
func runProvider(ctx context.Context, env *Env, args []string) error {
	fs := newFlags(env, "provider", "[--config FILE]")
	cfgPath := configFlag(fs, "configuration file (TOML): [lichess] for the server and token, [provider] for the engines; default: built-in defaults")
	if err := parseOnlyFlags(fs, args); err != nil {
		return err
	}
	cfg, err := loadConfig(*cfgPath)
	if err != nil {
		return err
	}
	token, err := lichess.LoadToken(os.Getenv, cfg.Lichess.TokenFile)
	if err != nil {
		return err
	}
	closeLog, err := withLogFile(env, cfg, string(token))
	if err != nil {
		return err
	}
	defer closeLog()
	return app.RunProvider(ctx, app.Provider{Config: cfg, Token: token, Logger: env.logger()})
}
