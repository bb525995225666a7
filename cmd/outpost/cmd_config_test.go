package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/outpostchess/outpost/config"
)

func TestConfigExample(t *testing.T) {
	code, out, _ := runCLI(t, "", "config", "example")
	if code != 0 || out != string(config.Example()) {
		t.Fatalf("exit %d; output is the example: %v", code, out == string(config.Example()))
	}
}

func TestConfigCheck(t *testing.T) {
	dir := t.TempDir()
	good := filepath.Join(dir, "good.toml")
	bad := filepath.Join(dir, "bad.toml")
	if err := os.WriteFile(good, config.Example(), 0o600); err != nil {
		t.Fatal(err)
	}
	const secret = "lip_DoNotPrintThis123"
	src := "[challenge]\nmax_games = 0\n\n[lichess]\ntoken = \"" + secret + "\"\n[gam]\nx = 1\n"
	if err := os.WriteFile(bad, []byte(src), 0o600); err != nil {
		t.Fatal(err)
	}

	code, out, _ := runCLI(t, "", "config", "check", good)
	if code != 0 || !strings.HasSuffix(out, "ok\n") {
		t.Fatalf("good file: exit %d, output %q", code, out)
	}

	code, out, errOut := runCLI(t, "", "config", "check", bad)
	if code != 1 {
		t.Fatalf("bad file: exit %d", code)
	}
	for _, want := range []string{
		bad + ":2: challenge.max_games: out of range (got 0); allowed: 1..100",
		bad + ":5: lichess.token: a token must never be written",
		bad + `:6: gam: unknown section or key (did you mean "game"?)`,
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out+errOut, "DoNotPrint") {
		t.Fatal("the token was printed")
	}
	if strings.Contains(out, "ok\n") {
		t.Errorf("bad file reported ok: %s", out)
	}

	code, out, _ = runCLI(t, "", "config", "check", good, bad)
	if code != 1 || !strings.Contains(out, good+": ok") {
		t.Fatalf("two files: exit %d, output %q", code, out)
	}

	if code, _, errOut := runCLI(t, "", "config", "check", filepath.Join(dir, "none.toml")); code != 1 || !strings.Contains(errOut, "none.toml") {
		t.Fatalf("missing file: exit %d, stderr %q", code, errOut)
	}
	if code, _, _ := runCLI(t, "", "config", "check"); code != 2 {
		t.Fatalf("no file: exit %d", code)
	}
	if code, _, _ := runCLI(t, "", "config", "frobnicate"); code != 2 {
		t.Fatalf("unknown subcommand: exit %d", code)
	}
	if code, _, _ := runCLI(t, "", "config", "--help"); code != 0 {
		t.Fatalf("help: exit %d", code)
	}
}

// TestConfigCheckRefusesUnplayableVariants: crazyhouse and atomic are
// Lichess variants, but no engine plays them.
func TestConfigCheckRefusesUnplayableVariants(t *testing.T) {
	f := filepath.Join(t.TempDir(), "v.toml")
	src := "[challenge]\nvariants = [\"standard\", \"crazyhouse\", \"atomic\"]\n"
	if err := os.WriteFile(f, []byte(src), 0o600); err != nil {
		t.Fatal(err)
	}
	code, out, _ := runCLI(t, "", "config", "check", f)
	if code != 1 {
		t.Fatalf("exit %d, output %q", code, out)
	}
	for _, v := range []string{"crazyhouse", "atomic"} {
		want := f + `:2: challenge.variants: no configured engine plays this variant (engines that may be chosen for it: medium) (got "` + v + `")`
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, `(got "standard")`) {
		t.Errorf("standard refused:\n%s", out)
	}
}
