package lichess

import (
	"context"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"
)

// fakeAnswers answers each endpoint with a body of the right shape.
func fakeAnswers(w http.ResponseWriter, r *http.Request) {
	p := r.URL.Path
	switch {
	case p == "/api/account" || strings.HasPrefix(p, "/api/user/"):
		writeJSON(w, 200, `{"id":"bot1","username":"Bot1","title":"BOT"}`)
	case p == "/api/account/playing":
		writeJSON(w, 200, `{"nbMyTurn":0,"nowPlaying":[]}`)
	case p == "/api/bot/online":
		w.Header().Set("Content-Type", "application/x-ndjson")
		io.WriteString(w, `{"id":"a","username":"A","title":"BOT"}`+"\n\n"+`{"id":"b","username":"B","title":"BOT"}`+"\n")
	case strings.HasPrefix(p, "/game/export/"):
		if r.Header.Get("Accept") == "application/x-chess-pgn" {
			w.Header().Set("Content-Type", "application/x-chess-pgn")
			io.WriteString(w, "[Event \"x\"]\n\n1. e4 *\n")
			return
		}
		writeJSON(w, 200, `{"id":"abcdefgh","variant":"standard","status":"mate","players":{"white":{"user":{"id":"a","name":"A"}},"black":{"aiLevel":2}}}`)
	case strings.HasPrefix(p, "/api/games/user/"):
		w.Header().Set("Content-Type", "application/x-ndjson")
		io.WriteString(w, `{"id":"g1","status":"mate"}`+"\n"+`{"id":"g2","status":"draw"}`+"\n")
	case p == "/api/cloud-eval":
		writeJSON(w, 200, `{"fen":"x","depth":20,"knodes":5,"pvs":[{"moves":"e2e4","cp":20}]}`)
	case strings.HasSuffix(p, "/chat") && r.Method == "GET":
		writeJSON(w, 200, `[{"user":"a","text":"hi"}]`)
	case strings.HasPrefix(p, "/api/challenge/") && strings.Count(p, "/") == 3 && r.Method == "POST":
		writeJSON(w, 200, `{"id":"chal1234","status":"created","variant":{"key":"standard"},"timeControl":{"type":"clock","limit":60,"increment":0}}`)
	case strings.HasPrefix(p, "/api/bot/game/stream/") || strings.HasPrefix(p, "/api/board/game/stream/"):
		w.Header().Set("Content-Type", "application/x-ndjson")
		io.WriteString(w, `{"type":"gameFull","id":"abcdefgh","state":{"type":"gameState","moves":"e2e4","status":"mate"}}`+"\n")
	case p == "/api/stream/event":
		w.Header().Set("Content-Type", "application/x-ndjson")
		io.WriteString(w, `{"type":"gameStart","game":{"gameId":"abcdefgh","fullId":"abcdefghijkl"}}`+"\n")
		w.(http.Flusher).Flush()
		<-r.Context().Done()
	default:
		okHandler(w, r)
	}
}

