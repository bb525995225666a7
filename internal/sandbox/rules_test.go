package sandbox

import (
	"fmt"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"
)

// TestMoveErrors checks Lichess's answers to bad moves and wrong APIs.
func TestMoveErrors(t *testing.T) {
	e := newEnv(t, Config{})
	id := e.startGame(nil)
	bot, board := "/api/bot/game/"+id, "/api/board/game/"+id
	tests := []struct {
		name, token, path string
		status            int
		msg               string
	}{
		{"not your turn", tokBot1, bot + "/move/e7e5", 400, "Not your turn, or game already over"},
		{"bad syntax", tokAlice, board + "/move/e2e9", 400, "Invalid UCI: e2e9"},
		{"garbage", tokAlice, board + "/move/hello", 400, "Invalid UCI: hello"},
		{"illegal", tokAlice, board + "/move/e2e5", 400, "Piece on e2 cannot move to e5"},
		{"empty square", tokAlice, board + "/move/e3e4", 400, "No piece on e3"},
		{"human on bot API", tokAlice, bot + "/move/e2e4", 403, "Missing scope: bot:play"},
		{"bot on board API", tokBot1, board + "/move/e7e5", 403, "Missing scope: board:play"},
		{"bad token", "nope", board + "/move/e2e4", 401, "No such token"},
		{"no token", "", board + "/move/e2e4", 401, "Missing authorization header"},
		{"not a player", tokBob, board + "/move/e2e4", 404, "No such game"},
		{"unknown game", tokAlice, "/api/board/game/zzzzzzzz/move/e2e4", 404, "No such game"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e.t = t
			e.wantError(tt.token, tt.path, tt.status, tt.msg)
		})
	}
	e.t = t
	if n := len(e.snapshot(id).Moves); n != 0 {
		t.Fatalf("a bad move was played: %d moves", n)
	}
	// Castling given king-to-rook is accepted as standard castling.
	e.play(id, "e2e4", "e7e5", "g1f3", "b8c6", "f1c4", "g8f6", "e1h1")
	if got := e.snapshot(id).Moves[6]; got != "e1g1" {
		t.Fatalf("castling recorded as %s", got)
	}
}

// TestGameEndings plays games to each rule-based end.
func TestGameEndings(t *testing.T) {
	tests := []struct {
		name, fen string
		moves     []string
		status    string
		winner    string
	}{
		{"fool's mate", "", []string{"f2f3", "e7e5", "g2g4", "d8h4"}, "mate", "black"},
		{"stalemate", "7k/8/5K2/6Q1/8/8/8/8 w - - 0 1", []string{"g5g6"}, "stalemate", ""},
		{"threefold repetition", "", []string{"g1f3", "g8f6", "f3g1", "f6g8", "g1f3", "g8f6", "f3g1", "f6g8"}, "draw", ""},
		// No black pawn can take on e3: the position after 1.e4 recurs at
		// plies 5 and 9 (counting the e3 square would miss the draw).
		{"threefold after a double push", "", []string{"e2e4", "g8f6", "g1f3", "f6g8", "f3g1", "g8f6", "g1f3", "f6g8", "f3g1"}, "draw", ""},
		{"fifty-move rule", "7k/8/8/8/8/8/R7/K7 w - - 99 80", []string{"a2b2"}, "draw", ""},
		{"insufficient material", "7k/8/8/8/8/8/1r6/K7 w - - 0 1", []string{"a1b2"}, "draw", ""},
		{"checkmate from position", "7k/8/6K1/8/8/8/8/R7 w - - 0 1", []string{"a1a8"}, "mate", "white"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := newEnv(t, Config{})
			form := url.Values{"clock.limit": {"300"}, "clock.increment": {"0"}, "color": {"white"}}
			if tt.fen != "" {
				form.Set("fen", tt.fen)
			}
			id, gs, _ := e.botGame(form)
			e.play(id, tt.moves...)
			g := e.snapshot(id)
			if g.Status != tt.status || g.Winner != tt.winner {
				t.Fatalf("status %q winner %q, want %q %q", g.Status, g.Winner, tt.status, tt.winner)
			}
			rest := gs.waitEnd()
			if len(rest) == 0 {
				t.Fatal("no final gameState")
			}
			last := decode(t, []byte(rest[len(rest)-1]))
			if last["status"] != tt.status || (tt.winner != "" && last["winner"] != tt.winner) {
				t.Fatalf("final state %v", last)
			}
			e.wantError(tokAlice, "/api/board/game/"+id+"/move/a1a2", 400, "Not your turn, or game already over")
		})
	}
}

