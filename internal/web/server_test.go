package web

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/url"
	"os"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"go.uber.org/goleak"
	"golang.org/x/net/html"

	"github.com/outpostchess/outpost/analysis/ewr"
	"github.com/outpostchess/outpost/internal/store"
	"github.com/outpostchess/outpost/internal/testkit"
)

func mustContain(t *testing.T, body string, wants ...string) {
	t.Helper()
	for _, w := range wants {
		if !strings.Contains(body, w) {
			t.Errorf("page lacks %q", w)
		}
	}
}

func parseHTML(t *testing.T, body string) {
	t.Helper()
	if _, err := html.Parse(strings.NewReader(body)); err != nil {
		t.Fatalf("not HTML: %v", err)
	}
	// Pages load nothing from elsewhere.
	if m := regexp.MustCompile(`(?:src|href)="(?:https?:)?//`).FindString(body); m != "" {
		t.Errorf("page refers to an external URL: %s", m)
	}
}

func TestDashboard(t *testing.T) {
	e := newTestEnv(t, func(o *Options) { o.Status = fakeStatus{ids: []string{"live0001", "x"}} })
	body := e.page(t, "/")
	mustContain(t, body, "Running · playing <span id=\"playing\">2</span> games", `data-game="live0001"`, "vs maia1",
		`href="/game/CCW6EEru">report</a>`, "Accuracy: veloce 72%, chabrot 60%", "chabrot (1810)", `class="outcome won"`,
		`href="/game/plain001">game</a> · none`, `class="outcome won"`, "dashboard.js")
	if strings.Contains(body, `data-game="CCW6EEru"`) {
		t.Error("finished game shown as live")
	}
	// Without a daemon the status says so.
	e2 := newTestEnv(t, nil)
	_, body = e2.get(t, "/")
	mustContain(t, body, "status is not available")
}

// readEvent reads one server-sent event.
func readEvent(t *testing.T, r *bufio.Reader) (string, string) {
	t.Helper()
	var ev, data string
	for {
		line, err := r.ReadString('\n')
		if err != nil {
			t.Fatalf("event stream: %v", err)
		}
		line = strings.TrimRight(line, "\n")
		switch {
		case strings.HasPrefix(line, "event: "):
			ev = line[7:]
		case strings.HasPrefix(line, "data: "):
			data = line[6:]
		case line == "" && ev != "":
			return ev, data
		}
	}
}

func TestLiveEvents(t *testing.T) {
	e := newTestEnv(t, nil)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, http.MethodGet, e.ts.URL+"/events/live", nil)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if ct := resp.Header.Get("Content-Type"); ct != "text/event-stream" {
		t.Fatalf("content type %q", ct)
	}
	r := bufio.NewReader(resp.Body)
	ev, data := readEvent(t, r)
	var d struct {
		HTML  string `json:"html"`
		Count int    `json:"count"`
	}
	if err := json.Unmarshal([]byte(data), &d); err != nil || ev != "games" {
		t.Fatalf("event %q %q: %v", ev, data, err)
	}
	if d.Count != 1 || !strings.Contains(d.HTML, `<span class="plies">2</span>`) {
		t.Fatalf("first event: %+v", d)
	}
	// A move arrives: the next event shows it.
	if err := e.st.UpdateMoves(ctx, "live0001", "e2e4 c7c5 g1f3"); err != nil {
		t.Fatal(err)
	}
	ev, data = readEvent(t, r)
	if err := json.Unmarshal([]byte(data), &d); err != nil || ev != "games" {
		t.Fatalf("event %q %q: %v", ev, data, err)
	}
	if !strings.Contains(d.HTML, `<span class="plies">3</span>`) || !strings.Contains(d.HTML, `data-fen="rnbqkbnr/pp1ppppp/8/2p5/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2"`) {
		t.Errorf("update not shown: %s", d.HTML)
	}
}

