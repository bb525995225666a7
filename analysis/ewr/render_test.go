package ewr

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden files")

func scenarioResult(t *testing.T) *Result {
	t.Helper()
	pr, ev := scenario()
	res, err := (&Calculator{Prober: pr, Evaluator: ev}).Calculate(context.Background(), Position{}, DefaultParams(), Options{})
	if err != nil {
		t.Fatal(err)
	}
	res.CalcMS = 1234
	return res
}

func keys(m map[string]any) string {
	var ks []string
	for k := range m {
		ks = append(ks, k)
	}
	sort.Strings(ks)
	return strings.Join(ks, " ")
}

func TestJSONSchema(t *testing.T) {
	res := scenarioResult(t)
	data, err := json.Marshal(res)
	if err != nil {
		t.Fatal(err)
	}
	var top map[string]any
	if err := json.Unmarshal(data, &top); err != nil {
		t.Fatal(err)
	}
	if got, want := keys(top), "base_winrate cached calc_ms moves params trees"; got != want {
		t.Errorf("top-level keys %q, want %q", got, want)
	}
	if got, want := keys(top["params"].(map[string]any)), "depth loss_threshold maia_rating max_nodes opponent_maia_rating threshold"; got != want {
		t.Errorf("params keys %q, want %q", got, want)
	}
	moves := top["moves"].([]any)
	if got, want := keys(moves[0].(map[string]any)), "branches confidence confidence_label coverage expected_winrate san stockfish_winrate tree_depth uci"; got != want {
		t.Errorf("move keys %q, want %q", got, want)
	}
	if moves[0].(map[string]any)["san"] != "d4" {
		t.Errorf("moves not best first: %v", moves[0])
	}
	var walk func(n map[string]any)
	nodes := 0
	walk = func(n map[string]any) {
		nodes++
		if got, want := keys(n), "children cumulative_probability fen probability pruned pruning_reason san uci winrate"; got != want {
			t.Fatalf("node keys %q, want %q", got, want)
		}
		for _, c := range n["children"].([]any) {
			walk(c.(map[string]any))
		}
	}
	trees := top["trees"].(map[string]any)
	for _, san := range []string{"e4", "d4"} {
		walk(trees[san].(map[string]any))
	}
	if nodes < 10 {
		t.Errorf("only %d nodes", nodes)
	}
	// A result survives a round trip (the result cache relies on it).
	var back Result
	if err := json.Unmarshal(data, &back); err != nil || len(back.Moves) != 2 || back.Trees["e4"].Children[0].SAN != "e5" {
		t.Fatalf("round trip: %v %+v", err, back.Moves)
	}
}

func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.MkdirAll("testdata", 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run with -update to create)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs:\n--- got\n%s\n--- want\n%s", name, got, want)
	}
}

func TestTextGolden(t *testing.T) {
	res := scenarioResult(t)
	var b bytes.Buffer
	if err := WriteTable(&b, res); err != nil {
		t.Fatal(err)
	}
	b.WriteString("\n")
	if err := WriteTree(&b, res, "e4"); err != nil {
		t.Fatal(err)
	}
	golden(t, "scenario.txt", b.Bytes())
	if err := WriteTree(&b, res, "Nf3"); err == nil || !strings.Contains(err.Error(), "candidates: d4 e4") {
		t.Errorf("unknown move: %v", err)
	}
	if err := WriteTree(&bytes.Buffer{}, res, "d2d4"); err != nil {
		t.Errorf("tree by UCI: %v", err)
	}
}