// fakeClock is a settable clock for Config.Now.
type fakeClock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *fakeClock) now() time.Time { c.mu.Lock(); defer c.mu.Unlock(); return c.t }
func (c *fakeClock) add(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = c.t.Add(d)
}

// TestClocks checks time deduction, increment and flag fall on a move with
// an injectable clock.
func TestClocks(t *testing.T) {
	clk := &fakeClock{t: time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)}
	e := newEnv(t, Config{Now: clk.now})
	id := e.startGame(url.Values{"clock.limit": {"60"}, "clock.increment": {"2"}, "color": {"white"}})
	clk.add(5 * time.Second)
	e.play(id, "e2e4")
	clk.add(5 * time.Second)
	e.play(id, "", "e7e5")
	g := e.snapshot(id)
	if g.WhiteTime != 60*time.Second || g.BlackTime != 60*time.Second {
		t.Fatalf("clocks before both moved must not run: %v %v", g.WhiteTime, g.BlackTime)
	}
	clk.add(10 * time.Second)
	e.play(id, "g1f3")
	if g := e.snapshot(id); g.WhiteTime != 52*time.Second {
		t.Fatalf("white: %v, want 60-10+2", g.WhiteTime)
	}
	clk.add(61 * time.Second)
	e.wantError(tokBot1, "/api/bot/game/"+id+"/move/b8c6", 400, "Not your turn, or game already over")
	g = e.snapshot(id)
	if g.Status != "outoftime" || g.Winner != "white" || g.BlackTime != 0 {
		t.Fatalf("flag: %+v", g)
	}
}

// shortenWhiteClock leaves white d on its clock (to keep a flag test
// fast) and re-arms the game's flag timer.
func (e *testEnv) shortenWhiteClock(id string, d time.Duration) {
	e.srv.mu.Lock()
	defer e.srv.mu.Unlock()
	g := e.srv.games[id]
	g.remaining[white] = d
	e.srv.arm(g)
}

// TestFlagFallByTimer checks that a flag falls without any request.
func TestFlagFallByTimer(t *testing.T) {
	e := newEnv(t, Config{})
	id := e.startGame(nil)
	events := e.open(tokBot1, "/api/stream/event")
	events.nextType("gameStart")
	e.play(id, "e2e4", "e7e5")
	e.shortenWhiteClock(id, 150*time.Millisecond)
	fin := events.nextType("gameFinish")["game"].(map[string]any)
	if fin["status"].(map[string]any)["name"] != "outoftime" || fin["winner"] != "black" {
		t.Fatalf("gameFinish: %v", fin)
	}
}

// TestFlagWithoutMatingMaterial: the flag of a player whose opponent cannot
// mate is a draw.
func TestFlagWithoutMatingMaterial(t *testing.T) {
	e := newEnv(t, Config{})
	id := e.startGame(url.Values{"clock.limit": {"60"}, "clock.increment": {"0"}, "color": {"white"},
		"fen": {"4k3/8/8/8/8/8/4P3/4K2N w - - 0 1"}})
	e.play(id, "e2e3", "e8d7")
	e.shortenWhiteClock(id, 20*time.Millisecond)
	eventually(t, "flag", func() bool { return e.snapshot(id).Over() })
	if s := e.snapshot(id); s.Status != "outoftime" || s.Winner != "" {
		t.Fatalf("got %s winner %q", s.Status, s.Winner)
	}
}

// TestAbortAndResign checks abort only before both sides moved, and resign.
func TestAbortAndResign(t *testing.T) {
	e := newEnv(t, Config{})
	id := e.startGame(nil)
	e.mustOK(tokBot1, "/api/bot/game/"+id+"/abort", nil)
	if g := e.snapshot(id); g.Status != "aborted" || g.Winner != "" {
		t.Fatalf("abort at ply 0: %+v", g)
	}

	id = e.startGame(nil)
	e.play(id, "e2e4")
	e.mustOK(tokAlice, "/api/board/game/"+id+"/abort", nil)
	if g := e.snapshot(id); g.Status != "aborted" {
		t.Fatalf("abort at ply 1: %+v", g)
	}

	id = e.startGame(nil)
	e.play(id, "e2e4", "e7e5")
	e.wantError(tokBot1, "/api/bot/game/"+id+"/abort", 400, "This game can no longer be aborted")
	e.mustOK(tokBot1, "/api/bot/game/"+id+"/resign", nil)
	if g := e.snapshot(id); g.Status != "resign" || g.Winner != "white" {
		t.Fatalf("resign: %+v", g)
	}
	e.wantError(tokAlice, "/api/board/game/"+id+"/resign", 400, "This game cannot be resigned")

	// Resigning a game that can still be aborted aborts it, as on Lichess.
	id = e.startGame(nil)
	e.mustOK(tokAlice, "/api/board/game/"+id+"/resign", nil)
	if g := e.snapshot(id); g.Status != "aborted" {
		t.Fatalf("early resign: %+v", g)
	}
	// Cancel on an accepted, unplayed game aborts it.
	id = e.startGame(nil)
	e.mustOK(tokAlice, "/api/challenge/"+id+"/cancel", nil)
	if g := e.snapshot(id); g.Status != "aborted" {
		t.Fatalf("cancel: %+v", g)
	}
}

