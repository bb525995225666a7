package lichess

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
)

func TestDecodeEventSpecExamples(t *testing.T) {
	tests := []struct {
		file  string
		check func(t *testing.T, ev Event)
	}{
		{"stream-gameStart.json.yaml", func(t *testing.T, ev Event) {
			g := ev.(*GameStartEvent).Game
			if g.GameID != "0FgNPGRz" || g.FullID != "0FgNPGRzhDaW" || g.Color != White || g.Status != StatusStarted ||
				g.Variant.Key != "standard" || g.Perf.Key != "blitz" || !g.IsMyTurn || g.Opponent.ID != "aaron" ||
				g.Opponent.Rating != 776 || g.Opponent.IsComputer() || g.SecondsLeft == nil || *g.SecondsLeft != 300 ||
				g.Compat == nil || !g.Compat.Board || g.Compat.Bot {
				t.Errorf("bad decode: %+v", g)
			}
		}},
		{"stream-gameStart-ai.json.yaml", func(t *testing.T, ev Event) {
			g := ev.(*GameStartEvent).Game
			if !g.Opponent.IsComputer() || g.Opponent.AILevel != 1 || g.Opponent.ID != "" ||
				g.Opponent.Username != "Stockfish level 1" || g.SecondsLeft != nil || g.Source != "ai" || !g.Status.Ongoing() {
				t.Errorf("bad decode: %+v", g)
			}
		}},
		{"stream-gameFinish.json.yaml", func(t *testing.T, ev Event) {
			g := ev.(*GameFinishEvent).Game
			if g.Status != StatusResign || g.Winner != Black || g.RatingDiff != -9 || g.Opponent.RatingDiff != 5 ||
				g.LastMove != "e7e5" || g.Status.Ongoing() {
				t.Errorf("bad decode: %+v", g)
			}
		}},
		{"stream-gameFinish-ai.json.yaml", func(t *testing.T, ev Event) {
			g := ev.(*GameFinishEvent).Game
			if g.Status != StatusAborted || !g.Opponent.IsComputer() {
				t.Errorf("bad decode: %+v", g)
			}
		}},
		{"stream-challenge.json.yaml", func(t *testing.T, ev Event) {
			e := ev.(*ChallengeEvent)
			c := e.Challenge
			if c.ID != "jWAgu6ga" || c.Challenger == nil || c.Challenger.ID != "adriana" || c.DestUser == nil ||
				c.DestUser.ID != "gabriela" || !c.DestUser.Provisional || c.TimeControl.Type != "unlimited" ||
				c.Speed != "correspondence" || c.Color != Random || c.FinalColor != Black || c.Perf.Name != "Correspondence" ||
				e.Compat == nil || e.Compat.Bot {
				t.Errorf("bad decode: %+v", e)
			}
		}},
		{"stream-challengeCanceled.json.yaml", func(t *testing.T, ev Event) {
			c := ev.(*ChallengeCanceledEvent).Challenge
			if c.ID != "BO2kXa9v" || c.Status != "canceled" || c.Challenger.Title != "WNM" {
				t.Errorf("bad decode: %+v", c)
			}
		}},
		{"stream-challengeDeclined.json.yaml", func(t *testing.T, ev Event) {
			c := ev.(*ChallengeDeclinedEvent).Challenge
			if c.DeclineReasonKey != "generic" || c.DeclineReason == "" || c.Status != "declined" {
				t.Errorf("bad decode: %+v", c)
			}
		}},
	}
	for _, tc := range tests {
		t.Run(tc.file, func(t *testing.T) {
			ev, err := DecodeEvent(exampleJSON(t, tc.file))
			if err != nil {
				t.Fatalf("decode: %v", err)
			}
			tc.check(t, ev)
		})
	}
}

