package sandbox

import (
	"context"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"
)

// fakeAnalyser returns the fool's-mate analysis and cloud evals for the
// positions before each move, and records the requests.
type fakeAnalyser struct {
	mu   sync.Mutex
	reqs []AnalysisRequest
}

func (f *fakeAnalyser) Analyse(ctx context.Context, req AnalysisRequest) (AnalysisResult, error) {
	f.mu.Lock()
	f.reqs = append(f.reqs, req)
	f.mu.Unlock()
	res := AnalysisResult{Analysis: foolsAnalysis()}
	for i := range req.Moves {
		res.Cloud = append(res.Cloud, &CloudEval{Depth: 20 + i, Knodes: 100, PVs: []CloudPV{{CP: ip(10 * i), Moves: "e2e4"}}})
	}
	return res, ctx.Err()
}

type analysisEvent struct {
	id  string
	err error
}

func TestServerAnalysisAttachedAfterTheGame(t *testing.T) {
	fa := &fakeAnalyser{}
	events := make(chan analysisEvent, 4)
	clk := &fakeClock{t: time.Date(2026, 3, 4, 12, 30, 0, 0, time.UTC)}
	e := newEnv(t, Config{Now: clk.now, Analyser: fa, OnAnalysis: func(id string, err error) { events <- analysisEvent{id, err} }})
	id := e.startGame(url.Values{"clock.limit": {"180"}, "clock.increment": {"2"}, "color": {"white"}})
	for i, m := range []string{"f2f3", "e7e5", "g2g4", "d8h4"} {
		if i%2 == 0 {
			e.mustOK(tokAlice, "/api/board/game/"+id+"/move/"+m, nil)
		} else {
			e.mustOK(tokBot1, "/api/bot/game/"+id+"/move/"+m, nil)
		}
	}
	ev := <-events
	if ev.id != id || ev.err != nil {
		t.Fatalf("analysis event %+v", ev)
	}
	fa.mu.Lock()
	req := fa.reqs[0]
	fa.mu.Unlock()
	wantFENs := []string{
		"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
		"rnbqkbnr/pppppppp/8/8/8/5P2/PPPPP1PP/RNBQKBNR b KQkq - 0 1",
		"rnbqkbnr/pppp1ppp/8/4p3/8/5P2/PPPPP1PP/RNBQKBNR w KQkq - 0 2",
		"rnbqkbnr/pppp1ppp/8/4p3/6P1/5P2/PPPPP2P/RNBQKBNR b KQkq - 0 2", // no en passant square: no capture possible
		"rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3",
	}
	if strings.Join(req.FENs, "|") != strings.Join(wantFENs, "|") || strings.Join(req.Moves, " ") != "f2f3 e7e5 g2g4 d8h4" {
		t.Fatalf("request %+v", req)
	}
	// the export carries the analysis, in JSON and literate PGN
	_, b := e.do("", "GET", "/game/export/"+id+"?literate=true", nil)
	if !strings.Contains(string(b), "2. g4?? { (0.00 → Mate in 1) Checkmate is now unavoidable. e4 was best. }") {
		t.Fatalf("PGN:\n%s", b)
	}
	code, raw := e.do("", "GET", "/game/export/"+id+"?accuracy=true", nil, "Accept", "application/json")
	if code != 200 || !strings.Contains(string(raw), `"judgment":{"name":"Blunder"`) || !strings.Contains(string(raw), `"accuracy":40`) {
		t.Fatalf("%d %s", code, raw)
	}
	// the cloud knows the game's positions, however the en passant
	// square is written (another library names g3 after g2g4)
	withEP := strings.Replace(wantFENs[3], "KQkq - 0 2", "KQkq g3 0 2", 1)
	code, m := e.get("", "/api/cloud-eval?fen="+url.QueryEscape(withEP))
	if code != 200 || m["depth"] != 23.0 {
		t.Fatalf("cloud eval of %s: %d %v", withEP, code, m)
	}
	code, _ = e.get("", "/api/cloud-eval?fen="+url.QueryEscape(wantFENs[4]))
	if code != 404 {
		t.Fatalf("the final position has no cloud eval here: %d", code)
	}
}

