package sandbox

import (
	"encoding/json"
	"net/url"
	"strconv"
	"strings"
	"testing"
	"time"
)

// ip returns a pointer to n.
func ip(n int) *int { return &n }

// playedGame plays a short decided game (fool's mate) with a fake clock
// and returns the env, clock and game id.
func playedGame(t *testing.T) (*testEnv, *fakeClock, string) {
	clk := &fakeClock{t: time.Date(2026, 3, 4, 12, 30, 0, 0, time.UTC)}
	e := newEnv(t, Config{Now: clk.now})
	id := e.startGame(url.Values{"clock.limit": {"180"}, "clock.increment": {"2"}, "color": {"white"}, "rated": {"true"}})
	for i, m := range []string{"f2f3", "e7e5", "g2g4", "d8h4"} {
		clk.add(3 * time.Second)
		if i%2 == 0 {
			e.mustOK(tokAlice, "/api/board/game/"+id+"/move/"+m, nil)
		} else {
			e.mustOK(tokBot1, "/api/bot/game/"+id+"/move/"+m, nil)
		}
	}
	return e, clk, id
}

// analysis is a four-ply analysis of fool's mate with one blunder.
func foolsAnalysis() Analysis {
	return Analysis{
		Moves: []MoveAnalysis{
			{Eval: ip(-20)},
			{Eval: ip(0)},
			{Mate: ip(-1), Best: "e2e4", Variation: "e4 Qh4 Nc3", Judgment: &Judgment{Name: "Blunder", Comment: "Checkmate is now unavoidable. e4 was best."}},
			{},
		},
		White: PlayerAnalysis{Blunder: 1, ACPL: 300, Accuracy: ip(40)},
		Black: PlayerAnalysis{ACPL: 5, Accuracy: ip(99)},
	}
}

// TestExportPGN checks the PGN export with clocks, evals and literate.
func TestExportPGN(t *testing.T) {
	e, _, id := playedGame(t)
	if err := e.srv.AttachAnalysis(id, foolsAnalysis()); err != nil {
		t.Fatal(err)
	}
	code, b := e.do("", "GET", "/game/export/"+id+"?literate=true", nil)
	pgn := string(b)
	if code != 200 {
		t.Fatalf("%d %s", code, b)
	}
	for _, want := range []string{
		`[Event "Rated Blitz game"]`, `[White "Alice"]`, `[Black "bot1"]`, `[Result "0-1"]`, `[GameId "` + id + `"]`,
		`[UTCDate "2026.03.04"]`, `[WhiteElo "1600"]`, `[BlackTitle "BOT"]`, `[TimeControl "180+2"]`, `[Termination "Normal"]`,
		`[Annotator "lichess.org"]`,
		`1. f3 { [%eval -0.2] [%clk 0:03:00] } 1... e5 { [%eval 0.0] [%clk 0:03:00] } 2. g4?? { (0.00 → Mate in 1) Checkmate is now unavoidable. e4 was best. } { [%eval #-1] [%clk 0:02:59] } (2. e4 Qh4 3. Nc3) 2... Qh4# { [%clk 0:02:59] } 0-1`,
	} {
		if !strings.Contains(pgn, want) {
			t.Errorf("missing %q in\n%s", want, pgn)
		}
	}
	// Without evals or clocks: bare movetext.
	_, b = e.do("", "GET", "/game/export/"+id+"?evals=false&clocks=false", nil)
	if !strings.Contains(string(b), "\n1. f3 e5 2. g4 Qh4# 0-1\n") || strings.Contains(string(b), "Annotator") {
		t.Fatalf("plain export:\n%s", b)
	}
	got, err := e.srv.ExportPGN(id)
	if err != nil || !strings.Contains(got, "2. g4??") {
		t.Fatalf("ExportPGN: %v\n%s", err, got)
	}
	if _, err := e.srv.ExportPGN("nope"); err == nil {
		t.Fatal("ExportPGN of an unknown game")
	}
}

// TestExportJSON checks the JSON export and the attached analysis.
func TestExportJSON(t *testing.T) {
	e, _, id := playedGame(t)
	if err := e.srv.AttachAnalysis(id, Analysis{Moves: foolsAnalysis().Moves[:2]}); err == nil {
		t.Fatal("analysis of the wrong length accepted")
	}
	if err := e.srv.AttachAnalysis(id, foolsAnalysis()); err != nil {
		t.Fatal(err)
	}
	code, b := e.do("", "GET", "/game/export/"+id+"?accuracy=true&pgnInJson=true", nil, "Accept", "application/json")
	if code != 200 {
		t.Fatalf("%d %s", code, b)
	}
	var g struct {
		ID, Status, Winner, Moves, Speed, PGN string
		Rated                                 bool
		Players                               map[string]struct {
			User     struct{ ID, Name string }
			Rating   int
			Analysis struct{ Blunder, ACPL, Accuracy int }
		}
		Analysis []struct {
			Eval     *int
			Mate     *int
			Best     string
			Judgment *struct{ Name, Comment string }
		}
		Clock  struct{ Initial, Increment, TotalTime int }
		Clocks []int
	}
	if err := json.Unmarshal(b, &g); err != nil {
		t.Fatal(err)
	}
	if g.ID != id || g.Status != "mate" || g.Winner != "black" || g.Moves != "f3 e5 g4 Qh4#" || !g.Rated || g.Speed != "blitz" {
		t.Fatalf("game %+v", g)
	}
	if g.Players["white"].Analysis.Blunder != 1 || g.Players["white"].Analysis.Accuracy != 40 || g.Players["black"].User.ID != "bot1" {
		t.Fatalf("players %+v", g.Players)
	}
	// the checkmated final position has no entry, as on Lichess
	if len(g.Analysis) != 3 || *g.Analysis[2].Mate != -1 || g.Analysis[2].Judgment.Name != "Blunder" || g.Analysis[2].Best != "e2e4" {
		t.Fatalf("analysis %+v", g.Analysis)
	}
	if g.Clock.Initial != 180 || g.Clock.TotalTime != 260 || len(g.Clocks) != 4 || g.Clocks[0] != 18000 || g.Clocks[2] != 17900 {
		t.Fatalf("clock %+v clocks %v", g.Clock, g.Clocks)
	}
	if !strings.Contains(g.PGN, "[%eval #-1]") {
		t.Fatalf("pgnInJson: %s", g.PGN)
	}
	code, _ = e.do("", "GET", "/game/export/zzzzzzzz", nil, "Accept", "application/json")
	if code != 404 {
		t.Fatalf("unknown game: %d", code)
	}
}