func TestGamePage(t *testing.T) {
	e := newTestEnv(t, nil)
	body := e.page(t, "/game/"+fixtureID)
	mustContain(t, body, `<section class="game" id="g1"`, `<template id="g1-p14">`, "Comparison with Lichess", "report.js",
		"Expected winrate at the critical moments", `href="/explorer?game=CCW6EEru&amp;ply=13"`, "moments.js", `data-live="true"`)
	// Each side's critical moment comes first (White's, then Black's), to
	// be computed; the other mistakes follow as explorer links.
	a, _ := loadFixture(t)
	keys := ewr.CriticalPlies(a)
	if len(keys) != 2 {
		t.Fatalf("fixture critical plies %v", keys)
	}
	i0 := strings.Index(body, `<article class="moment" data-ply="`+itoa(keys[0])+`" data-state="queued"`)
	i1 := strings.Index(body, `<article class="moment" data-ply="`+itoa(keys[1])+`" data-state="queued"`)
	i2 := strings.Index(body, "Other mistakes and blunders")
	if i0 < 0 || i1 < i0 || i2 < i1 || strings.Count(body, "critical moment<") != 2 {
		t.Errorf("critical moments not listed first: %d %d %d", i0, i1, i2)
	}
	mustContain(t, body, `href="/explorer?game=CCW6EEru&amp;ply=`+itoa(keys[0]-1)+`">Open the position in the explorer`)
	code, body := e.get(t, "/game/plain001")
	if code != http.StatusOK || !strings.Contains(body, "Analysis: not analysed.") || !strings.Contains(body, `data-fen="rnbqkbnr/ppp1pppp/8/3p4/3P4/8/PPP1PPPP/RNBQKBNR w KQkq - 0 2"`) {
		t.Errorf("unanalysed game: %d", code)
	}
	if code, _ := e.get(t, "/game/nope"); code != http.StatusNotFound {
		t.Errorf("unknown game: %d", code)
	}
}

func TestExplorerPage(t *testing.T) {
	e := newTestEnv(t, nil)
	body := e.page(t, "/explorer?game="+fixtureID+"&ply=2")
	mustContain(t, body, `data-moves="e2e4 e7e5"`, `data-fen="rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2"`,
		`id="p-threshold"`, `<option value="0.001">0.1%</option>`, `id="p-depth"`, `id="p-loss"`, `id="p-rating"`, `role="tree"`, "explorer.js", "game CCW6EEru after 2 plies")
	if strings.Contains(body, `id="unavailable"`) {
		t.Error("calculator wired but explorer unavailable")
	}
	for _, q := range []string{"?fen=" + url.QueryEscape("8/8/8 w - - 0 1"), "?game=nope", "?game=" + fixtureID + "&ply=999"} {
		if code, body := e.get(t, "/explorer"+q); code != http.StatusBadRequest || !strings.Contains(body, `class="error"`) {
			t.Errorf("%s: %d", q, code)
		}
	}
	none := newTestEnv(t, func(o *Options) { o.Calculator = nil })
	_, body = none.get(t, "/explorer")
	mustContain(t, body, `id="unavailable"`)
	resp, _ := none.postJSON(t, "/api/ewr", `{"params":{"threshold":0.1,"depth":15,"loss_threshold":-0.1,"maia_rating":1500,"opponent_maia_rating":1500}}`, true)
	if resp.StatusCode != http.StatusServiceUnavailable {
		t.Errorf("no calculator: %d", resp.StatusCode)
	}
}

