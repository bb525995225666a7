package main

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"github.com/outpostchess/outpost/bots/enginepath"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/outpostchess/outpost/analysis/ewr"
	"github.com/outpostchess/outpost/models"
)

func TestEWRFlagErrors(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--threshold", "0.05"}, "probability threshold"},
		{[]string{"--depth", "12"}, "depth 12"},
		{[]string{"--loss", "0.2"}, "loss threshold"},
		{[]string{"--maia", "2200"}, "Maia rating 2200"},
		{[]string{"--opponent-maia", "1000"}, "opponent Maia rating 1000"},
		{[]string{"--workers", "0"}, "--workers"},
		{[]string{"--engine", " "}, "--engine is empty"},
		{[]string{"--tree-depth", "12", "--full-depth-mass", "1.5"}, "full-depth probability mass 1.5"},
		{[]string{"--fast", "--tree-depth", "12"}, "give one of them"},
		{[]string{"--compare-save", "x.jsonl"}, "need --bench --compare"},
		{[]string{"--bench", "--compare-ref", "x.jsonl"}, "need --bench --compare"},
		{[]string{"--bench", "--compare", "--compare-only", "start,nope"}, `no benchmark position "nope"`},
		{[]string{"--bench", "--repeat"}, "need --bench --compare"},
		{[]string{"--bench", "--compare", "--bench-set", "nope"}, `--bench-set "nope": use standard or holdout`},
		{[]string{"--bench", "--bench-set", "holdout"}, "--bench-set needs --bench --compare"},
		{[]string{"--bench", "--compare", "--bench-set", "holdout", "--compare-only", "najdorf"}, `no benchmark position "najdorf"`},
		{[]string{"--fast", "--decision-margin", "2"}, "decision margin 2"},
		{[]string{"--exact", "--fast"}, "give one of them"},
		{[]string{"--exact", "--tree-depth", "12"}, "give one of them"},
		{[]string{"--clear-hash=false"}, "the settle mode (the default) needs it"},
		{[]string{"--exact", "--volatility", "0.004"}, "--volatility needs --clear-hash"},
	} {
		var out, errb bytes.Buffer
		env := &Env{Stdout: &out, Stderr: &errb, Stdin: strings.NewReader("")}
		code := run(context.Background(), append([]string{"ewr"}, c.args...), env)
		if code == 0 || !strings.Contains(errb.String(), c.want) {
			t.Errorf("%v: exit %d, stderr %q; want an error naming %q", c.args, code, errb.String(), c.want)
		}
	}
}