// TestUserGames checks the ndjson list of a user's games and its filters.
func TestUserGames(t *testing.T) {
	e, clk, first := playedGame(t)
	if err := e.srv.AttachAnalysis(first, foolsAnalysis()); err != nil {
		t.Fatal(err)
	}
	clk.add(time.Hour)
	second := e.startGame(url.Values{"days": {"1"}, "color": {"white"}})
	e.mustOK(tokAlice, "/api/board/game/"+second+"/resign", nil) // aborts: no move yet
	clk.add(time.Hour)
	ongoing := e.startGame(nil)
	list := func(query string) []map[string]any {
		t.Helper()
		code, b := e.do(tokBot1, "GET", "/api/games/user/bot1?"+query, nil, "Accept", "application/x-ndjson")
		if code != 200 {
			t.Fatalf("%s: %d %s", query, code, b)
		}
		var out []map[string]any
		for _, l := range strings.Split(strings.TrimSpace(string(b)), "\n") {
			if l != "" {
				out = append(out, decode(t, []byte(l)))
			}
		}
		return out
	}
	ids := func(gs []map[string]any) string {
		var s []string
		for _, g := range gs {
			s = append(s, g["id"].(string))
		}
		return strings.Join(s, ",")
	}
	if got := ids(list("")); got != second+","+first {
		t.Fatalf("default (finished, newest first): %s", got)
	}
	if got := ids(list("ongoing=true&finished=false")); got != ongoing {
		t.Fatalf("ongoing: %s", got)
	}
	if got := ids(list("max=1")); got != second {
		t.Fatalf("max: %s", got)
	}
	if got := ids(list("analysed=true&evals=true")); got != first {
		t.Fatalf("analysed: %s", got)
	}
	if g := list("analysed=true&evals=true")[0]; g["analysis"] == nil {
		t.Fatalf("evals: %v", g)
	}
	if g := list("analysed=true")[0]; g["analysis"] != nil {
		t.Fatalf("evals default off: %v", g)
	}
	if got := ids(list("perfType=correspondence")); got != second {
		t.Fatalf("perfType: %s", got)
	}
	since := clk.now().Add(-90 * time.Minute).UnixMilli()
	if got := ids(list("since=" + itoa64(since))); got != second {
		t.Fatalf("since: %s", got)
	}
	if got := ids(list("until=" + itoa64(since) + "&sort=dateAsc")); got != first {
		t.Fatalf("until: %s", got)
	}
	code, b := e.do("", "GET", "/api/games/user/bot1?max=1", nil)
	if code != 200 || !strings.HasPrefix(string(b), `[Event "Casual Correspondence game"]`) {
		t.Fatalf("PGN list: %d %s", code, b)
	}
}

// itoa64 formats an int64.
func itoa64(n int64) string { return strconv.FormatInt(n, 10) }

// TestCloudEval checks the 404 and an attached evaluation.
func TestCloudEval(t *testing.T) {
	e := newEnv(t, Config{})
	fen := "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"
	code, m := e.get("", "/api/cloud-eval?fen="+url.QueryEscape(fen))
	if code != 404 || m["error"] != "No cloud evaluation available for that position" {
		t.Fatalf("%d %v", code, m)
	}
	if err := e.srv.AttachCloudEval(fen, CloudEval{Depth: 30, Knodes: 1000, PVs: []CloudPV{
		{CP: ip(25), Moves: "c7c5 g1f3"}, {Mate: ip(-9), Moves: "e7e5"},
	}}); err != nil {
		t.Fatal(err)
	}
	if err := e.srv.AttachCloudEval("bad", CloudEval{}); err == nil {
		t.Fatal("bad FEN accepted")
	}
	// Move counters do not matter; multiPv limits the lines.
	other := strings.Replace(fen, " 0 1", " 3 9", 1)
	code, m = e.get(tokBot1, "/api/cloud-eval?multiPv=1&fen="+url.QueryEscape(other))
	pvs := m["pvs"].([]any)
	if code != 200 || m["depth"] != 30.0 || len(pvs) != 1 || pvs[0].(map[string]any)["cp"] != 25.0 {
		t.Fatalf("%d %v", code, m)
	}
	_, m = e.get("", "/api/cloud-eval?multiPv=5&fen="+url.QueryEscape(fen))
	if pvs := m["pvs"].([]any); len(pvs) != 2 || pvs[1].(map[string]any)["mate"] != -9.0 {
		t.Fatalf("multiPv 5: %v", m)
	}
}
