package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// With a cluster, analyse and compare send engine names, never a command:
// an engine the workers would have to run as a command line, auto, or
// settings out of a worker's bounds are refused before anything runs,
// with the flag named. (Nothing listens at the URL: the check comes first.)
func TestClusterRefusesAnEngineItCannotName(t *testing.T) {
	t.Setenv("OUTPOST_CONFIG", "")
	dir := t.TempDir()
	pgn := filepath.Join(dir, "g.pgn")
	if err := os.WriteFile(pgn, []byte("1. e4 e5 *\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	const url = "nats://127.0.0.1:1"
	store := filepath.Join(dir, "store.db")
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"analyse", "--cluster", url, "--engine", "/usr/games/stockfish", pgn}, `--engine with a cluster (--cluster or [cluster] url): engine "/usr/games/stockfish" is a command line`},
		{[]string{"analyse", "--cluster", url, "--engine", "/bin/sh -c true", pgn}, `engine "/bin/sh -c true" is a command line: a cluster runs only the named engines sf15, sf18, sf19`},
		{[]string{"analyse", "--cluster", url, "--engine", "auto", pgn}, "--engine with a cluster (--cluster or [cluster] url): engine \"auto\" is auto"},
		{[]string{"analyse", "--cluster", url, "--engine", "sf15", "--hash", "4096", pgn}, "--hash with a cluster: hash 4096 MB: want 1..2048"},
		{[]string{"analyse", "--cluster", url, "--threads", "33", "--workers", "1", pgn}, "--threads with a cluster: threads 33: want 1..32"},
		{[]string{"compare", "--pgn", pgn, "--store", store, "--cluster", url, "--engine", "/usr/games/stockfish"}, "--engine (or compare.engine) with a cluster"},
		{[]string{"compare", "--pgn", pgn, "--store", store, "--cluster", url, "--hash", "4096"}, "--hash (or analysis.hash_mb) with a cluster: hash 4096 MB"},
	}
	for _, tt := range tests {
		code, _, stderr := runCLI(t, "", tt.args...)
		if code == 0 || !strings.Contains(stderr, tt.want) {
			t.Errorf("outpost %s: exit %d, stderr %q; want an error with %q", strings.Join(tt.args, " "), code, stderr, tt.want)
		}
	}
}
