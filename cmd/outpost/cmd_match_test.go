package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

func TestMatchCommandJSON(t *testing.T) {
	ops := filepath.Join(t.TempDir(), "openings.txt")
	if err := os.WriteFile(ops, []byte("1. e4 e5 2. Nf3 Nc6\nrnbqkbnr/pppppppp/8/8/3P4/8/PPP1PPPP/RNBQKBNR b KQkq - 0 1\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	code, out, errOut := runCLI(t, "", "--log-level", "warn", "match", "--engine-a", "easy", "--engine-b", "easy",
		"--games", "2", "--tc", "0.02", "--openings", ops, "--json", "--pgn", filepath.Join(filepath.Dir(ops), "games.pgn"))
	if code != 0 {
		t.Fatalf("code %d, stderr %s", code, errOut)
	}
	var m map[string]any
	if err := json.Unmarshal([]byte(out), &m); err != nil {
		t.Fatalf("output %q: %v", out, err)
	}
	var keys []string
	for k := range m {
		keys = append(keys, k)
	}
	want := []string{"games", "wins_a", "wins_b", "draws", "score_a", "elo_diff", "elo_error", "los"}
	if len(keys) != len(want) || !strings.HasPrefix(out, `{"games":2,"wins_a":`) {
		t.Errorf("JSON keys %v, output %q", keys, out)
	}
	for _, k := range want {
		if _, ok := m[k]; !ok {
			t.Errorf("missing %q", k)
		}
	}
	if g := m["wins_a"].(float64) + m["wins_b"].(float64) + m["draws"].(float64); g != 2 {
		t.Errorf("results add up to %v", g)
	}
	pgn, err := os.ReadFile(filepath.Join(filepath.Dir(ops), "games.pgn"))
	if err != nil || strings.Count(string(pgn), "[Event ") != 2 || !strings.Contains(string(pgn), "1. e4 e5 2. Nf3 Nc6") {
		t.Errorf("PGN file %q, %v", pgn, err)
	}
}

// TestMatchCommandSPRT: a fixed-node SPRT between a known-better and a
// known-worse engine stops by itself with H1, well before its cap, and the
// JSON line carries the test under "sprt"; the report for people names the
// bounds and the decision.
func TestMatchCommandSPRT(t *testing.T) {
	code, out, errOut := runCLI(t, "", "--log-level", "warn", "match", "--engine-a", "medium", "--engine-b", "easy",
		"--nodes", "1000", "--sprt", "0,200", "--concurrency", "1", "--json")
	if code != 0 {
		t.Fatalf("code %d, stderr %s", code, errOut)
	}
	var m struct {
		Games int `json:"games"`
		SPRT  *struct {
			Pairs    int     `json:"pairs"`
			LLR      float64 `json:"llr"`
			Upper    float64 `json:"upper"`
			Decision string  `json:"decision"`
		} `json:"sprt"`
	}
	if err := json.Unmarshal([]byte(out), &m); err != nil {
		t.Fatalf("output %q: %v", out, err)
	}
	if m.SPRT == nil || m.SPRT.Decision != "H1" || m.SPRT.LLR < m.SPRT.Upper || m.Games != 2*m.SPRT.Pairs || m.Games > 100 {
		t.Errorf("output %q", out)
	}
	code, out, errOut = runCLI(t, "", "--log-level", "warn", "match", "--engine-a", "medium", "--engine-b", "medium",
		"--nodes", "300", "--sprt", "0,200", "--concurrency", "1")
	if code != 0 || !strings.Contains(out, "SPRT [0, 200] α=0.05 β=0.05: ") || !strings.Contains(out, "H0 accepted (A ≤ +0 Elo)") {
		t.Errorf("code %d, output %q, stderr %q", code, out, errOut)
	}
}

func TestMatchCommandErrors(t *testing.T) {
	for _, tc := range []struct {
		args []string
		code int
		msg  string
	}{
		{[]string{"match", "--engine-a", "easy"}, 2, "usage"},
		{[]string{"match", "--engine-a", "easy", "--engine-b", "grandmaster", "--games", "1"}, 1, "unknown engine"},
		{[]string{"match", "--engine-a", "easy", "--engine-b", "easy", "--tc", "0"}, 1, "--tc"},
		{[]string{"match", "--engine-a", "easy", "--engine-b", "easy", "--openings", "/nonexistent"}, 1, "nonexistent"},
		{[]string{"match", "--engine-a", "easy", "--engine-b", "easy", "--sprt", "10,0"}, 1, "--sprt"},
		{[]string{"match", "--engine-a", "easy", "--engine-b", "easy", "--sprt", "x"}, 1, "--sprt"},
		{[]string{"match", "--engine-a", "easy", "--engine-b", "easy", "--nodes", "-5"}, 1, "--nodes"},
		{[]string{"ladder"}, 2, "usage"},
		{[]string{"ladder", "--engine", "easy", "--rungs", "1500,1400"}, 1, "does not increase"},
		{[]string{"uci", "--engine", "nope"}, 1, "unknown engine"},
	} {
		code, _, errOut := runCLI(t, "", append([]string{"--log-level", "off"}, tc.args...)...)
		if code != tc.code || !strings.Contains(errOut, tc.msg) {
			t.Errorf("%v: code %d, stderr %q; want %d and %q", tc.args, code, errOut, tc.code, tc.msg)
		}
	}
}

func TestParseRungs(t *testing.T) {
	got, err := parseRungs(" 1350, 1600,2100 ")
	if err != nil || !reflect.DeepEqual(got, []int{1350, 1600, 2100}) {
		t.Errorf("parseRungs = %v, %v", got, err)
	}
	if got, err := parseRungs(""); got != nil || err != nil {
		t.Errorf("empty: %v, %v", got, err)
	}
	if _, err := parseRungs("1350,x"); err == nil {
		t.Error("bad rung accepted")
	}
}

func TestUCICommand(t *testing.T) {
	code, out, errOut := runCLI(t, "uci\nisready\nposition startpos moves e2e4\ngo depth 1\n", "--log-level", "off", "uci", "--engine", "easy")
	if code != 0 {
		t.Fatalf("code %d, stderr %s", code, errOut)
	}
	if !strings.Contains(out, "id name easy\n") || !strings.Contains(out, "uciok\nreadyok\n") || !strings.Contains(out, "bestmove ") {
		t.Errorf("output %q", out)
	}
}