// noStartAfter150ms moves clk up to the 150ms no-start deadline of game id:
// the game is on 1ms before it and over at it, as noStart won by winner.
func (e *testEnv) noStartAfter150ms(clk *fakeClock, id, winner string) {
	e.t.Helper()
	clk.add(149 * time.Millisecond)
	if g := e.snapshot(id); g.Over() {
		e.t.Fatalf("over before the deadline (winner to be %s): %+v", winner, g)
	}
	clk.add(time.Millisecond)
	if g := e.snapshot(id); g.Status != "noStart" || g.Winner != winner {
		e.t.Fatalf("the loser never moved, want noStart won by %s: %+v", winner, g)
	}
}

// TestNoStart checks that a game whose first moves do not come ends as
// noStart, won by the side that did move. The sandbox runs on a fake clock:
// the deadline passes when the test moves the clock, however slowly the
// machine runs the test (its real-time timer only re-reads the clock).
func TestNoStart(t *testing.T) {
	clk := &fakeClock{t: time.Date(2026, 11, 26, 6, 0, 0, 0, time.UTC)}
	e := newEnv(t, Config{Now: clk.now, NoStartTimeout: 150 * time.Millisecond})
	id := e.pair(SourceLobby)
	gs := e.open(tokBot1, "/api/bot/game/stream/"+id)
	full := gs.nextType("gameFull")
	exp := full["state"].(map[string]any)["expiration"].(map[string]any)
	if exp["millisToMove"] != 150.0 {
		t.Fatalf("expiration %v", exp)
	}
	e.noStartAfter150ms(clk, id, "black")
	rest := gs.waitEnd()
	last := decode(t, []byte(rest[len(rest)-1]))
	if last["status"] != "noStart" || last["winner"] != "black" {
		t.Fatalf("white never moved, the stream says: %v", last)
	}

	// Black's deadline runs from White's first move.
	id = e.pair(SourceLobby)
	clk.add(100 * time.Millisecond)
	e.play(id, "e2e4")
	e.noStartAfter150ms(clk, id, "white")
}

// TestDrawOffers checks offers on moves, /draw/yes|no and their states.
func TestDrawOffers(t *testing.T) {
	e := newEnv(t, Config{})
	id, gs, _ := e.botGame(nil)
	e.mustOK(tokAlice, "/api/board/game/"+id+"/move/e2e4?offeringDraw=true", nil)
	if st := gs.nextType("gameState"); st["wdraw"] != true {
		t.Fatalf("offer on move: %v", st)
	}
	e.mustOK(tokBot1, "/api/bot/game/"+id+"/draw/no", nil)
	if st := gs.nextType("gameState"); st["wdraw"] != nil {
		t.Fatalf("declined offer still shown: %v", st)
	}
	e.mustOK(tokBot1, "/api/bot/game/"+id+"/draw/yes", nil)
	if st := gs.nextType("gameState"); st["bdraw"] != true {
		t.Fatalf("bot offer: %v", st)
	}
	// Moving declines the opponent's offer.
	e.play(id, "", "e7e5", "g1f3")
	if g := e.snapshot(id); g.BlackDraw || g.WhiteDraw {
		t.Fatalf("offer survived a move: %+v", g)
	}
	e.mustOK(tokBot1, "/api/bot/game/"+id+"/move/b8c6?offeringDraw=true", nil)
	e.mustOK(tokAlice, "/api/board/game/"+id+"/draw/yes", nil)
	if g := e.snapshot(id); g.Status != "draw" || g.Winner != "" {
		t.Fatalf("accepted draw: %+v", g)
	}
	// An offer on a move accepts a pending offer.
	id = e.startGame(nil)
	e.play(id, "e2e4", "e7e5")
	e.mustOK(tokBot1, "/api/bot/game/"+id+"/draw/yes", nil)
	e.mustOK(tokAlice, "/api/board/game/"+id+"/move/g1f3?offeringDraw=true", nil)
	if g := e.snapshot(id); g.Status != "draw" {
		t.Fatalf("draw by move offer: %+v", g)
	}
}