func (e *testEnv) postJSON(t *testing.T, path, body string, withCSRF bool) (*http.Response, string) {
	t.Helper()
	req, _ := http.NewRequest(http.MethodPost, e.ts.URL+path, strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	if withCSRF {
		req.Header.Set(csrfHeader, e.srv.csrf)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp, string(b)
}

func TestEWRCalculation(t *testing.T) {
	e := newTestEnv(t, nil)
	params := `"params":{"threshold":0.1,"depth":15,"loss_threshold":-0.5,"maia_rating":1500,"opponent_maia_rating":1600}`
	resp, body := e.postJSON(t, "/api/ewr", `{"moves":["e2e4","e7e5"],`+params+`}`, true)
	if resp.StatusCode != http.StatusAccepted {
		t.Fatalf("start: %d %s", resp.StatusCode, body)
	}
	var started struct{ ID, Events string }
	if err := json.Unmarshal([]byte(body), &started); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, http.MethodGet, e.ts.URL+started.Events, nil)
	sresp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer sresp.Body.Close()
	r := bufio.NewReader(sresp.Body)
	phases := map[string]bool{}
	ranked, treeEvents, pendingNodes, evals := 0, 0, 0, 0
	for {
		ev, data := readEvent(t, r)
		if ev == "progress" {
			var p progressEvent
			if err := json.Unmarshal([]byte(data), &p); err != nil {
				t.Fatal(err)
			}
			phases[p.Phase] = true
			if len(p.Ranking) > 0 {
				ranked++
			}
			if p.Trees != nil {
				// The Maia trees, before Stockfish evaluated their leaves.
				treeEvents++
				if p.Phase != "maia" || phases["stockfish"] {
					t.Errorf("trees sent in phase %s", p.Phase)
				}
				for san, n := range p.Trees {
					if n.SAN != san || n.Winrate == nil {
						t.Errorf("candidate %s: %+v", san, n)
					}
					for _, c := range n.Children {
						if c.Winrate == nil && c.Probability > 0 {
							pendingNodes++
						}
					}
				}
			}
			for _, x := range p.Evals {
				// Each evaluation as it arrives: a position key and the side
				// to move's winrate.
				evals++
				if len(strings.Fields(x.Key)) != 4 || x.Winrate != fakeScore(x.Key).Winrate() {
					t.Errorf("evaluation %+v", x)
				}
			}
			continue
		}
		if ev != "result" {
			t.Fatalf("event %s: %s", ev, data)
		}
		var res struct {
			BaseWinrate float64 `json:"base_winrate"`
			Moves       []struct {
				SAN string  `json:"san"`
				EWR float64 `json:"expected_winrate"`
			} `json:"moves"`
			Trees map[string]json.RawMessage `json:"trees"`
			Nodes int                        `json:"nodes"`
		}
		if err := json.Unmarshal([]byte(data), &res); err != nil {
			t.Fatal(err)
		}
		if len(res.Moves) == 0 || len(res.Trees) != len(res.Moves) || res.Nodes == 0 {
			t.Fatalf("result: %+v", res)
		}
		for i := 1; i < len(res.Moves); i++ {
			if res.Moves[i].EWR > res.Moves[i-1].EWR {
				t.Errorf("moves not ranked: %+v", res.Moves)
			}
		}
		break
	}
	if !phases["maia"] || !phases["stockfish"] {
		t.Errorf("phases seen: %v", phases)
	}
	if ranked == 0 {
		t.Error("no intermediate ranking")
	}
	if treeEvents != 1 || pendingNodes == 0 {
		t.Errorf("%d tree events with %d unevaluated nodes, want 1 with some", treeEvents, pendingNodes)
	}
	if evals == 0 {
		t.Error("no evaluations streamed")
	}
	// The job ran; it cannot be replayed.
	if code, _ := e.get(t, started.Events); code != http.StatusNotFound {
		t.Errorf("replayed job: %d", code)
	}
}

func TestEWRRequestValidation(t *testing.T) {
	e := newTestEnv(t, nil)
	good := `"params":{"threshold":0.1,"depth":15,"loss_threshold":-0.1,"maia_rating":1500,"opponent_maia_rating":1500}`
	tests := []struct {
		name, body string
		csrf       bool
		code       int
		want       string
	}{
		{"no csrf", `{` + good + `}`, false, http.StatusForbidden, "CSRF"},
		{"bad depth", `{"params":{"threshold":0.1,"depth":16,"loss_threshold":-0.1,"maia_rating":1500,"opponent_maia_rating":1500}}`, true, http.StatusUnprocessableEntity, "depth 16"},
		{"bad threshold", `{"params":{"threshold":0.5,"depth":15,"loss_threshold":-0.1,"maia_rating":1500,"opponent_maia_rating":1500}}`, true, http.StatusUnprocessableEntity, "threshold"},
		{"bad loss", `{"params":{"threshold":0.1,"depth":15,"loss_threshold":0.3,"maia_rating":1500,"opponent_maia_rating":1500}}`, true, http.StatusUnprocessableEntity, "loss"},
		{"bad rating", `{"params":{"threshold":0.1,"depth":15,"loss_threshold":-0.1,"maia_rating":2500,"opponent_maia_rating":1500}}`, true, http.StatusUnprocessableEntity, "2500"},
		{"illegal move", `{"moves":["e2e5"],` + good + `}`, true, http.StatusUnprocessableEntity, "e2e5"},
		{"bad fen", `{"start_fen":"8/8 w - - 0 1",` + good + `}`, true, http.StatusUnprocessableEntity, "ranks"},
		{"unknown field", `{"evil":1,` + good + `}`, true, http.StatusBadRequest, "evil"},
		{"not json", `params=1`, true, http.StatusBadRequest, "bad request"},
		// A second value after the request was silently dropped (manual
		// trial, session 10): it is refused like any other malformed body.
		{"trailing value", `{` + good + `}{"moves":["e2e4"]}`, true, http.StatusBadRequest, "after the request"},
		{"trailing garbage", `{` + good + `} x`, true, http.StatusBadRequest, "after the request"},
		{"trailing value past the limit", `{` + good + `}{"moves":["` + strings.Repeat("e2e4", 512<<10) + `"]}`, true, http.StatusRequestEntityTooLarge, "limit of 64 KiB"},
		// regression (issue 18): a 2 MB body was answered "unexpected EOF"
		{"2 MB body", `{"moves":["` + strings.Repeat("e2e4", 512<<10) + `"],` + good + `}`, true, http.StatusRequestEntityTooLarge, "limit of 64 KiB"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			resp, body := e.postJSON(t, "/api/ewr", tc.body, tc.csrf)
			if resp.StatusCode != tc.code || !strings.Contains(body, tc.want) {
				t.Errorf("%d %s, want %d containing %q", resp.StatusCode, body, tc.code, tc.want)
			}
		})
	}
	if code, _ := e.get(t, "/api/ewr/0123/events"); code != http.StatusNotFound {
		t.Errorf("unknown job: %d", code)
	}
}

