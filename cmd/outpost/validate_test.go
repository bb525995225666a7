package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestBadFlagsNamed: every flag value that used to be accepted silently
// (issue 18) is refused at the start with the flag named; none of these
// reaches an engine or the network.
func TestBadFlagsNamed(t *testing.T) {
	t.Setenv("OUTPOST_CONFIG", "")
	dir := t.TempDir()
	pgn := filepath.Join(dir, "g.pgn")
	if err := os.WriteFile(pgn, []byte("[Event \"x\"]\n\n1. e4 e5 *\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	short := filepath.Join(dir, "tok")
	if err := os.WriteFile(short, []byte("abcde\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		args []string
		msg  string
	}{
		{"analyse workers 0", []string{"analyse", "--workers", "0", pgn}, "--workers 0: want at least 1"},
		{"analyse workers -2", []string{"analyse", pgn, "--workers", "-2"}, "--workers -2: want at least 1"},
		{"analyse hash -1", []string{"analyse", "--hash", "-1", pgn}, "--hash -1: want at least 1"},
		{"analyse threads 0", []string{"analyse", "--threads", "0", pgn}, "--threads 0"},
		{"analyse negative nodes", []string{"analyse", "--nodes", "-5", pgn}, "--nodes -5"},
		{"analyse negative ewr time", []string{"analyse", "--ewr-time", "-1s", pgn}, "--ewr-time -1s: negative duration not allowed"},
		{"analyse javascript server", []string{"analyse", "--server", "javascript:alert(1)", "abcdefgh"}, `--server "javascript:alert(1)": want an http(s) base URL`},
		{"compare javascript server", []string{"compare", "--user", "a", "--server", "javascript:x"}, `--server "javascript:x": want an http(s) base URL`},
		{"compare max -1", []string{"compare", "--user", "a", "--max", "-1"}, "--max -1: want at least 1"},
		{"ewr hash -1", []string{"ewr", "--hash", "-1"}, "--hash -1: want at least 1"},
		{"ewr negative timeout", []string{"ewr", "--timeout", "-1s"}, "--timeout -1s: negative duration not allowed"},
		{"run games -1", []string{"run", "--sandbox", "--games", "-1"}, "--games -1: want at least 0"},
		{"run extra argument", []string{"run", "--sandbox", "extra"}, `unexpected arguments ["extra"]`},
		{"run unknown sparring", []string{"run", "--sandbox", "--games", "1", "--sparring", "nonexistent"}, `sparring engine "nonexistent": bots: unknown engine`},
		{"perft extra arguments", []string{"perft", "--depth", "1", "e2e4"}, `unexpected arguments ["e2e4"]`},
		{"serve 5-character token", []string{"serve", "--addr", "127.0.0.1:0", "--token-file", short, "--store", filepath.Join(dir, "o.db"), "--no-ewr"}, "the token has 5 characters: want at least 16"},
		{"uci negative hash", []string{"uci", "--hash", "-1"}, "--hash -1: want at least 0"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, _, errOut := runCLI(t, "", tc.args...)
			if code == 0 || !strings.Contains(errOut, tc.msg) {
				t.Errorf("exit %d, stderr %q; want an error containing %q", code, errOut, tc.msg)
			}
		})
	}
}
