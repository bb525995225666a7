package sandbox

import (
	"fmt"
	"net/url"
	"strings"
	"testing"

	"github.com/outpostchess/outpost/bots/board"
)

// TestChess960Game plays a Chess960 game from a given start position (the
// standard array, number 518, where the difference shows in the moves):
// castling is written king takes rook in the game's moves, accepted in
// either spelling, written O-O in SAN, and the PGN carries the variant and
// the start position as Lichess exports them.
func TestChess960Game(t *testing.T) {
	e := newEnv(t, Config{})
	id := e.startGame(url.Values{"clock.limit": {"60"}, "clock.increment": {"0"}, "color": {"white"},
		"variant": {"chess960"}, "fen": {board.StartFEN}})
	e.play(id, "e2e4", "e7e5", "g1f3", "g8f6", "f1c4", "f8c5", "e1h1", "e8g8")
	g := e.snapshot(id)
	if got := strings.Join(g.Moves[6:], " "); got != "e1h1 e8h8" {
		t.Errorf("castling moves %q, want e1h1 e8h8", got)
	}
	if got := strings.Join(g.SAN[6:], " "); got != "O-O O-O" {
		t.Errorf("castling SAN %q", got)
	}
	if g.InitialFEN != board.StartFEN || !strings.HasPrefix(g.FEN, "rnbq1rk1/") {
		t.Errorf("initial %q, now %q", g.InitialFEN, g.FEN)
	}
	_, b := e.do("", "GET", "/game/export/"+id+"?clocks=false", nil)
	for _, want := range []string{`[Variant "Chess960"]`, `[FEN "` + board.StartFEN + `"]`, `[SetUp "1"]`, "4. O-O O-O"} {
		if !strings.Contains(string(b), want) {
			t.Errorf("PGN lacks %s:\n%s", want, b)
		}
	}
}

// TestChess960Challenges checks the challenge rules: without a position
// Lichess draws one of the 960, a given position must be one of them, and
// fromPosition stays for any other legal position.
func TestChess960Challenges(t *testing.T) {
	e := newEnv(t, Config{})
	id := e.startGame(url.Values{"clock.limit": {"60"}, "clock.increment": {"0"}, "variant": {"chess960"}})
	g := e.snapshot(id)
	if _, ok := board.Chess960Number(g.InitialFEN); !ok {
		t.Errorf("random Chess960 game starts from %q", g.InitialFEN)
	}
	st := e.open(tokBot1, "/api/bot/game/stream/"+id)
	full := st.nextType("gameFull")
	st.close()
	if v, _ := full["variant"].(map[string]any); v["key"] != "chess960" || full["initialFen"] != g.InitialFEN {
		t.Errorf("gameFull variant %v initialFen %v", full["variant"], full["initialFen"])
	}
	code, resp := e.post(tokAlice, "/api/challenge/bot1", url.Values{"variant": {"chess960"},
		"fen": {"rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"}})
	if code != 400 || !strings.Contains(fmt.Sprint(resp), "not a Chess960 starting position") {
		t.Errorf("non-start Chess960 FEN: %d %v", code, resp)
	}
	code, resp = e.post(tokAlice, "/api/challenge/bot1", url.Values{"variant": {"crazyhouse"}})
	if code != 200 {
		t.Errorf("crazyhouse challenge (created and delivered, see TestEveryLichessVariantChallenge): %d %v", code, resp)
	}
	id = e.startGame(url.Values{"fen": {"4k3/8/8/8/8/8/8/R3K2R w KQ - 0 1"}, "color": {"white"}})
	if v := e.snapshot(id); v.InitialFEN == "" {
		t.Errorf("fromPosition game without its FEN")
	}
}