// TestCloudEvalsByVariant: a Chess960 game's positions are served to
// Chess960 lookups (variant=chess960) and not to standard ones, as lila's
// eval cache keys its entries by variant; a standard game's positions the
// other way round.
func TestCloudEvalsByVariant(t *testing.T) {
	fa := &fakeAnalyser{}
	events := make(chan analysisEvent, 4)
	e := newEnv(t, Config{Analyser: fa, OnAnalysis: func(id string, err error) { events <- analysisEvent{id, err} }})
	for i, variant := range []string{"chess960", "standard"} {
		id := e.startGame(url.Values{"clock.limit": {"180"}, "clock.increment": {"2"}, "color": {"white"}, "variant": {variant}})
		e.play(id, "a2a3", "a7a6")
		e.mustOK(tokAlice, "/api/board/game/"+id+"/resign", nil)
		// the fake's analysis is of four plies and is not attached to this
		// game of two (the event's error); its cloud evals are served first
		if ev := <-events; ev.id != id {
			t.Fatalf("analysis event %+v", ev)
		}
		fa.mu.Lock()
		fen := fa.reqs[i].FENs[1] // after a2a3
		fa.mu.Unlock()
		other := map[string]string{"chess960": "standard", "standard": "chess960"}[variant]
		for _, tc := range []struct {
			query string
			want  int
		}{{"&variant=" + variant, 200}, {"&variant=" + other, 404}} {
			if variant == "standard" && tc.want == 200 {
				tc.query = "" // the default
			}
			if code, m := e.get("", "/api/cloud-eval?fen="+url.QueryEscape(fen)+tc.query); code != tc.want {
				t.Errorf("%s game, lookup %q: %d %v, want %d", variant, tc.query, code, m, tc.want)
			}
		}
	}
}

func TestServerAnalysisWaitsForItsDelay(t *testing.T) {
	fa := &fakeAnalyser{}
	events := make(chan analysisEvent, 4)
	e := newEnv(t, Config{Analyser: fa, AnalysisDelay: time.Hour, OnAnalysis: func(id string, err error) { events <- analysisEvent{id, err} }})
	id := e.startGame(url.Values{"clock.limit": {"180"}, "clock.increment": {"2"}, "color": {"white"}})
	e.mustOK(tokAlice, "/api/board/game/"+id+"/move/e2e4", nil)
	e.mustOK(tokBot1, "/api/bot/game/"+id+"/move/e7e5", nil)
	e.mustOK(tokAlice, "/api/board/game/"+id+"/resign", nil)
	// Close ends the wait: the analysis was never attached
	e.srv.Close()
	ev := <-events
	if ev.id != id || ev.err == nil || !strings.Contains(ev.err.Error(), "context canceled") {
		t.Fatalf("event %+v", ev)
	}
	if _, err := e.srv.ExportPGN(id); err != nil {
		t.Fatal(err)
	}
	pgn, _ := e.srv.ExportPGN(id)
	if strings.Contains(pgn, "%eval") {
		t.Fatalf("analysis attached before its delay:\n%s", pgn)
	}
}

// FuzzFenKey checks that any cloud-eval "fen" parameter is handled without
// a panic, keys at most four fields, and that a legal position keys the
// same with or without an en passant square that no capture can use.
func FuzzFenKey(f *testing.F) {
	for _, s := range []string{
		"rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1",
		"rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1",
		"8/8/8/8/8/8/8/8 w - - 0 1", "", "x", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, fen string) {
		k := fenKey(fen)
		if n := len(strings.Fields(k)); n > 4 {
			t.Fatalf("key %q of %q has %d fields", k, fen, n)
		}
		if p, err := newPosition(fen); err == nil && strings.TrimSpace(fen) != "" {
			if again := fenKey(p.fen()); again != k {
				t.Fatalf("%q keys %q, its own FEN %q", fen, k, again)
			}
		}
	})
}
