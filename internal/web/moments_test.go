package web

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/rs/zerolog"
	"go.uber.org/goleak"

	"github.com/outpostchess/outpost/analysis"
	"github.com/outpostchess/outpost/analysis/ewr"
	"github.com/outpostchess/outpost/internal/testkit"
)

// streamMoments reads a game's moments stream until it ends; it returns
// the states of the events and the last event.
func streamMoments(t *testing.T, url string) ([]string, momentsEvent) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, http.MethodGet, url+"/api/game/"+fixtureID+"/moments/events", nil)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK || resp.Header.Get("Content-Type") != "text/event-stream" {
		t.Fatalf("moments stream: %d %s", resp.StatusCode, resp.Header.Get("Content-Type"))
	}
	r := bufio.NewReader(resp.Body)
	var states []string
	for {
		ev, data := readEvent(t, r)
		if ev != "moments" {
			t.Fatalf("event %s: %s", ev, data)
		}
		var m momentsEvent
		if err := json.Unmarshal([]byte(data), &m); err != nil {
			t.Fatal(err)
		}
		states = append(states, m.State)
		if m.State != jobRunning {
			return states, m
		}
	}
}

// fixtureMoments is the number of moments of the fixture game: each
// side's critical moment and three more moves of our bot (White).
const fixtureMoments = 5

// wantMoments computes the fixture's moments directly (our bot plays
// White).
func wantMoments(t *testing.T) []ewr.Moment {
	t.Helper()
	a, _ := loadFixture(t)
	taken := map[int]bool{}
	for _, p := range ewr.CriticalPlies(a) {
		taken[p] = true
	}
	calc := &ewr.Calculator{Prober: testProber{}, Evaluator: &testEvaluator{}}
	ms, err := ewr.AnalyseCritical(context.Background(), calc, a, botPlies(a, "white", taken), ewr.DefaultParams(), ewr.Options{})
	if err != nil || len(ms) != fixtureMoments {
		t.Fatalf("moments: %v (%d)", err, len(ms))
	}
	return ms
}

func TestCriticalViews(t *testing.T) {
	a, _ := loadFixture(t)
	keys := ewr.CriticalPlies(a)
	vs := criticalViews(a, fixtureID, "white")
	if len(vs) != fixtureMoments || vs[0].Ply != keys[0] || vs[1].Ply != keys[1] ||
		vs[0].Why != "White's critical moment" || vs[1].Why != "Black's critical moment" {
		t.Fatalf("views %+v", vs)
	}
	delta := func(p analysis.Ply) float64 {
		if p.Delta == nil {
			return 0
		}
		return *p.Delta
	}
	shown := map[int]bool{keys[0]: true, keys[1]: true}
	// rank orders moves: judgement first, then the loss.
	rank := func(p analysis.Ply) float64 { return float64(p.Judgement)*10 + delta(p) }
	least := 1e9
	for i, v := range vs[2:] {
		p := a.Plies[v.Ply-1]
		if !p.White() || p.Judgement == analysis.NoJudgement || !strings.HasPrefix(v.Why, "our bot's move (") {
			t.Errorf("bot moment %+v", v)
		}
		if i > 0 && v.Ply <= vs[i+1].Ply {
			t.Errorf("bot moments not in game order: %+v", vs)
		}
		shown[v.Ply] = true
		least = min(least, rank(p))
	}
	for _, p := range a.Plies {
		if p.White() && p.Judgement != analysis.NoJudgement && !shown[p.Ply] && rank(p) > least {
			t.Errorf("ply %d (%s, %v) is worse than a bot moment shown", p.Ply, p.Judgement, delta(p))
		}
	}
	if len(criticalViews(a, fixtureID, "")) != 2 || len(criticalViews(a, fixtureID, "black")) != 2+min(3, countJudged(a, false, shown)) {
		t.Error("bot moments for another colour")
	}
}

func countJudged(a *analysis.Analysis, white bool, skip map[int]bool) int {
	n := 0
	for _, p := range a.Plies {
		if p.White() == white && p.Judgement != analysis.NoJudgement && !skip[p.Ply] {
			n++
		}
	}
	return n
}