// The inline examples of the game-stream schemas.
func TestDecodeGameEventSchemaExamples(t *testing.T) {
	tests := []struct {
		schema string
		check  func(t *testing.T, ev GameEvent)
	}{
		{"GameFullEvent.yaml", func(t *testing.T, ev GameEvent) {
			g := ev.(*GameFull)
			if g.ID != "BEOucQJo" || g.Clock == nil || g.Clock.Initial != 900000 || g.White.ID != "bobby" ||
				g.Black.Rating != 1021 || g.White.Title != "" || g.StartFEN() != "" || g.State.Moves != "d2d3" ||
				g.State.Status != StatusStarted || g.State.WTime != 900000 || g.Perf.Name != "Rapid" || g.Speed != "rapid" {
				t.Errorf("bad decode: %+v", g)
			}
			if c, ok := g.ColorOf("MARY"); !ok || c != Black {
				t.Errorf("ColorOf(mary) = %v %v", c, ok)
			}
		}},
		{"GameStateEvent.yaml", func(t *testing.T, ev GameEvent) {
			s := ev.(*GameState)
			if s.Ply() != 13 || s.MoveList()[10] != "e1g1" || s.WInc != 10000 || s.Turn(White) != Black ||
				s.TimeLeft(Black).Milliseconds() != 8395220 || s.DrawOffered(White) {
				t.Errorf("bad decode: %+v", s)
			}
		}},
		{"ChatLineEvent.yaml", func(t *testing.T, ev GameEvent) {
			c := ev.(*ChatLine)
			if c.Username != "thibault" || c.Room != "player" || c.Text != "Good luck, have fun" {
				t.Errorf("bad decode: %+v", c)
			}
		}},
		{"OpponentGoneEvent.yaml", func(t *testing.T, ev GameEvent) {
			o := ev.(*OpponentGone)
			if !o.Gone || o.ClaimWinInSeconds == nil || *o.ClaimWinInSeconds != 8 {
				t.Errorf("bad decode: %+v", o)
			}
		}},
	}
	for _, tc := range tests {
		t.Run(tc.schema, func(t *testing.T) {
			ev, err := DecodeGameEvent(specJSON(t, filepath.Join("schemas", tc.schema), "example"))
			if err != nil {
				t.Fatalf("decode: %v", err)
			}
			tc.check(t, ev)
		})
	}
}

func TestDecodeAPIExamples(t *testing.T) {
	t.Run("challenges", func(t *testing.T) {
		for _, f := range []string{"challenges-createChallenge.json.yaml", "challenges-showOneChallenge.json.yaml", "challenges-openEndedChallenge.json.yaml"} {
			var c Challenge
			strictUnmarshal(t, f, exampleJSON(t, f), &c)
			if c.ID == "" || c.Variant.Key != "standard" || c.TimeControl.Type != "unlimited" {
				t.Errorf("%s: %+v", f, c)
			}
		}
		var c Challenge
		strictUnmarshal(t, "ChallengeJson", specJSON(t, "schemas/ChallengeJson.yaml", "example"), &c)
		if c.TimeControl.Limit != 600 || c.TimeControl.Show != "10+0" || !c.Challenger.IsBot() || c.Direction != "out" {
			t.Errorf("ChallengeJson example: %+v", c)
		}
	})
	t.Run("users", func(t *testing.T) {
		for _, f := range []string{"account-getMyProfile.json.yaml", "users-getUserPublicData.json.yaml", "bot-getOnlineBots.json.yaml"} {
			var u User
			strictUnmarshal(t, f, exampleJSON(t, f), &u)
			if u.ID == "" || u.Perfs["blitz"].Games == 0 || u.PlayTime == nil {
				t.Errorf("%s: %+v", f, u)
			}
		}
		var bot User
		strictUnmarshal(t, "bot", exampleJSON(t, "bot-getOnlineBots.json.yaml"), &bot)
		if !bot.IsBot() || !bot.Perfs["correspondence"].Prov {
			t.Errorf("bot: %+v", bot)
		}
	})
	t.Run("games", func(t *testing.T) {
		for _, f := range []string{"games-exportOneGame.json.yaml", "games-apiGamesUserJson.json.yaml", "games-gamesExportIds.json.yaml", "games-apiUserCurrentGameJson.json.yaml"} {
			var g Game
			strictUnmarshal(t, f, exampleJSON(t, f), &g)
			if g.ID == "" || g.Variant.Key != "standard" || g.Status == "" || g.Players.White.User == nil || g.Moves == "" {
				t.Errorf("%s: %+v", f, g)
			}
		}
		var g Game
		strictUnmarshal(t, "exportOneGame", exampleJSON(t, "games-exportOneGame.json.yaml"), &g)
		w := g.Players.White.Analysis
		if g.Status != StatusDraw || w == nil || w.ACPL != 26 || w.Accuracy == nil || *w.Accuracy != 90 ||
			len(g.Analysis) == 0 || g.Analysis[7].Judgment == nil || g.Analysis[7].Judgment.Name != "Inaccuracy" ||
			g.Analysis[7].Best != "d5e4" || g.Opening == nil || g.Opening.ECO != "D31" {
			t.Errorf("exportOneGame: %+v", g)
		}
	})
	t.Run("cloud eval", func(t *testing.T) {
		var ce CloudEval
		strictUnmarshal(t, "CloudEval", specJSON(t, "schemas/CloudEval.yaml", "example"), &ce)
		if ce.Depth != 29 || len(ce.PVs) != 3 || ce.PVs[0].CP == nil || *ce.PVs[0].CP != 41 || ce.PVs[0].Mate != nil {
			t.Errorf("%+v", ce)
		}
	})
	t.Run("chat", func(t *testing.T) {
		msgs, err := decodeChat(specJSON(t, "schemas/PlayerGameChat.yaml", "example"))
		if err != nil || len(msgs) != 3 || msgs[2].User != "thibault" {
			t.Errorf("%v %+v", err, msgs)
		}
	})
	t.Run("ongoing games", func(t *testing.T) {
		var og OngoingGames
		raw := specJSON(t, "tags/games/api-account-playing.yaml", "get", "responses", "200", "content", "application/json", "schema", "example")
		strictUnmarshal(t, "playing", raw, &og)
		if og.NbMyTurn != 1 || len(og.NowPlaying) != 1 || og.NowPlaying[0].Opponent.ID != "philippe" ||
			og.NowPlaying[0].Variant.Key != "standard" || *og.NowPlaying[0].SecondsLeft != 1209600 {
			t.Errorf("%+v", og)
		}
	})
}

