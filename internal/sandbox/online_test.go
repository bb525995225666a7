package sandbox

import (
	"context"
	"net/url"
	"testing"

	"github.com/outpostchess/outpost/bots/board"
)

// TestExplorerSandboxAnswers: attached positions are answered in Lichess's
// shape (validated against the spec at cleanup), summed per move, most
// played first, filtered by speeds and ratings; unknown positions answer
// no moves; bad parameters are 400s naming what was wrong.
func TestExplorerSandboxAnswers(t *testing.T) {
	e := newEnv(t, Config{})
	after := "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"
	if err := e.srv.AttachExplorer("lichess", after, []ExplorerMove{
		{UCI: "e7e5", White: 3, Draws: 1, Black: 2, Speed: "blitz", Rating: 1700},
		{UCI: "c7c5", White: 1, Black: 4, Speed: "bullet", Rating: 2100},
		{UCI: "e7e5", White: 1, Speed: "blitz", Rating: 1650},
	}); err != nil {
		t.Fatal(err)
	}
	if err := e.srv.AttachExplorer("masters", board.StartFEN, []ExplorerMove{{UCI: "d2d4", White: 5, Draws: 5}}); err != nil {
		t.Fatal(err)
	}
	q := func(path string, v url.Values) (int, map[string]any) { return e.get("", path+"?"+v.Encode()) }
	tests := []struct {
		name   string
		path   string
		params url.Values
		moves  []string
		games  []float64
	}{
		{"all of lichess", "/lichess", url.Values{"fen": {after}}, []string{"e7e5", "c7c5"}, []float64{7, 5}},
		{"by play", "/lichess", url.Values{"play": {"e2e4"}}, []string{"e7e5", "c7c5"}, []float64{7, 5}},
		{"bullet only", "/lichess", url.Values{"fen": {after}, "speeds": {"bullet"}}, []string{"c7c5"}, []float64{5}},
		{"1600 group", "/lichess", url.Values{"fen": {after}, "ratings": {"1600"}}, []string{"e7e5"}, []float64{7}},
		{"masters", "/masters", url.Values{"fen": {board.StartFEN}}, []string{"d2d4"}, []float64{10}},
		{"unknown position", "/masters", url.Values{"fen": {after}}, nil, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			code, m := q(tc.path, tc.params)
			if code != 200 {
				t.Fatalf("status %d: %v", code, m)
			}
			moves := m["moves"].([]any)
			if len(moves) != len(tc.moves) {
				t.Fatalf("moves %v, want %v", moves, tc.moves)
			}
			for i, mv := range moves {
				row := mv.(map[string]any)
				n := row["white"].(float64) + row["draws"].(float64) + row["black"].(float64)
				if row["uci"] != tc.moves[i] || n != tc.games[i] {
					t.Errorf("move %d: %v with %v games, want %s with %v", i, row["uci"], n, tc.moves[i], tc.games[i])
				}
			}
		})
	}
	wantGetError(e, "", "/lichess?speeds=hyperBullet", 400, "Invalid speed: hyperBullet")
	wantGetError(e, "", "/lichess?ratings=1500", 400, "Invalid rating group: 1500")
	wantGetError(e, "", "/masters?play=e2e5", 400, "Illegal move: e2e5")
	if err := e.srv.AttachExplorer("masters", board.StartFEN, []ExplorerMove{{UCI: "e2e5"}}); err == nil {
		t.Error("an illegal attached move was accepted")
	}
}

// TestExplorerSandboxLearnsFinishedGames: a finished game's opening is in
// the lichess database afterwards, under the game's speed.
func TestExplorerSandboxLearnsFinishedGames(t *testing.T) {
	e := newEnv(t, Config{})
	id := e.startGame(url.Values{"clock.limit": {"180"}, "clock.increment": {"0"}, "color": {"white"}})
	e.play(id, "e2e4", "e7e5")
	e.mustOK(tokBot1, "/api/bot/game/"+id+"/resign", nil)
	code, m := e.get("", "/lichess?play=e2e4&speeds=blitz")
	if code != 200 {
		t.Fatalf("status %d", code)
	}
	moves := m["moves"].([]any)
	if len(moves) != 1 || moves[0].(map[string]any)["uci"] != "e7e5" {
		t.Fatalf("moves %v, want e7e5 once", moves)
	}
	if _, m = e.get("", "/lichess?play=e2e4&speeds=bullet"); len(m["moves"].([]any)) != 0 {
		t.Errorf("a blitz game counted under bullet: %v", m)
	}
}