func TestGameMomentsComputed(t *testing.T) {
	e := newTestEnv(t, func(o *Options) { o.Calculator = testCalculator(time.Millisecond) })
	states, last := streamMoments(t, e.ts.URL)
	if last.State != jobDone || len(states) < 2 {
		t.Fatalf("states %v", states)
	}
	// Both moments inline: the played move's expected winrate against the
	// best practical move's, with confidence, as ewr computes them.
	for _, m := range wantMoments(t) {
		want := []string{`data-ply="` + itoa(m.Ply) + `" data-state="done"`,
			fmt.Sprintf("Expected winrate for a Maia %d player (opponent %d)", m.Rating, m.OpponentRating),
			fmt.Sprintf(`<span class="san">%s</span></th><td class="ewr-played">%.1f%%</td><td class="conf">%s`, m.Played.SAN, 100*m.Played.ExpectedWinrate, m.Played.ConfidenceLabel)}
		if m.PlayedWasBest() {
			want = append(want, "The move played was the best practical move.")
		} else {
			want = append(want, fmt.Sprintf(`<span class="san">%s</span></th><td class="ewr-best">%.1f%%</td>`, m.Best.SAN, 100*m.Best.ExpectedWinrate),
				fmt.Sprintf("gave away %.1f points", 100*(m.Best.ExpectedWinrate-m.Played.ExpectedWinrate)))
		}
		mustContain(t, last.HTML, want...)
	}
	mustContain(t, last.HTML, "Open the position in the explorer")
	// The next view shows them at once, without the script.
	_, body := e.get(t, "/game/"+fixtureID)
	mustContain(t, body, `data-state="done"`, `class="ewr-played"`)
	if strings.Contains(body, "moments.js") || strings.Contains(body, `data-live=`) {
		t.Error("a finished job is followed live")
	}
}

// TestGameMomentsProgress looks at a moment while Stockfish works: the
// page shows its phase and a progress bar.
func TestGameMomentsProgress(t *testing.T) {
	g := newGatedEvaluator()
	e := newTestEnv(t, func(o *Options) { o.Calculator = gatedCalculator(g) })
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, http.MethodGet, e.ts.URL+"/api/game/"+fixtureID+"/moments/events", nil)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	r := bufio.NewReader(resp.Body)
	for {
		_, data := readEvent(t, r)
		var m momentsEvent
		if err := json.Unmarshal([]byte(data), &m); err != nil {
			t.Fatal(err)
		}
		if strings.Contains(m.HTML, "Evaluating positions with Stockfish") {
			mustContain(t, m.HTML, `data-state="running"`, `<progress max="100" value="`, `data-state="queued"`)
			break
		}
	}
	// Another page of the same game sees the same job, still running.
	_, body := e.get(t, "/game/"+fixtureID)
	mustContain(t, body, `data-live="true"`, `data-state="running"`, "Evaluating positions with Stockfish")
	g.open()
}

// TestGameMomentsCached checks that a second server (a restart) gets the
// moments from the ewr result cache in the store, with no engine work.
func TestGameMomentsCached(t *testing.T) {
	st := seedStore(t)
	ev := &testEvaluator{}
	calc := EWR{Calc: &ewr.Calculator{Prober: testProber{}, Evaluator: ev, Cache: st}}
	start := func() string {
		srv, err := New(Options{Store: st, Calculator: calc, Logger: zerolog.Nop()})
		if err != nil {
			t.Fatal(err)
		}
		ts := newServer(t, srv)
		return ts
	}
	_, first := streamMoments(t, start())
	if first.State != jobDone || strings.Contains(first.HTML, "(cached)") {
		t.Fatalf("first run: %s", first.HTML)
	}
	n := ev.n
	_, second := streamMoments(t, start())
	if second.State != jobDone || strings.Count(second.HTML, "(cached)") != fixtureMoments || ev.n != n {
		t.Errorf("second run: %d more evaluations: %s", ev.n-n, second.HTML)
	}
}

// fnCalculator is a Calculator whose Moment is a function.
type fnCalculator struct {
	mu     sync.Mutex
	calls  int
	moment func(ctx context.Context, g ewr.Game, ply int) (ewr.Moment, error)
}

