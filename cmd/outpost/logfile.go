package main

import (
	"fmt"

	"github.com/outpostchess/outpost/config"
	"github.com/outpostchess/outpost/internal/logging"
)

// withLogFile sets env's logger to write to the [log] file too when one is
// configured (secrets such as the token are redacted from every line); it
// returns the function closing the file (an error closing it is said on
// stderr).
func withLogFile(env *Env, cfg *config.Config, secrets ...string) (func(), error) {
	if cfg.Log.File == "" {
		return func() {}, nil
	}
	l, c, err := logging.NewWithFile(env.Stderr, env.LogLevel, logging.File{Path: cfg.Log.File,
		MaxSizeMB: cfg.Log.MaxSizeMB, MaxFiles: cfg.Log.MaxFiles, Level: cfg.Log.Level}, secrets...)
	if err != nil {
		return nil, fmt.Errorf("log file: %w", err)
	}
	env.Log = &l
	return func() {
		env.Log = nil
		if err := c.Close(); err != nil {
			fmt.Fprintf(env.Stderr, "outpost: closing the log file: %v\n", err)
		}
	}, nil
}