// TestTablebaseSandboxMateSearch: with the mate-search prober the sandbox
// answers a king-and-queen mate in one as Lichess would: the position a
// win in 1 ply, the mating move first (checkmate, the opponent's loss),
// unresolved moves "unknown"; more than 7 pieces or castling rights are
// "unknown" with no moves.
func TestTablebaseSandboxMateSearch(t *testing.T) {
	e := newEnv(t, Config{Tablebase: MateSearchProber{MaxPlies: 3}})
	code, m := e.get("", "/standard?fen="+url.QueryEscape("7k/8/6K1/8/8/8/8/5Q2 w - - 0 1"))
	if code != 200 {
		t.Fatalf("status %d: %v", code, m)
	}
	if m["category"] != "win" || m["dtm"] != 1.0 {
		t.Errorf("root %v dtm %v, want win in 1", m["category"], m["dtm"])
	}
	first := m["moves"].([]any)[0].(map[string]any)
	if first["uci"] != "f1f8" || first["checkmate"] != true || first["category"] != "loss" || first["san"] != "Qf8#" {
		t.Errorf("first move %v, want Qf8# (checkmate)", first)
	}
	code, m = e.get("", "/standard?fen="+url.QueryEscape(board.StartFEN))
	if code != 200 || m["category"] != "unknown" || len(m["moves"].([]any)) != 0 {
		t.Errorf("start position: %d %v", code, m)
	}
	wantGetError(e, "", "/standard?fen=nonsense", 400, "Invalid fen: nonsense")
}

// TestTablebaseMateSearchProberExact: the prober's results on positions
// with known distances, and nothing claimed beyond its horizon.
func TestTablebaseMateSearchProberExact(t *testing.T) {
	tests := []struct {
		fen     string
		plies   int
		wdl     int
		dtm     int
		unknown bool
	}{
		{"7k/8/6K1/8/8/8/8/5Q2 w - - 0 1", 3, 2, 1, false},  // Qf8#
		{"5Q1k/8/6K1/8/8/8/8/8 b - - 0 1", 3, 0, 0, true},   // black mated already: not the prober's job
		{"7k/8/5QK1/8/8/8/8/8 b - - 0 1", 3, -2, -2, false}, // Kg8 forced, then Qf7#/Qd8# etc.
		{"8/8/8/3k4/8/8/8/K6R w - - 0 1", 5, 0, 0, true},    // KRK far from mate: beyond the horizon
		{"7k/8/6K1/8/8/8/8/5Q2 w - - 100 1", 3, 0, 0, true}, // the 50-move rule comes first
	}
	for _, tc := range tests {
		b, err := board.FromFEN(tc.fen)
		if err != nil {
			t.Fatal(err)
		}
		if !b.HasLegalMoves() {
			continue
		}
		p, err := MateSearchProber{MaxPlies: tc.plies}.Probe(context.Background(), b)
		if tc.unknown {
			if err != ErrTablebaseUnknown {
				t.Errorf("%s: %+v %v, want unknown", tc.fen, p, err)
			}
			continue
		}
		if err != nil || p.WDL != tc.wdl || p.DTM == nil || *p.DTM != tc.dtm {
			t.Errorf("%s: %+v (dtm %v) %v, want wdl %d dtm %d", tc.fen, p, p.DTM, err, tc.wdl, tc.dtm)
		}
	}
}

// wantGetError sends a GET and fails unless it answers status with msg.
func wantGetError(e *testEnv, token, path string, status int, msg string) {
	e.t.Helper()
	code, m := e.get(token, path)
	if code != status || m["error"] != msg {
		e.t.Fatalf("GET %s: got %d %v, want %d {error: %q}", path, code, m, status, msg)
	}
}