// TestClaimVictory checks opponentGone, claim-victory and claim-draw: as
// lila's Game.forceResignable and forceDrawable say, a challenge game
// (source friend) can only be drawn by a claim, a lobby game also won.
func TestClaimVictory(t *testing.T) {
	e := newEnv(t, Config{GoneAfter: 100 * time.Millisecond, ClaimWinAfter: 300 * time.Millisecond})
	id := e.startGame(nil)
	bot := e.open(tokBot1, "/api/bot/game/stream/"+id)
	alice := e.open(tokAlice, "/api/board/game/stream/"+id)
	bot.next()
	alice.next()
	e.play(id, "e2e4", "e7e5")
	e.wantError(tokBot1, "/api/bot/game/"+id+"/claim-victory", 400, "You cannot claim this game: your opponent is not gone.")
	alice.close()
	gone := bot.nextType("opponentGone")
	if gone["gone"] != true || gone["claimWinInSeconds"] != 1.0 {
		t.Fatalf("gone: %v", gone)
	}
	// Coming back cancels it.
	alice = e.open(tokAlice, "/api/board/game/stream/"+id)
	if back := bot.nextType("opponentGone"); back["gone"] != false {
		t.Fatalf("back: %v", back)
	}
	alice.close()
	bot.nextType("opponentGone")
	ready := bot.nextType("opponentGone")
	if ready["claimWinInSeconds"] != 0.0 {
		t.Fatalf("ready: %v", ready)
	}
	e.wantError(tokBot1, "/api/bot/game/"+id+"/claim-victory", 400, "You cannot claim victory in this game: claim a draw instead.")
	e.mustOK(tokBot1, "/api/bot/game/"+id+"/claim-draw", nil)
	if g := e.snapshot(id); g.Status != "draw" || g.Winner != "" {
		t.Fatalf("claimed: %+v", g)
	}
	// The Board API works the same way; a lobby game can be won by a claim;
	// a player who never opened a game stream is gone once the times have
	// passed since his move.
	lobby := func() string {
		id, err := e.srv.Pair(Pairing{White: "Alice", Black: "bot1", Source: SourceLobby, Limit: time.Minute})
		if err != nil {
			t.Fatal(err)
		}
		return id
	}
	for _, tt := range []struct {
		start                       func() string
		token, path, status, winner string
	}{
		{func() string { return e.startGame(nil) }, tokAlice, "/api/board/game/%s/claim-draw", "draw", ""},
		{lobby, tokAlice, "/api/board/game/%s/claim-victory", "timeout", "white"},
		{lobby, tokBot1, "/api/bot/game/%s/claim-victory", "timeout", "black"},
	} {
		id = tt.start()
		e.play(id, "e2e4", "e7e5")
		eventually(t, "claimable", func() bool {
			code, _ := e.post(tt.token, fmt.Sprintf(tt.path, id), nil)
			return code == 200
		})
		if g := e.snapshot(id); g.Status != tt.status || g.Winner != tt.winner {
			t.Fatalf("%s: %+v", tt.path, g)
		}
	}
}

// TestCorrespondence checks a correspondence game: no clock, days per turn.
func TestCorrespondence(t *testing.T) {
	e := newEnv(t, Config{})
	id, _, full := e.botGame(url.Values{"days": {"3"}, "color": {"black"}})
	if full["daysPerTurn"] != 3.0 || full["speed"] != "correspondence" || full["clock"] != nil {
		t.Fatalf("gameFull %v", full)
	}
	if full["white"].(map[string]any)["id"] != "bot1" {
		t.Fatalf("alice asked for black: %v", full["white"])
	}
	e.mustOK(tokBot1, "/api/bot/game/"+id+"/move/d2d4", nil)
	if g := e.snapshot(id); g.DaysPerTurn != 3 || g.ClockLimit != 0 || len(g.Moves) != 1 {
		t.Fatalf("snapshot %+v", g)
	}
}