// Real Lichess game exports (with server analysis) decode.
func TestDecodeRealGameJSON(t *testing.T) {
	dir := "../../shared/lichess-games/json"
	files, _ := filepath.Glob(filepath.Join(dir, "*.json"))
	if len(files) == 0 {
		t.Skip("no game JSON in ../shared")
	}
	for _, f := range files {
		raw, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		var g Game
		strictUnmarshal(t, f, raw, &g)
		if len(g.Analysis) == 0 || g.Players.White.Analysis == nil || g.ID+".json" != filepath.Base(f) {
			t.Errorf("%s: %+v", f, g)
		}
		if g.ID == "CCW6EEru" && (len(g.Clocks) == 0 || g.Clocks[0] != 12003) {
			t.Errorf("clocks: %v", g.Clocks)
		}
	}
}

func TestDecodeLenient(t *testing.T) {
	tests := []struct {
		name     string
		line     string
		wantType string
		partial  bool
		check    func(t *testing.T, ev GameEvent)
	}{
		{"unknown fields ignored", `{"type":"gameState","moves":"e2e4","status":"started","newField":{"x":[1,2]}}`, "gameState", false,
			func(t *testing.T, ev GameEvent) {
				if ev.(*GameState).Moves != "e2e4" {
					t.Error("moves lost")
				}
			}},
		{"status as object", `{"type":"gameState","moves":"","status":{"id":30,"name":"mate"}}`, "gameState", false,
			func(t *testing.T, ev GameEvent) {
				if ev.(*GameState).Status != StatusMate {
					t.Error(ev)
				}
			}},
		{"status as id", `{"type":"gameState","status":35}`, "gameState", false,
			func(t *testing.T, ev GameEvent) {
				if ev.(*GameState).Status != StatusOutOfTime {
					t.Error(ev)
				}
			}},
		{"variant as string", `{"type":"gameFull","id":"x","variant":"chess960","state":{"type":"gameState","moves":"","status":"started"}}`, "gameFull", false,
			func(t *testing.T, ev GameEvent) {
				if ev.(*GameFull).Variant.Key != "chess960" {
					t.Error(ev)
				}
			}},
		{"computer opponent without name", `{"type":"gameFull","id":"x","white":{"aiLevel":3},"black":{"id":"bot1","name":"Bot1","title":"BOT"},"initialFen":"startpos","state":{"moves":"","status":"started"}}`, "gameFull", false,
			func(t *testing.T, ev GameEvent) {
				g := ev.(*GameFull)
				if g.White.AILevel != 3 || g.White.ID != "" || g.Black.Title != "BOT" {
					t.Error(g)
				}
			}},
		{"wrong field type keeps the rest", `{"type":"gameState","moves":"e2e4 e7e5","wtime":"soon","status":"started"}`, "gameState", true,
			func(t *testing.T, ev GameEvent) {
				s := ev.(*GameState)
				if s.Moves != "e2e4 e7e5" || s.WTime != 0 || s.Status != StatusStarted {
					t.Error(s)
				}
			}},
		{"unknown type", `{"type":"takebackOffer","x":1}`, "takebackOffer", false,
			func(t *testing.T, ev GameEvent) {
				if string(ev.(*UnknownEvent).Raw) != `{"type":"takebackOffer","x":1}` {
					t.Error(ev)
				}
			}},
		{"null fields", `{"type":"opponentGone","gone":true,"claimWinInSeconds":null}`, "opponentGone", false,
			func(t *testing.T, ev GameEvent) {
				if o := ev.(*OpponentGone); !o.Gone || o.ClaimWinInSeconds != nil {
					t.Error(o)
				}
			}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			ev, err := DecodeGameEvent([]byte(tc.line))
			if ev == nil {
				t.Fatalf("no event: %v", err)
			}
			if (err != nil) != tc.partial {
				t.Fatalf("err = %v, partial %v", err, tc.partial)
			}
			var de *DecodeError
			if err != nil && !errors.As(err, &de) {
				t.Fatalf("want *DecodeError, got %T", err)
			}
			if ev.EventType() != tc.wantType {
				t.Fatalf("type %q want %q", ev.EventType(), tc.wantType)
			}
			tc.check(t, ev)
		})
	}
}