func (f *fnCalculator) Calculate(context.Context, ewr.Position, ewr.Params, func(Progress)) (*ewr.Result, error) {
	return nil, errors.New("not in this test")
}

func (f *fnCalculator) Moment(ctx context.Context, g ewr.Game, ply int, _ func(Progress)) (ewr.Moment, error) {
	f.mu.Lock()
	f.calls++
	f.mu.Unlock()
	return f.moment(ctx, g, ply)
}

func (f *fnCalculator) count() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.calls
}

func TestGameMomentsUnavailable(t *testing.T) {
	// No calculator: the report says so plainly and still links the
	// positions to the explorer.
	none := newTestEnv(t, func(o *Options) { o.Calculator = nil })
	code, body := none.get(t, "/game/"+fixtureID)
	if code != http.StatusOK {
		t.Fatalf("status %d", code)
	}
	mustContain(t, body, `id="moments-unavailable"`, "Expected winrate is not available in this console: it needs the Maia models and Stockfish",
		"Open the position in the explorer")
	if strings.Contains(body, "moments.js") {
		t.Error("script loaded without a calculator")
	}
	if code, _ := none.get(t, "/api/game/"+fixtureID+"/moments/events"); code != http.StatusServiceUnavailable {
		t.Errorf("stream without a calculator: %d", code)
	}
	// A calculator whose engines cannot start: said once, plainly.
	f := &fnCalculator{moment: func(context.Context, ewr.Game, int) (ewr.Moment, error) {
		return ewr.Moment{}, fmt.Errorf("%w (it needs the Maia models and Stockfish): no such file /usr/games/stockfish", ErrUnavailable)
	}}
	e := newTestEnv(t, func(o *Options) { o.Calculator = f })
	_, last := streamMoments(t, e.ts.URL)
	if last.State != jobUnavailable || f.count() != 1 {
		t.Fatalf("state %s after %d calls", last.State, f.count())
	}
	mustContain(t, last.HTML, "expected winrate is not available (it needs the Maia models and Stockfish): no such file /usr/games/stockfish.")
	_, body = e.get(t, "/game/"+fixtureID)
	mustContain(t, body, `id="moments-unavailable"`, "no such file /usr/games/stockfish")
}

func TestGameMomentsFailureRetried(t *testing.T) {
	a, _ := loadFixture(t)
	bad := ewr.CriticalPlies(a)[1]
	calc := &ewr.Calculator{Prober: testProber{}, Evaluator: &testEvaluator{}}
	fail := true
	f := &fnCalculator{moment: func(ctx context.Context, g ewr.Game, ply int) (ewr.Moment, error) {
		if ply == bad && fail {
			return ewr.Moment{}, errors.New("ewr: stockfish: engine crashed")
		}
		return ewr.AnalyseMoment(ctx, calc, g, ply, ewr.DefaultParams(), ewr.Options{})
	}}
	e := newTestEnv(t, func(o *Options) { o.Calculator = f })
	_, last := streamMoments(t, e.ts.URL)
	if last.State != jobDone || strings.Count(last.HTML, `data-state="done"`) != fixtureMoments-1 {
		t.Fatalf("first view: %s", last.HTML)
	}
	mustContain(t, last.HTML, `data-ply="`+itoa(bad)+`" data-state="failed"`, "Not computed: ewr: stockfish: engine crashed")
	// The failure is not kept: the next view computes again.
	fail = false
	_, last = streamMoments(t, e.ts.URL)
	if f.count() != 2*fixtureMoments || strings.Count(last.HTML, `data-state="done"`) != fixtureMoments {
		t.Errorf("after %d calls: %s", f.count(), last.HTML)
	}
}