// TestChat checks chat rooms, the game stream's chatLine and GET chat.
func TestChat(t *testing.T) {
	e := newEnv(t, Config{})
	id, gs, _ := e.botGame(nil)
	e.mustOK(tokBot1, "/api/bot/game/"+id+"/chat", url.Values{"room": {"player"}, "text": {"good luck"}})
	long := make([]byte, 300)
	for i := range long {
		long[i] = 'x'
	}
	e.mustOK(tokAlice, "/api/board/game/"+id+"/chat", url.Values{"room": {"spectator"}, "text": {string(long)}})
	if l := gs.nextType("chatLine"); l["room"] != "player" || l["username"] != "bot1" || l["text"] != "good luck" {
		t.Fatalf("chatLine %v", l)
	}
	if l := gs.nextType("chatLine"); len(l["text"].(string)) != maxChatLength {
		t.Fatalf("long text not cut: %d", len(l["text"].(string)))
	}
	code, b := e.do(tokBot1, "GET", "/api/bot/game/"+id+"/chat", nil)
	if code != 200 || string(b) != `[{"text":"good luck","user":"bot1"}]`+"\n" {
		t.Fatalf("GET chat: %d %s", code, b)
	}
	code, b = e.do(tokAlice, "GET", "/api/board/game/"+id+"/chat", nil)
	if code != 200 {
		t.Fatalf("board GET chat: %d %s", code, b)
	}
	lines := e.srv.Chat(id)
	if len(lines) != 2 || lines[1].Room != "spectator" || lines[1].User != "Alice" {
		t.Fatalf("Chat(): %+v", lines)
	}
	code, m := e.post(tokBot1, "/api/bot/game/"+id+"/chat", url.Values{"room": {"lobby"}, "text": {"x"}})
	if code != 400 || m["error"] == nil {
		t.Fatalf("bad room: %d %v", code, m)
	}
}

// TestTakeback checks takebacks on both APIs: a proposal shows in the game
// state (wtakeback/btakeback), is declined or accepted; accepting takes
// back the proposer's last move, and the opponent's reply after it when
// there is one; a move ends a proposal; the game plays on from the
// rewound position.
func TestTakeback(t *testing.T) {
	e := newEnv(t, Config{})
	id, bot, _ := e.botGame(nil) // alice white (Board API), bot1 black (BOT API)
	alicePath, botPath := "/api/board/game/"+id+"/takeback/", "/api/bot/game/"+id+"/takeback/"
	moves := func() string { return strings.Join(e.snapshot(id).Moves, " ") }
	state := func(key string) {
		t.Helper()
		for {
			if st := bot.nextType("gameState"); st[key] == true {
				return
			}
		}
	}

	e.play(id, "e2e4")
	e.wantError(tokAlice, alicePath+"yes", 400, "Both players must have moved before a takeback.")
	e.play(id, "", "e7e5", "g1f3")
	// Alice proposes; the bot declines; she proposes again; it accepts:
	// her last move goes (the bot is to move: one ply).
	e.mustOK(tokAlice, alicePath+"yes", nil)
	state("wtakeback")
	e.mustOK(tokBot1, botPath+"no", nil)
	if g := e.snapshot(id); moves() != "e2e4 e7e5 g1f3" || g.Status != "started" {
		t.Fatalf("after a declined takeback: %q", moves())
	}
	e.mustOK(tokAlice, alicePath+"yes", nil)
	state("wtakeback")
	e.mustOK(tokBot1, botPath+"yes", nil)
	if got := moves(); got != "e2e4 e7e5" {
		t.Fatalf("single takeback: %q", got)
	}
	// The bot proposes while alice is to move: its reply goes (one ply).
	e.play(id, "d2d4", "b8c6")
	e.mustOK(tokBot1, botPath+"yes", nil)
	e.mustOK(tokAlice, alicePath+"yes", nil)
	if got := moves(); got != "e2e4 e7e5 d2d4" {
		t.Fatalf("the bot's takeback: %q", got)
	}
	// Alice proposes while she is to move: her move and the bot's reply go.
	e.play(id, "", "g8f6")
	e.mustOK(tokAlice, alicePath+"yes", nil)
	e.mustOK(tokBot1, botPath+"yes", nil)
	if got := moves(); got != "e2e4 e7e5" {
		t.Fatalf("double takeback: %q", got)
	}
	// A move ends a proposal.
	e.play(id, "g1f3")
	e.mustOK(tokAlice, alicePath+"yes", nil)
	e.play(id, "", "b8c6")
	e.mustOK(tokAlice, alicePath+"no", nil) // nothing left to decline: still ok
	if got := moves(); got != "e2e4 e7e5 g1f3 b8c6" {
		t.Fatalf("after a move ended the proposal: %q", got)
	}
	g := e.snapshot(id)
	if len(g.SAN) != 4 || g.SAN[3] != "Nc6" {
		t.Fatalf("SAN after takebacks: %v", g.SAN)
	}
	e.mustOK(tokAlice, "/api/board/game/"+id+"/resign", nil)
	e.wantError(tokAlice, alicePath+"yes", 400, "This game is over.")
}
