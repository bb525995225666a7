package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// fakeNativeEngine installs a shell-script UCI engine as the native build
// of dirName (e.g. "stockfish-16") in a fresh $OUTPOST_ENGINES_DIR: it
// names itself id and answers every search with cp 10 and no move.
func fakeNativeEngine(t *testing.T, dirName, id string) string {
	t.Helper()
	dir := t.TempDir()
	t.Setenv("OUTPOST_ENGINES_DIR", dir)
	sub := filepath.Join(dir, dirName)
	if err := os.MkdirAll(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	script := "#!/bin/sh\nwhile read -r line; do\n case \"$line\" in\n" +
		" uci) echo 'id name " + id + "'; echo uciok ;;\n" +
		" isready) echo readyok ;;\n" +
		" go*) echo 'info depth 1 score cp 10 nodes 1'; echo 'bestmove (none)' ;;\n" +
		" quit) exit 0 ;;\n esac\ndone\n"
	bin := filepath.Join(sub, "stockfish")
	if err := os.WriteFile(bin, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(sub, "build.json"), []byte("{}"), 0o644); err != nil {
		t.Fatal(err)
	}
	return bin
}

// lichessPGN is a short game carrying Lichess's evals.
const lichessPGN = `[Event "Rated Blitz game"]
[Site "https://lichess.org/abcdefgh"]
[UTCDate "2023.11.20"]
[White "a"]
[Black "b"]
[Result "*"]
[Annotator "lichess.org"]

1. e4 { [%eval 0.2] } e5 { [%eval 0.3] } 2. Nf3 { [%eval 0.25] } *
`

// TestComparePresetRunsItsEngine: an explicit --preset lichess-sf16 runs
// Stockfish 16 (here a fake native build), not the configured engine
// (Stockfish 15.1 by default), and says so in the JSON parameters and in
// the text header; --engine still overrides it, saying so; with sf16 not
// installed the run fails naming the preset and the install command.
// Without the fix the preset ran compare.engine (sf15) with sf16's budget.
func TestComparePresetRunsItsEngine(t *testing.T) {
	t.Setenv("OUTPOST_CONFIG", "")
	bin := fakeNativeEngine(t, "stockfish-16", "FakeStockfish16")
	pgn := filepath.Join(t.TempDir(), "g.pgn")
	if err := os.WriteFile(pgn, []byte(lichessPGN), 0o644); err != nil {
		t.Fatal(err)
	}
	db := filepath.Join(t.TempDir(), "runs.db")
	code, stdout, stderr := runCompareCLI(t, "--pgn", pgn, "--preset", "lichess-sf16", "--workers", "1", "--store", db, "--json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var rep struct {
		Params struct {
			Engine     string `json:"engine"`
			EngineFrom string `json:"engine_from"`
		}
		Games []struct{ Engine string }
	}
	if err := json.Unmarshal([]byte(stdout), &rep); err != nil {
		t.Fatalf("%v\n%s", err, stdout)
	}
	if rep.Params.Engine != bin || rep.Params.EngineFrom != "the lichess-sf16 preset's engine, its plies not re-searched unless --borderline-band says so" {
		t.Errorf("params %+v, want engine %s from the preset", rep.Params, bin)
	}
	if len(rep.Games) != 1 || rep.Games[0].Engine != bin {
		t.Errorf("games %+v, want the game run on %s", rep.Games, bin)
	}
	code, stdout, stderr = runCompareCLI(t, "--pgn", pgn, "--preset", "lichess-sf16", "--workers", "1", "--store", db)
	if code != 0 || !strings.Contains(stdout, "Engine: FakeStockfish16 nodes 1500000, fresh hash (the lichess-sf16 preset's engine") {
		t.Errorf("exit %d, text header lacks the preset's engine:\n%s%s", code, stdout, stderr)
	}

	other := fakeNativeEngine(t, "stockfish-16", "Other") // a second engine, named by path
	code, stdout, stderr = runCompareCLI(t, "--pgn", pgn, "--preset", "lichess-sf16", "--engine", other, "--workers", "1", "--store", db)
	if code != 0 || !strings.Contains(stdout, "--engine, instead of the lichess-sf16 preset's sf16: not the preset's engine") {
		t.Errorf("--engine: exit %d, output lacks the override:\n%s%s", code, stdout, stderr)
	}

	t.Setenv("OUTPOST_ENGINES_DIR", t.TempDir()) // nothing installed
	code, _, stderr = runCompareCLI(t, "--pgn", pgn, "--preset", "lichess-sf16", "--store", db)
	for _, want := range []string{"--preset lichess-sf16 runs its own engine sf16", "outpost engines install sf16"} {
		if code != 1 || !strings.Contains(stderr, want) {
			t.Errorf("sf16 missing: exit %d, stderr lacks %q: %s", code, want, stderr)
		}
	}
}