// TestEWRRepeatEndToEnd: --bench --compare --repeat calculates a
// position twice with the real engines in the default mode (the settle
// mode) and prints the run-to-run difference, which is none (identical
// digests): every search starts from a cleared hash.
func TestEWRRepeatEndToEnd(t *testing.T) {
	needEWRParts(t)
	var out, errb bytes.Buffer
	env := &Env{Stdout: &out, Stderr: &errb, Stdin: strings.NewReader("")}
	args := []string{"ewr", "--bench", "--compare", "--repeat", "--compare-only", "pawn endgame", "--store", ""}
	if code := run(context.Background(), args, env); code != 0 {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	text := out.String()
	// the default mode is the settle mode (trees towards depth 15, ended at
	// 12 or 13 when settled), on engines clearing their hash each search
	assert.Contains(t, text, "A and B: the fast mode (trees at depth 12 (the analysing player's moves within 0.03 of the threshold again at depth 15) (settle rule: towards depth 15, ended at 12 or 13 when probability × (change + 0.01) ≤ 0.004)), calculated twice")
	assert.Regexp(t, `B against A: [1-9][0-9]* moves, max \|Δ\| 0\.00 pp, mean 0\.00 pp, 0 over 1 pp; same best move in 1 of 1 positions, same best \(ties within 1 pp\) in 1 of 1`, text)
	m := regexp.MustCompile(`digests ([0-9a-f]{8}) ([0-9a-f]{8})`).FindStringSubmatch(text)
	require.Len(t, m, 3, text)
	assert.Equal(t, m[1], m[2], "identical figures in both runs")
}

// TestEWRJSONEndToEnd runs the command on a small endgame with the real
// engines and checks the JSON schema and the cache status.
func TestEWRJSONEndToEnd(t *testing.T) {
	needEWRParts(t)
	db := filepath.Join(t.TempDir(), "ewr.db")
	args := []string{"ewr", "--fen", "8/8/4k3/8/2K1P3/8/8/8 w - - 0 50", "--store", db, "--json"}
	best := ""
	for _, wantCached := range []bool{false, true} {
		var out, errb bytes.Buffer
		env := &Env{Stdout: &out, Stderr: &errb, Stdin: strings.NewReader("")}
		if code := run(context.Background(), args, env); code != 0 {
			t.Fatalf("exit %d: %s", code, errb.String())
		}
		var res struct {
			Base   *float64 `json:"base_winrate"`
			Cached bool     `json:"cached"`
			Moves  []struct {
				SAN             string  `json:"san"`
				ExpectedWinrate float64 `json:"expected_winrate"`
			} `json:"moves"`
			Trees map[string]json.RawMessage `json:"trees"`
		}
		if err := json.Unmarshal(out.Bytes(), &res); err != nil {
			t.Fatalf("%v: %s", err, out.String())
		}
		if res.Base == nil || len(res.Moves) == 0 || res.Trees[res.Moves[0].SAN] == nil || res.Cached != wantCached {
			t.Fatalf("result %+v cached %v, want cached %v", res, res.Cached, wantCached)
		}
		best = res.Moves[0].SAN
		for i := 1; i < len(res.Moves); i++ {
			if res.Moves[i].ExpectedWinrate > res.Moves[i-1].ExpectedWinrate {
				t.Fatalf("moves not sorted: %+v", res.Moves)
			}
		}
	}
	var out, errb bytes.Buffer
	env := &Env{Stdout: &out, Stderr: &errb, Stdin: strings.NewReader("")}
	if code := run(context.Background(), []string{"ewr", "--fen", "8/8/4k3/8/2K1P3/8/8/8 w - - 0 50", "--store", db, "--tree", best}, env); code != 0 {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	for _, want := range []string{"Expected Win Rate", "cached", best + ": expected win rate"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("text output lacks %q:\n%s", want, out.String())
		}
	}
}

// TestReadCompareRef: the exact sides of a --compare-save file by
// position; B sides are skipped; a bad record is named.
func TestReadCompareRef(t *testing.T) {
	dir := t.TempDir()
	good := filepath.Join(dir, "good.jsonl")
	a := ewr.CompareSide{Side: "A", Position: "start", Params: ewr.DefaultParams(), Nodes: 7, Result: &ewr.Result{BaseWinrate: 0.53}}
	b := a
	b.Side, b.Nodes = "B", 3
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	require.NoError(t, enc.Encode(a))
	require.NoError(t, enc.Encode(b))
	require.NoError(t, os.WriteFile(good, buf.Bytes(), 0o600))
	refs, err := readCompareRef(good)
	require.NoError(t, err)
	require.Len(t, refs, 1)
	assert.Equal(t, int64(7), refs["start"].Nodes)
	assert.Equal(t, 0.53, refs["start"].Result.BaseWinrate)

	bad := filepath.Join(dir, "bad.jsonl")
	require.NoError(t, os.WriteFile(bad, append(buf.Bytes(), "{oops\n"...), 0o600))
	_, err = readCompareRef(bad)
	assert.ErrorContains(t, err, "record 3")
	_, err = readCompareRef(filepath.Join(dir, "missing.jsonl"))
	assert.ErrorContains(t, err, "--compare-ref")
}

// needEWRParts skips a test of the real calculation in -short mode or
// when Stockfish 15.1 or the Maia-1 1500 weights are not installed.
func needEWRParts(t *testing.T) {
	t.Helper()
	if testing.Short() {
		t.Skip("short mode")
	}
	if _, err := enginepath.Stockfish15Command(); err != nil {
		t.Skip(err)
	}
	cfg, err := models.LoadConfig()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(cfg.Maia1Weights(1500)); err != nil {
		t.Skipf("Maia-1 weights not installed; run `%s`", models.FetchCommand)
	}
}

// TestEWRMode: the calculation's mode from --exact, --fast and
// --tree-depth — the settle mode unless one is given, "" for a
// --tree-depth variant, an error for two.
func TestEWRMode(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
		err  bool
	}{
		{nil, ewr.ModeSettle, false},
		{[]string{"--exact"}, ewr.ModeExact, false},
		{[]string{"--fast"}, ewr.ModeFast, false},
		{[]string{"--tree-depth", "13"}, "", false},
		{[]string{"--exact", "--fast"}, "", true},
		{[]string{"--fast", "--tree-depth", "13"}, "", true},
	} {
		fs := flag.NewFlagSet("ewr", flag.ContinueOnError)
		exact := fs.Bool("exact", false, "")
		fast := fs.Bool("fast", false, "")
		fs.Int("tree-depth", 0, "")
		if err := fs.Parse(c.args); err != nil {
			t.Fatal(err)
		}
		got, err := ewrMode(fs, *exact, *fast)
		if (err != nil) != c.err || (err == nil && got != c.want) {
			t.Errorf("%v: mode %q, error %v; want %q, error %v", c.args, got, err, c.want, c.err)
		}
	}
}