func TestRequestShapes(t *testing.T) {
	f := newFake(t, fakeAnswers)
	c, _ := newTestClient(t, f.URL)
	tru := true
	since := time.UnixMilli(1356998400070)
	tests := []struct {
		name   string
		call   func(ctx context.Context) error
		method string
		path   string
		query  map[string]string // expected query values ("" = absent)
		form   map[string]string
		accept string
	}{
		{"account", func(ctx context.Context) error {
			u, err := c.Account(ctx)
			check(t, err == nil && u.IsBot(), "account")
			return err
		},
			"GET", "/api/account", nil, nil, "application/json"},
		{"upgrade", func(ctx context.Context) error { return c.UpgradeToBot(ctx) }, "POST", "/api/bot/account/upgrade", nil, nil, ""},
		{"playing", func(ctx context.Context) error { _, err := c.OngoingGames(ctx, 20); return err },
			"GET", "/api/account/playing", map[string]string{"nb": "20"}, nil, ""},
		{"move", func(ctx context.Context) error { return c.Bot().Move(ctx, "abcdefgh", "e7e8q", false) },
			"POST", "/api/bot/game/abcdefgh/move/e7e8q", map[string]string{"offeringDraw": ""}, nil, ""},
		{"move offering draw", func(ctx context.Context) error { return c.Bot().Move(ctx, "abcdefgh", "e2e4", true) },
			"POST", "/api/bot/game/abcdefgh/move/e2e4", map[string]string{"offeringDraw": "true"}, nil, ""},
		{"chat", func(ctx context.Context) error {
			return c.Bot().Chat(ctx, "abcdefgh", RoomSpectator, "good game & thanks")
		},
			"POST", "/api/bot/game/abcdefgh/chat", nil, map[string]string{"room": "spectator", "text": "good game & thanks"}, ""},
		{"chat get", func(ctx context.Context) error {
			m, err := c.Bot().ChatHistory(ctx, "abcdefgh")
			check(t, err == nil && len(m) == 1 && m[0].Text == "hi", "chat history")
			return err
		}, "GET", "/api/bot/game/abcdefgh/chat", nil, nil, ""},
		{"abort", func(ctx context.Context) error { return c.Bot().Abort(ctx, "abcdefgh") }, "POST", "/api/bot/game/abcdefgh/abort", nil, nil, ""},
		{"resign", func(ctx context.Context) error { return c.Bot().Resign(ctx, "abcdefgh") }, "POST", "/api/bot/game/abcdefgh/resign", nil, nil, ""},
		{"draw yes", func(ctx context.Context) error { return c.Bot().Draw(ctx, "abcdefgh", true) }, "POST", "/api/bot/game/abcdefgh/draw/yes", nil, nil, ""},
		{"draw no", func(ctx context.Context) error { return c.Bot().Draw(ctx, "abcdefgh", false) }, "POST", "/api/bot/game/abcdefgh/draw/no", nil, nil, ""},
		{"claim victory", func(ctx context.Context) error { return c.Bot().ClaimVictory(ctx, "abcdefgh") }, "POST", "/api/bot/game/abcdefgh/claim-victory", nil, nil, ""},
		{"claim draw", func(ctx context.Context) error { return c.Bot().ClaimDraw(ctx, "abcdefgh") }, "POST", "/api/bot/game/abcdefgh/claim-draw", nil, nil, ""},
		{"board move", func(ctx context.Context) error { return c.Board().Move(ctx, "abcdefgh", "e2e4", false) }, "POST", "/api/board/game/abcdefgh/move/e2e4", nil, nil, ""},
		{"board chat", func(ctx context.Context) error { return c.Board().Chat(ctx, "abcdefgh", RoomPlayer, "hi") },
			"POST", "/api/board/game/abcdefgh/chat", nil, map[string]string{"room": "player", "text": "hi"}, ""},
		{"board resign", func(ctx context.Context) error { return c.Board().Resign(ctx, "abcdefgh") }, "POST", "/api/board/game/abcdefgh/resign", nil, nil, ""},
		{"board abort", func(ctx context.Context) error { return c.Board().Abort(ctx, "abcdefgh") }, "POST", "/api/board/game/abcdefgh/abort", nil, nil, ""},
		{"board draw", func(ctx context.Context) error { return c.Board().Draw(ctx, "abcdefgh", true) }, "POST", "/api/board/game/abcdefgh/draw/yes", nil, nil, ""},
		{"accept", func(ctx context.Context) error { return c.AcceptChallenge(ctx, "chal1234", "") },
			"POST", "/api/challenge/chal1234/accept", map[string]string{"color": ""}, nil, ""},
		{"accept color", func(ctx context.Context) error { return c.AcceptChallenge(ctx, "chal1234", Black) },
			"POST", "/api/challenge/chal1234/accept", map[string]string{"color": "black"}, nil, ""},
		{"decline lower-case reason", func(ctx context.Context) error { return c.DeclineChallenge(ctx, "chal1234", "toofast") },
			"POST", "/api/challenge/chal1234/decline", nil, map[string]string{"reason": "tooFast"}, ""},
		{"decline default", func(ctx context.Context) error { return c.DeclineChallenge(ctx, "chal1234", "") },
			"POST", "/api/challenge/chal1234/decline", nil, map[string]string{"reason": "generic"}, ""},
		{"cancel", func(ctx context.Context) error { return c.CancelChallenge(ctx, "chal1234") }, "POST", "/api/challenge/chal1234/cancel", nil, nil, ""},
		{"create real-time", func(ctx context.Context) error {
			ch, err := c.CreateChallenge(ctx, "alice", ChallengeParams{Clock: &ChallengeClock{Limit: 60, Increment: 0}, Color: White, Rated: true})
			check(t, err == nil && ch.ID == "chal1234", "challenge id")
			return err
		}, "POST", "/api/challenge/alice", nil, map[string]string{"clock.limit": "60", "clock.increment": "0", "color": "white", "rated": "true", "days": "", "keepAliveStream": ""}, ""},
		{"create with Lichess's largest increment", func(ctx context.Context) error {
			_, err := c.CreateChallenge(ctx, "alice", ChallengeParams{Clock: &ChallengeClock{Limit: 300, Increment: 180}})
			return err
		}, "POST", "/api/challenge/alice", nil, map[string]string{"clock.limit": "300", "clock.increment": "180"}, ""},
		{"takeback yes", func(ctx context.Context) error { return c.Bot().Takeback(ctx, "abcdefgh", true) },
			"POST", "/api/bot/game/abcdefgh/takeback/yes", nil, nil, ""},
		{"takeback no", func(ctx context.Context) error { return c.Board().Takeback(ctx, "abcdefgh", false) },
			"POST", "/api/board/game/abcdefgh/takeback/no", nil, nil, ""},
		{"create correspondence from FEN", func(ctx context.Context) error {
			_, err := c.CreateChallenge(ctx, "alice", ChallengeParams{Days: 3, Variant: "fromPosition", FEN: "8/8/8/8/8/8/8/K1k5 w - - 0 1"})
			return err
		}, "POST", "/api/challenge/alice", nil, map[string]string{"days": "3", "variant": "fromPosition", "fen": "8/8/8/8/8/8/8/K1k5 w - - 0 1", "rated": "false", "clock.limit": ""}, ""},
		{"online bots", func(ctx context.Context) error {
			b, err := c.OnlineBots(ctx, 50)
			check(t, err == nil && len(b) == 2 && b[1].ID == "b", "bots")
			return err
		}, "GET", "/api/bot/online", map[string]string{"nb": "50"}, nil, "application/x-ndjson"},
		{"user", func(ctx context.Context) error { _, err := c.User(ctx, "Some-User_1"); return err }, "GET", "/api/user/Some-User_1", nil, nil, ""},
		{"export pgn", func(ctx context.Context) error {
			pgn, err := c.ExportGamePGN(ctx, "abcdefgh", ExportOptions{Evals: true, Literate: true, Clocks: true})
			check(t, err == nil && strings.Contains(pgn, "1. e4"), "pgn")
			return err
		}, "GET", "/game/export/abcdefgh", map[string]string{"evals": "true", "literate": "true", "clocks": "true", "accuracy": "false"}, nil, "application/x-chess-pgn"},
		{"export json", func(ctx context.Context) error {
			g, err := c.ExportGame(ctx, "abcdefgh", ExportOptions{Evals: true, Accuracy: true, Opening: true})
			check(t, err == nil && g.Status == StatusMate && g.Players.Black.AILevel == 2, "game json")
			return err
		}, "GET", "/game/export/abcdefgh", map[string]string{"evals": "true", "accuracy": "true", "opening": "true", "literate": "false"}, nil, "application/json"},
		{"user games", func(ctx context.Context) error {
			var ids []string
			for g, err := range c.UserGames(ctx, "alice", UserGamesParams{Since: since, Until: since.Add(time.Hour), Max: 10, Analysed: &tru,
				PerfTypes: []string{"blitz", "rapid"}, ExportOptions: ExportOptions{Evals: true, Clocks: true, Opening: true, Accuracy: true}}) {
				if err != nil {
					return err
				}
				ids = append(ids, g.ID)
			}
			check(t, strings.Join(ids, ",") == "g1,g2", "user games")
			return nil
		}, "GET", "/api/games/user/alice", map[string]string{"since": "1356998400070", "until": "1357002000070", "max": "10", "analysed": "true",
			"perfType": "blitz,rapid", "evals": "true", "clocks": "true", "opening": "true", "accuracy": "true"}, nil, "application/x-ndjson"},
		{"cloud eval", func(ctx context.Context) error {
			ce, err := c.CloudEval(ctx, "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", 3, "")
			check(t, err == nil && ce.Depth == 20, "cloud eval")
			return err
		}, "GET", "/api/cloud-eval", map[string]string{"fen": "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "multiPv": "3"}, nil, ""},
		{"bot game stream", drainGame(c.Bot()), "GET", "/api/bot/game/stream/abcdefgh", nil, nil, "application/x-ndjson"},
		{"board game stream", drainGame(c.Board()), "GET", "/api/board/game/stream/abcdefgh", nil, nil, "application/x-ndjson"},
		{"event stream", func(ctx context.Context) error {
			s, err := c.StreamEvents(ctx)
			if err != nil {
				return err
			}
			ev := <-s.Events()
			check(t, ev.(*GameStartEvent).Game.GameID == "abcdefgh", "gameStart")
			s.Close()
			return s.Err()
		}, "GET", "/api/stream/event", nil, nil, "application/x-ndjson"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			before := f.count()
			err := tc.call(ctxT(t))
			noToken(t, err)
			if err != nil {
				t.Fatalf("call: %v", err)
			}
			reqs := f.requests()[before:]
			if len(reqs) != 1 {
				t.Fatalf("%d requests, want 1", len(reqs))
			}
			r := reqs[0]
			if r.Method != tc.method || r.Path != tc.path {
				t.Errorf("got %s %s, want %s %s", r.Method, r.Path, tc.method, tc.path)
			}
			if got := r.Header.Get("Authorization"); got != "Bearer "+string(testToken) {
				t.Errorf("Authorization header wrong")
			}
			if r.Header.Get("User-Agent") == "" {
				t.Errorf("no User-Agent")
			}
			if tc.accept != "" && r.Header.Get("Accept") != tc.accept {
				t.Errorf("Accept %q want %q", r.Header.Get("Accept"), tc.accept)
			}
			q := r.query()
			for k, want := range tc.query {
				if got := q.Get(k); got != want || (want == "" && q.Has(k)) {
					t.Errorf("query %s = %q, want %q", k, got, want)
				}
			}
			if tc.form != nil && r.Header.Get("Content-Type") != "application/x-www-form-urlencoded" {
				t.Errorf("content type %q", r.Header.Get("Content-Type"))
			}
			form := r.form()
			for k, want := range tc.form {
				if got := form.Get(k); got != want || (want == "" && form.Has(k)) {
					t.Errorf("form %s = %q, want %q", k, got, want)
				}
			}
		})
	}
}

func check(t *testing.T, ok bool, what string) {
	t.Helper()
	if !ok {
		t.Errorf("%s: unexpected answer", what)
	}
}

func TestRequestValidation(t *testing.T) {
	f := newFake(t, okHandler)
	c, _ := newTestClient(t, f.URL)
	ctx := ctxT(t)
	errs := []error{
		c.Bot().Move(ctx, "abcdefgh", "", false),
		c.Bot().Move(ctx, "abc/../x", "e2e4", false),
		c.Bot().Chat(ctx, "abcdefgh", "lobby", "hi"),
		c.Bot().Chat(ctx, "abcdefgh", RoomPlayer, "   "),
		c.DeclineChallenge(ctx, "chal1234", "becauseNo"),
		c.AcceptChallenge(ctx, "chal1234", Random),
	}
	_, err := c.CreateChallenge(ctx, "alice", ChallengeParams{Clock: &ChallengeClock{Limit: 100}})
	errs = append(errs, err)
	_, err = c.CreateChallenge(ctx, "alice", ChallengeParams{Clock: &ChallengeClock{Limit: 60}, Days: 2})
	errs = append(errs, err)
	_, err = c.CreateChallenge(ctx, "alice", ChallengeParams{Days: 4})
	errs = append(errs, err)
	_, err = c.CreateChallenge(ctx, "alice", ChallengeParams{Clock: &ChallengeClock{Limit: 60, Increment: 181}})
	errs = append(errs, err)
	_, err = c.OngoingGames(ctx, 51)
	errs = append(errs, err)
	for i, err := range errs {
		if err == nil {
			t.Errorf("case %d: no error", i)
		}
	}
	if n := f.count(); n != 0 {
		t.Errorf("invalid calls sent %d requests", n)
	}
}

func TestChatIsCutTo140(t *testing.T) {
	f := newFake(t, okHandler)
	c, _ := newTestClient(t, f.URL)
	long := strings.Repeat("é", 200)
	if err := c.Bot().Chat(ctxT(t), "abcdefgh", RoomPlayer, long); err != nil {
		t.Fatal(err)
	}
	if got := []rune(f.requests()[0].form().Get("text")); len(got) != MaxChatLength {
		t.Fatalf("sent %d characters", len(got))
	}
}

func TestParseDeclineReason(t *testing.T) {
	for in, want := range map[string]DeclineReason{"toofast": DeclineTooFast, "TOOSLOW": DeclineTooSlow, "timecontrol": DeclineTimeControl,
		"nobot": DeclineNoBot, "onlyBot": DeclineOnlyBot, "generic": DeclineGeneric} {
		if got, ok := ParseDeclineReason(in); !ok || got != want {
			t.Errorf("%q -> %q %v", in, got, ok)
		}
	}
	if _, ok := ParseDeclineReason("nope"); ok {
		t.Error("unknown reason accepted")
	}
}

// drainGame returns a request that streams game abcdefgh through api and
// reads the stream to its end.
func drainGame(api *PlayAPI) func(context.Context) error {
	return func(ctx context.Context) error {
		s, err := api.StreamGame(ctx, "abcdefgh")
		if err != nil {
			return err
		}
		for range s.Events() {
		}
		return s.Err()
	}
}
