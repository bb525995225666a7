package report

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/outpostchess/outpost/analysis"
	"github.com/outpostchess/outpost/analysis/input"
)

func sharedAnalyses(t *testing.T) []*analysis.Analysis {
	t.Helper()
	files, _ := filepath.Glob(filepath.Join(sharedGames, "*.pgn"))
	if len(files) == 0 {
		t.Skip("shared Lichess games not found")
	}
	var out []*analysis.Analysis
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, lichessAnalysis(t, data, filepath.Base(f)))
	}
	return out
}

// lichessAnalysis builds the first game of a PGN from its Lichess evals and
// compares it with them.
func lichessAnalysis(t *testing.T, data []byte, name string) *analysis.Analysis {
	t.Helper()
	games, errs := input.ReadPGN(bytes.NewReader(data), name)
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	a, err := analysis.BuildLichess(games[0])
	if err != nil {
		t.Fatal(err)
	}
	if err := a.CompareWithLichess(); err != nil {
		t.Fatal(err)
	}
	return a
}

func TestTextReport(t *testing.T) {
	as := sharedAnalyses(t)
	var b bytes.Buffer
	if err := WriteText(&b, as, []string{"bad.pgn: game 2: broken"}); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	for _, want := range []string{
		"Game q7ZvsdUF: Lance5500 (2389) vs TryingHard87 (2498), 1/2-1/2 (lichess-evals)",
		"  27  14. Qf3?        +0.44  Mistake     Nd3      (1.90 → 0.44)",
		"White Lance5500                    90    26           5        2        1",
		"Lichess comparison: judgements 15 Lichess / 15 ours / 15 same name",
		"All 8 compared games: judgements 133 Lichess / 133 ours / 133 same name (1.00); flagged P 1.00 R 1.00 F1 1.00",
		"Skipped:\n  bad.pgn: game 2: broken",
		"#-2",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("text report lacks %q", want)
		}
	}
}

func TestJSONReport(t *testing.T) {
	as := sharedAnalyses(t)
	var b bytes.Buffer
	if err := WriteJSON(&b, Document{Games: as, Errors: []string{"x"}, Aggregate: AggregateComparisons(as)}); err != nil {
		t.Fatal(err)
	}
	var doc map[string]any
	if err := json.Unmarshal(b.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	games := doc["games"].([]any)
	if len(games) != len(as) {
		t.Fatalf("%d games", len(games))
	}
	agg := doc["aggregate"].(map[string]any)
	j := agg["judgments"].(map[string]any)
	if j["lichess"].(float64) != 133 || j["exact"].(float64) != 133 || agg["f1"].(float64) != 1 {
		t.Errorf("aggregate %v", agg)
	}
	g := games[0].(map[string]any)
	for _, key := range []string{"id", "players", "result", "plies", "comparison", "engine"} {
		if _, ok := g[key]; !ok {
			t.Errorf("game lacks %q", key)
		}
	}
	ply := g["plies"].([]any)[0].(map[string]any)
	for _, key := range []string{"ply", "san", "uci", "eval", "best_uci", "best_san", "judgment"} {
		if _, ok := ply[key]; !ok {
			t.Errorf("ply lacks %q: %v", key, ply)
		}
	}
	var empty bytes.Buffer
	if err := WriteJSON(&empty, Document{}); err != nil || !strings.Contains(empty.String(), `"games": []`) {
		t.Errorf("empty doc %q %v", empty.String(), err)
	}
}

func TestAggregateNilWithoutComparisons(t *testing.T) {
	if AggregateComparisons([]*analysis.Analysis{{}}) != nil {
		t.Error("aggregate of games without comparison")
	}
}

func TestWritePGNSeparatesGames(t *testing.T) {
	as := sharedAnalyses(t)[:2]
	var b bytes.Buffer
	if err := WritePGN(&b, as, DefaultPGNOptions); err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(b.String(), "\n\n\n["); n != 1 {
		t.Errorf("%d game separators", n)
	}
}

// TestTextReportNamesStandIn: a game whose Site is another server's (a
// game exported from `outpost sandbox`) is compared with that server's
// analysis, and the report says so instead of "Lichess" (issue 35).
func TestTextReportNamesStandIn(t *testing.T) {
	data, err := os.ReadFile(filepath.Join(sharedGames, "q7ZvsdUF.pgn"))
	if err != nil {
		t.Skip("shared Lichess games not found")
	}
	data = bytes.Replace(data, []byte(`[Site "https://lichess.org/q7ZvsdUF"]`), []byte(`[Site "http://127.0.0.1:9663/q7ZvsdUF"]`), 1)
	a := lichessAnalysis(t, data, "q7ZvsdUF.pgn")
	var b bytes.Buffer
	if err := WriteText(&b, []*analysis.Analysis{a}, nil); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	want := "Comparison with the Lichess stand-in at 127.0.0.1:9663 (not Lichess): judgements 15 stand-in / 15 ours"
	if !strings.Contains(out, want) {
		t.Errorf("text report lacks %q:\n%s", want, out)
	}
	if strings.Contains(out, "Lichess comparison") {
		t.Errorf("text report still says %q for the stand-in's analysis", "Lichess comparison")
	}
}