func TestBoardSVG(t *testing.T) {
	e := newTestEnv(t, nil)
	resp, err := http.Get(e.ts.URL + "/board.svg?fen=" + url.QueryEscape("8/8/8/8/4P3/8/8/4K2k w - - 0 1") + "&last=e2e4&flip=1")
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 || resp.Header.Get("Content-Type") != "image/svg+xml" || strings.Count(string(b), `class="hl"`) != 2 {
		t.Errorf("board: %d %s", resp.StatusCode, b)
	}
	if code, _ := e.get(t, "/board.svg?fen=zz"); code != http.StatusBadRequest {
		t.Errorf("bad fen: %d", code)
	}
}

func TestRunsPage(t *testing.T) {
	e := newTestEnv(t, nil)
	body := e.page(t, "/runs")
	for _, s := range []string{"same name", "precision", "recall", "F1"} {
		if !strings.Contains(body, `data-series="`+s+`"`) {
			t.Errorf("chart lacks series %s", s)
		}
	}
	mustContain(t, body, "<td>75.0%</td>", "<td>82.0%</td>", "Agreement with Lichess over 2 finished runs")
	_, body = e.get(t, "/runs?user=nobody")
	mustContain(t, body, "no finished runs yet", "No comparison runs")
}

func TestStaticAssets(t *testing.T) {
	e := newTestEnv(t, nil)
	for _, n := range []string{"app.css", "explorer.js", "knobs.js", "dashboard.js", "report.css", "report.js"} {
		resp, err := http.Get(e.ts.URL + "/static/" + n)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != 200 {
			t.Errorf("%s: %d", n, resp.StatusCode)
		}
	}
	if code, _ := e.get(t, "/static/nope.js"); code != 404 {
		t.Errorf("missing asset: %d", code)
	}
}

