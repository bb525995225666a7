package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/outpostchess/outpost/config"
)

// TestLogConfigReachesTheConsole: [log] level and format apply to the
// console as well as to the log file; --log-level, when given, wins on the
// console; the file keeps [log] level, in JSON lines.
func TestLogConfigReachesTheConsole(t *testing.T) {
	for _, tc := range []struct {
		name          string
		level, format string
		flag          string // --log-level; "" when not given
		file          bool
		debugShown    bool
		json          bool
	}{
		{name: "debug from the config", level: "debug", debugShown: true, json: true},
		{name: "debug from the config, with a file", level: "debug", file: true, debugShown: true, json: true},
		{name: "console format off a terminal", level: "debug", format: "console", debugShown: true},
		{name: "console format with a file", level: "info", format: "console", file: true},
		{name: "json format", level: "debug", format: "json", debugShown: true, json: true},
		{name: "--log-level wins over the config", level: "debug", flag: "info", json: true},
		{name: "--log-level wins, with a file", level: "info", flag: "debug", file: true, debugShown: true, json: true},
		{name: "the default: info", json: true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var stderr bytes.Buffer
			env := &Env{Stderr: &stderr, LogLevel: "info"}
			if tc.flag != "" {
				env.LogLevel, env.LogLevelSet = tc.flag, true
			}
			cfg := config.Default()
			if tc.level != "" {
				cfg.Log.Level = tc.level
			}
			cfg.Log.Format = tc.format
			path := filepath.Join(t.TempDir(), "outpost.log")
			if tc.file {
				cfg.Log.File, cfg.Log.MaxSizeMB, cfg.Log.MaxFiles = path, 1, 1
			}
			closeLog, err := withLogFile(env, cfg)
			if err != nil {
				t.Fatal(err)
			}
			log := env.logger()
			log.Debug().Str("bot", "OutpostBot").Msg("a debug line")
			log.Info().Str("bot", "OutpostBot").Msg("an info line")
			closeLog()
			out := stderr.String()
			if got := strings.Contains(out, "a debug line"); got != tc.debugShown {
				t.Errorf("debug line on the console: %v, want %v:\n%s", got, tc.debugShown, out)
			}
			if !strings.Contains(out, "an info line") {
				t.Errorf("no info line on the console:\n%s", out)
			}
			if got := strings.HasPrefix(out, "{"); got != tc.json {
				t.Errorf("console in JSON: %v, want %v:\n%s", got, tc.json, out)
			}
			if !tc.file {
				return
			}
			b, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			wantDebug := cfg.Log.Level == "debug"
			if got := strings.Contains(string(b), `"message":"a debug line"`); got != wantDebug {
				t.Errorf("debug line in the file: %v, want %v (the file is at [log] level):\n%s", got, wantDebug, b)
			}
		})
	}
}