func TestDecodeMalformed(t *testing.T) {
	for _, line := range []string{``, `not json`, `[1,2]`, `{"moves":"e2e4"}`, `{"type":42}`, `{"type":"gameState"`, `null`, `"gameState"`} {
		ev, err := DecodeGameEvent([]byte(line))
		var de *DecodeError
		if ev != nil || !errors.As(err, &de) {
			t.Errorf("%q: got %v, %v; want nil event and *DecodeError", line, ev, err)
		}
		ev2, err := DecodeEvent([]byte(line))
		if ev2 != nil || !errors.As(err, &de) {
			t.Errorf("%q: DecodeEvent got %v, %v", line, ev2, err)
		}
	}
}

func TestStatusOngoing(t *testing.T) {
	for s, want := range map[Status]bool{"": true, StatusCreated: true, StatusStarted: true, StatusMate: false,
		StatusAborted: false, StatusNoStart: false, StatusOutOfTime: false, "somethingNew": false} {
		if s.Ongoing() != want {
			t.Errorf("%q.Ongoing() = %v", s, !want)
		}
	}
}

// TestDecodeExpiration: the first-move deadline of gameState (and of the
// state inside gameFull), and its absence once both sides have moved.
func TestDecodeExpiration(t *testing.T) {
	tests := []struct {
		line       string
		idle, move int64
		present    bool
	}{
		{`{"type":"gameState","moves":"","wtime":900000,"btime":900000,"winc":0,"binc":0,"status":"started","expiration":{"idleMillis":1234,"millisToMove":30000}}`, 1234, 30000, true},
		{`{"type":"gameFull","id":"g","variant":{"key":"standard"},"speed":"rapid","clock":{"initial":900000,"increment":0},"white":{"id":"a","name":"A"},"black":{"id":"b","name":"B"},"initialFen":"startpos","state":{"type":"gameState","moves":"e2e4","wtime":900000,"btime":900000,"winc":0,"binc":0,"status":"started","expiration":{"idleMillis":0,"millisToMove":30000}}}`, 0, 30000, true},
		{`{"type":"gameState","moves":"e2e4 e7e5","wtime":899000,"btime":900000,"winc":0,"binc":0,"status":"started"}`, 0, 0, false},
	}
	for _, tc := range tests {
		ev, err := DecodeGameEvent([]byte(tc.line))
		if err != nil {
			t.Fatalf("decode %s: %v", tc.line, err)
		}
		s, ok := ev.(*GameState)
		if f, full := ev.(*GameFull); full {
			s, ok = &f.State, true
		}
		if !ok {
			t.Fatalf("%T", ev)
		}
		if (s.Expiration != nil) != tc.present {
			t.Fatalf("%s: expiration %+v", tc.line, s.Expiration)
		}
		if tc.present && (s.Expiration.IdleMillis != tc.idle || s.Expiration.MillisToMove != tc.move) {
			t.Errorf("%s: expiration %+v", tc.line, s.Expiration)
		}
	}
}