// TestGameMomentsCancelledWhenNobodyWatches checks that a job nobody
// follows stops after the grace period, and that nothing is left behind.
func TestGameMomentsCancelledWhenNobodyWatches(t *testing.T) {
	before := goleak.IgnoreCurrent()
	g := newGatedEvaluator()
	st := seedStore(t)
	srv, err := New(Options{Store: st, Calculator: gatedCalculator(g), Logger: zerolog.Nop()})
	if err != nil {
		t.Fatal(err)
	}
	srv.momentsGrace = 50 * time.Millisecond
	ts := httptest.NewServer(srv.Handler())
	defer ts.Close()
	url := ts.URL
	tr := &http.Transport{}
	client := &http.Client{Transport: tr}
	ctx, cancel := context.WithCancel(context.Background())
	req, _ := http.NewRequestWithContext(ctx, http.MethodGet, url+"/api/game/"+fixtureID+"/moments/events", nil)
	resp, err := client.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	readEvent(t, bufio.NewReader(resp.Body))
	cancel()
	resp.Body.Close()
	tr.CloseIdleConnections()
	// The job's end has no event: poll, with a bound generous enough for
	// a loaded machine (docs/testing.md); the grace is 50 ms.
	deadline := time.Now().Add(30 * time.Second)
	for {
		srv.mu.Lock()
		n := len(srv.momentJobs)
		srv.mu.Unlock()
		if n == 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the job went on with nobody watching")
		}
		time.Sleep(10 * time.Millisecond)
	}
	srv.Close()
	ts.Close()
	testkit.NoLeaks(t, goleak.IgnoreTopFunction("database/sql.(*DB).connectionOpener"), before)
}

// newServer serves srv on loopback until the test ends; the server's
// background work ends first.
func newServer(t *testing.T, srv *Server) string {
	t.Helper()
	ts := httptest.NewServer(srv.Handler())
	t.Cleanup(ts.Close)
	t.Cleanup(srv.Close)
	return ts.URL
}

func TestGameMomentsStreamRefusals(t *testing.T) {
	f := &fnCalculator{moment: func(context.Context, ewr.Game, int) (ewr.Moment, error) {
		return ewr.Moment{}, errors.New("must not run")
	}}
	e := newTestEnv(t, func(o *Options) { o.Calculator = f })
	for _, tc := range []struct {
		path, site string
		code       int
	}{
		{"/api/game/nope/moments/events", "", http.StatusNotFound},
		{"/api/game/plain001/moments/events", "", http.StatusConflict}, // not analysed
		{"/api/game/" + fixtureID + "/moments/events", "cross-site", http.StatusForbidden},
		{"/api/game/" + fixtureID + "/moments/events", "same-site", http.StatusForbidden},
	} {
		req, _ := http.NewRequest(http.MethodGet, e.ts.URL+tc.path, nil)
		if tc.site != "" {
			req.Header.Set("Sec-Fetch-Site", tc.site)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != tc.code {
			t.Errorf("%s (%s): %d, want %d", tc.path, tc.site, resp.StatusCode, tc.code)
		}
	}
	if f.count() != 0 {
		t.Errorf("%d moments computed", f.count())
	}
}

// TestGameMomentsNewAnalysis checks that a finished job is not shown for
// another analysis of the game (other critical moments).
func TestGameMomentsNewAnalysis(t *testing.T) {
	e := newTestEnv(t, nil)
	if _, last := streamMoments(t, e.ts.URL); last.State != jobDone {
		t.Fatalf("state %s", last.State)
	}
	a, _ := loadFixture(t)
	g, err := e.st.Game(context.Background(), fixtureID)
	if err != nil {
		t.Fatal(err)
	}
	if v, live := e.srv.momentsFor(a, g); live || v.State != jobDone {
		t.Fatalf("same analysis: live %v, state %s", live, v.State)
	}
	// The re-analysis judges White's critical move differently.
	a.Plies[ewr.CriticalPlies(a)[0]-1].Judgement = analysis.NoJudgement
	v, live := e.srv.momentsFor(a, g)
	if !live || v.State != jobRunning || v.Moments[0].State != momentQueued {
		t.Errorf("new analysis: live %v, %+v", live, v)
	}
	j := e.srv.momentsJobFor(fixtureID, a, g)
	defer e.srv.unsubscribe(fixtureID, j)
	e.srv.mu.Lock()
	plies := j.view.Moments[0].Ply
	e.srv.mu.Unlock()
	if plies != v.Moments[0].Ply {
		t.Errorf("the new job computes ply %d, want %d", plies, v.Moments[0].Ply)
	}
}
