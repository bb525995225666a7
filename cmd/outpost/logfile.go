package main

import (
	"fmt"

	"github.com/outpostchess/outpost/config"
	"github.com/outpostchess/outpost/internal/logging"
)

// withLogFile sets env's logger from the [log] section: the console at
// [log] level unless --log-level was given (it wins there), in [log]
// format; and, when [log] file is set, that file too, JSON lines at [log]
// level (secrets such as the token are redacted from every line). It
// returns the function closing the file (an error closing it is said on
// stderr).
func withLogFile(env *Env, cfg *config.Config, secrets ...string) (func(), error) {
	level := env.LogLevel
	if !env.LogLevelSet && cfg.Log.Level != "" {
		level = cfg.Log.Level
	}
	console := logging.Console(env.Stderr, cfg.Log.Format)
	if cfg.Log.File == "" {
		if _, err := logging.ParseLevel(level); err != nil {
			return nil, fmt.Errorf("log.level: %w", err)
		}
		l := logging.NewFormat(env.Stderr, level, cfg.Log.Format)
		env.Log = &l
		return func() { env.Log = nil }, nil
	}
	l, c, err := logging.NewWithFile(console, level, logging.File{Path: cfg.Log.File,
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
