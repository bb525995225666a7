package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestEnginesListAndInstallNames: `engines list` names every engine,
// sf16 and sf17.1 included, each found (a native build with build.json)
// or saying how to install it; `engines install` refuses a version that
// has no native build, naming the ones that do.
func TestEnginesListAndInstallNames(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("OUTPOST_ENGINES_DIR", dir)
	sf16 := filepath.Join(dir, "stockfish-16")
	if err := os.MkdirAll(sf16, 0o755); err != nil {
		t.Fatal(err)
	}
	for name, mode := range map[string]os.FileMode{"stockfish": 0o755, "build.json": 0o644} {
		if err := os.WriteFile(filepath.Join(sf16, name), []byte("{}"), mode); err != nil {
			t.Fatal(err)
		}
	}
	code, out, errOut := runCLI(t, "", "engines", "list")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	for _, want := range []string{
		"sf16   Stockfish 16 (native build): " + filepath.Join(sf16, "stockfish"),
		"sf17.1 not installed: enginepath: engine sf17.1: not built in " + filepath.Join(dir, "stockfish-17.1") + " (build it with outpost engines install sf17.1",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("list lacks %q:\n%s", want, out)
		}
	}
	code, _, errOut = runCLI(t, "", "engines", "install", "sf17")
	if code == 0 || !strings.Contains(errOut, `"sf17" has no native build (want one of sf15, sf16, sf17.1, sf18)`) {
		t.Errorf("install sf17: exit %d, %s", code, errOut)
	}
}