func TestLichessTokenNeverShown(t *testing.T) {
	const secret = "lip_SECRETTOKEN123456"
	t.Setenv("LICHESS_TOKEN", secret)
	e := newTestEnv(t, nil)
	tok := e.config + ".token"
	if err := os.WriteFile(tok, []byte(secret), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(e.config, []byte("[lichess]\ntoken_file = \""+tok+"\"\n[knobs.mine]\nopponent_ply_depth = 3\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{"/", "/game/" + fixtureID, "/explorer", "/runs", "/knobs", "/knobs?set=mine", "/static/explorer.js"} {
		_, body := e.get(t, p)
		if strings.Contains(body, secret) || strings.Contains(body, "SECRETTOKEN") {
			t.Errorf("%s shows the Lichess token", p)
		}
	}
}

// TestEWRCancelledWhenClientLeaves checks that closing the event stream
// stops the calculation and leaves no goroutine behind. Every evaluation
// waits until the calculation's context ends, so the calculation can only
// stop because the client left (the server is closed only after that); it
// then makes no further evaluation. (Counting evaluations 300 ms after the
// client left, as before, depended on how soon a loaded machine let the
// server notice.)
func TestEWRCancelledWhenClientLeaves(t *testing.T) {
	waiting := make(chan struct{}, 1)
	cancelled := make(chan struct{})
	testEnded := make(chan struct{}) // a failed test must not hang in ts.Close
	var cancelledOnce sync.Once
	ev := &testEvaluator{wait: func(ctx context.Context, call int) error {
		select {
		case waiting <- struct{}{}:
		default:
		}
		select {
		case <-ctx.Done():
			cancelledOnce.Do(func() { close(cancelled) })
			return ctx.Err()
		case <-testEnded:
			return errors.New("the test ended")
		}
	}}
	e := newTestEnv(t, func(o *Options) { o.Calculator = EWR{Calc: &ewr.Calculator{Prober: testProber{}, Evaluator: ev}} })
	t.Cleanup(func() { close(testEnded) }) // runs before newTestEnv's cleanups
	tr := &http.Transport{}
	client := &http.Client{Transport: tr}
	req, _ := http.NewRequest(http.MethodPost, e.ts.URL+"/api/ewr", strings.NewReader(`{"params":{"threshold":0.1,"depth":15,"loss_threshold":-0.1,"maia_rating":1500,"opponent_maia_rating":1500}}`))
	req.Header.Set(csrfHeader, e.srv.csrf)
	resp, err := client.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	var started struct{ Events string }
	_ = json.NewDecoder(resp.Body).Decode(&started)
	resp.Body.Close()
	ctx, cancel := context.WithCancel(context.Background())
	sreq, _ := http.NewRequestWithContext(ctx, http.MethodGet, e.ts.URL+started.Events, nil)
	sresp, err := client.Do(sreq)
	if err != nil {
		t.Fatal(err)
	}
	select {
	case <-waiting: // the calculation is running, inside an evaluation
	case <-time.After(30 * time.Second):
		t.Fatal("the calculation never asked for an evaluation")
	}
	cancel()
	sresp.Body.Close()
	tr.CloseIdleConnections()
	select {
	case <-cancelled:
	case <-time.After(30 * time.Second):
		t.Fatal("the calculation went on after the client left")
	}
	ev.mu.Lock()
	calls := ev.calls
	ev.mu.Unlock()
	e.ts.Close() // returns once the calculation's handler has returned
	ev.mu.Lock()
	later := ev.calls
	ev.mu.Unlock()
	if later != calls {
		t.Errorf("the calculation asked for evaluations after the client left: %d calls, then %d", calls, later)
	}
	testkit.NoLeaks(t, goleak.IgnoreTopFunction("database/sql.(*DB).connectionOpener"))
}

func TestOutcome(t *testing.T) {
	tests := []struct{ color, winner, status, want string }{
		{"white", "white", "mate", "won"},
		{"black", "white", "resign", "lost"},
		{"black", "", "draw", "draw"},
		{"white", "", "aborted", "aborted"},
		{"white", "", "noStart", "aborted"},
	}
	for _, tc := range tests {
		if got := outcome(store.Game{Color: tc.color, Winner: tc.winner, Status: tc.status}); got != tc.want {
			t.Errorf("outcome(%+v) = %q, want %q", tc, got, tc.want)
		}
	}
}

// TestEWRMode: the explorer calculates in the settle mode unless the
// request names another mode (or a tree depth of its own); an unknown mode
// is refused naming the modes.
func TestEWRMode(t *testing.T) {
	e := newTestEnv(t, nil)
	base := ewr.Params{Threshold: 0.1, Depth: 15, LossThreshold: -0.1, Rating: 1500, OpponentRating: 1500, MaxNodes: ewr.DefaultMaxNodes}
	params := `"params":{"threshold":0.1,"depth":15,"loss_threshold":-0.1,"maia_rating":1500,"opponent_maia_rating":1500`
	for _, c := range []struct {
		name, body string
		want       ewr.Params
		status     int
	}{
		{"default", `{` + params + `}}`, base.Settle(), http.StatusAccepted},
		{"settle", `{` + params + `},"mode":"settle"}`, base.Settle(), http.StatusAccepted},
		{"exact", `{` + params + `},"mode":"exact"}`, base, http.StatusAccepted},
		{"fast", `{` + params + `},"mode":"fast"}`, base.Fast(), http.StatusAccepted},
		{"own tree depth", `{` + params + `,"tree_depth":13}}`, func() ewr.Params { p := base; p.TreeDepth = 13; return p }(), http.StatusAccepted},
		{"unknown", `{` + params + `},"mode":"quick"}`, ewr.Params{}, http.StatusUnprocessableEntity},
	} {
		resp, body := e.postJSON(t, "/api/ewr", c.body, true)
		if resp.StatusCode != c.status {
			t.Errorf("%s: status %d %s", c.name, resp.StatusCode, body)
			continue
		}
		if c.status != http.StatusAccepted {
			if !strings.Contains(body, `mode \"quick\": use settle, exact, fast`) {
				t.Errorf("%s: %s", c.name, body)
			}
			continue
		}
		var started struct{ ID string }
		if err := json.Unmarshal([]byte(body), &started); err != nil {
			t.Fatal(err)
		}
		e.srv.mu.Lock()
		got := e.srv.jobs[started.ID].params
		e.srv.mu.Unlock()
		if got != c.want {
			t.Errorf("%s: params %+v, want %+v", c.name, got, c.want)
		}
	}
}
