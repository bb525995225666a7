package web

import (
	"context"
	"encoding/json"
	"hash/fnv"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/rs/zerolog"

	"github.com/outpostchess/outpost/analysis"
	"github.com/outpostchess/outpost/analysis/ewr"
	"github.com/outpostchess/outpost/analysis/ewr/ewrtest"
	"github.com/outpostchess/outpost/bots/score"
	"github.com/outpostchess/outpost/internal/store"
)

// fixtureID is the analysed game of the fixture (CCW6EEru, Lichess's
// analysis reclassified by our code).
const fixtureID = "CCW6EEru"

func loadFixture(t testing.TB) (*analysis.Analysis, string) {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("htmlreport", "testdata", "analysis.json"))
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Games []json.RawMessage `json:"games"`
	}
	if err := json.Unmarshal(data, &doc); err != nil {
		t.Fatal(err)
	}
	var a analysis.Analysis
	if err := json.Unmarshal(doc.Games[0], &a); err != nil {
		t.Fatal(err)
	}
	return &a, string(doc.Games[0])
}

// seedStore returns an in-memory store with the fixture game finished and
// analysed, one live game, one finished unanalysed game and two runs.
func seedStore(t testing.TB) *store.Store {
	t.Helper()
	ctx := context.Background()
	st, err := store.Open(ctx, ":memory:")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	a, raw := loadFixture(t)
	var moves []string
	for _, p := range a.Plies {
		moves = append(moves, p.UCI)
	}
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(st.StartGame(ctx, store.Game{ID: fixtureID, Opponent: "chabrot", OpponentRating: 1810, Color: "white", Engine: "hard", Speed: "blitz", Variant: "standard", Rated: true, InitialFEN: "startpos", Status: "started"}))
	_, err = st.FinishGame(ctx, fixtureID, "mate", "white", strings.Join(moves, " "), "")
	must(err)
	must(st.EnqueueAnalysis(ctx, fixtureID))
	must(st.SaveAnalysis(ctx, fixtureID, raw, "Accuracy: veloce 72%, chabrot 60%\nBlunders: 3 and 5"))
	must(st.StartGame(ctx, store.Game{ID: "live0001", Opponent: "maia1", Color: "black", Engine: "hard", Speed: "rapid", Variant: "standard", InitialFEN: "startpos", Status: "started"}))
	must(st.UpdateMoves(ctx, "live0001", "e2e4 c7c5"))
	must(st.StartGame(ctx, store.Game{ID: "plain001", Opponent: "bob", Color: "black", Speed: "bullet", Variant: "standard", InitialFEN: "startpos", Status: "started"}))
	_, err = st.FinishGame(ctx, "plain001", "resign", "black", "d2d4 d7d5", "")
	must(err)
	for i, h := range []string{`{"headline":{"games":10,"flagged":40,"same_name":0.7,"precision":0.8,"recall":0.75,"f1":0.77,"agree":0.9,"eval_mae_cp":12.5}}`,
		`{"headline":{"games":12,"flagged":44,"same_name":0.75,"precision":0.85,"recall":0.8,"f1":0.82,"agree":0.92,"eval_mae_cp":10}}`} {
		id, err := st.StartRun(ctx, "veloce", `{}`)
		must(err)
		must(st.FinishRun(ctx, id, store.RunFinished, h))
		_ = i
	}
	return st
}

type fakeStatus struct{ ids []string }

func (f fakeStatus) Playing() []string { return f.ids }

// testProber gives each legal move a probability proportional to
// 1/(rank+1), the moves ranked by UCI: deterministic and quick (few moves
// pass a 10% threshold).
type testProber struct{}

func (testProber) Probe(ctx context.Context, reqs []ewr.ProbeRequest) ([][]ewr.MoveProb, error) {
	out := make([][]ewr.MoveProb, len(reqs))
	for i, r := range reqs {
		b, err := ewrtest.Board(r)
		if err != nil {
			return nil, err
		}
		var ucis []string
		for _, m := range b.LegalMoves() {
			ucis = append(ucis, m.String())
		}
		sort.Strings(ucis)
		sum := 0.0
		for k := range ucis {
			sum += 1 / float64(k+1)
		}
		for k, u := range ucis {
			out[i] = append(out[i], ewr.MoveProb{UCI: u, P: 1 / float64(k+1) / sum})
		}
	}
	return out, nil
}

// testEvaluator scores a position by a hash of its FEN (−150..149 cp),
// after waiting delay, when set, and wait, when set, before each
// evaluation (wait's call counts the Evaluate calls from 1).
type testEvaluator struct {
	delay time.Duration
	wait  func(ctx context.Context, call int) error
	mu    sync.Mutex
	calls int
	n     int
}

func (e *testEvaluator) Evaluate(ctx context.Context, reqs []ewr.EvalRequest, on func(int, score.Score)) error {
	e.mu.Lock()
	e.calls++
	call := e.calls
	e.mu.Unlock()
	for i, r := range reqs {
		if e.delay > 0 {
			select {
			case <-time.After(e.delay):
			case <-ctx.Done():
				return ctx.Err()
			}
		}
		if e.wait != nil {
			if err := e.wait(ctx, call); err != nil {
				return err
			}
		}
		e.mu.Lock()
		e.n++
		e.mu.Unlock()
		on(i, fakeScore(r.FEN))
	}
	return nil
}

// fakeScore is the test evaluators' score of a position.
func fakeScore(fen string) score.Score {
	h := fnv.New32a()
	_, _ = io.WriteString(h, fen)
	return score.Score{CP: int(h.Sum32()%300) - 150}
}

// gatedEvaluator lets its first Evaluate call (a calculation's filter
// step) through; after that each evaluation waits for a token, or for
// release to be closed. Tests use it to look at a calculation in phase B.
type gatedEvaluator struct {
	testEvaluator
	tokens  chan struct{}
	release chan struct{}
}

func newGatedEvaluator() *gatedEvaluator {
	g := &gatedEvaluator{tokens: make(chan struct{}), release: make(chan struct{})}
	g.wait = func(ctx context.Context, call int) error {
		if call == 1 {
			return nil
		}
		select {
		case <-g.tokens:
		case <-g.release:
		case <-ctx.Done():
			return ctx.Err()
		}
		return nil
	}
	return g
}

// step lets one more evaluation through; false if none was waiting
// within the timeout.
func (g *gatedEvaluator) step(timeout time.Duration) bool {
	select {
	case g.tokens <- struct{}{}:
		return true
	case <-time.After(timeout):
		return false
	}
}

// open lets every evaluation through from now on (once).
func (g *gatedEvaluator) open() {
	select {
	case <-g.release:
	default:
		close(g.release)
	}
}

func gatedCalculator(g *gatedEvaluator) Calculator {
	return EWR{Calc: &ewr.Calculator{Prober: testProber{}, Evaluator: g}}
}

func testCalculator(delay time.Duration) Calculator {
	return EWR{Calc: &ewr.Calculator{Prober: testProber{}, Evaluator: &testEvaluator{delay: delay}}}
}

type testEnv struct {
	srv    *Server
	ts     *httptest.Server
	st     *store.Store
	config string
}

// newTestEnv starts the console on a loopback httptest server.
func newTestEnv(t testing.TB, mod func(*Options)) *testEnv {
	t.Helper()
	st := seedStore(t)
	cfg := filepath.Join(t.TempDir(), "outpost.toml")
	if err := os.WriteFile(cfg, []byte("# my config\n[store]\npath = \"x.db\"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	opt := Options{Store: st, ConfigPath: cfg, Calculator: testCalculator(0), LivePoll: 20 * time.Millisecond, Logger: zerolog.Nop()}
	if mod != nil {
		mod(&opt)
	}
	srv, err := New(opt)
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(srv.Handler())
	t.Cleanup(ts.Close)
	// Runs before ts.Close: the background work and its streams end first.
	t.Cleanup(srv.Close)
	return &testEnv{srv: srv, ts: ts, st: st, config: cfg}
}

func (e *testEnv) get(t testing.TB, path string) (int, string) {
	t.Helper()
	resp, err := http.Get(e.ts.URL + path)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

// page gets path, which must answer 200 with a self-contained HTML page
// (parseHTML), and returns the page.
func (e *testEnv) page(t *testing.T, path string) string {
	t.Helper()
	code, body := e.get(t, path)
	if code != http.StatusOK {
		t.Fatalf("GET %s: status %d: %s", path, code, body)
	}
	parseHTML(t, body)
	return body
}

// postForm posts a form with the CSRF token and same-origin headers unless
// hdr overrides them.
func (e *testEnv) postForm(t testing.TB, path string, form url.Values, hdr map[string]string) (*http.Response, string) {
	t.Helper()
	if _, ok := form[csrfField]; !ok {
		form.Set(csrfField, e.srv.csrf)
	}
	req, _ := http.NewRequest(http.MethodPost, e.ts.URL+path, strings.NewReader(form.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("Origin", e.ts.URL)
	req.Header.Set("Sec-Fetch-Site", "same-origin")
	for k, v := range hdr {
		if v == "" {
			req.Header.Del(k)
		} else {
			req.Header.Set(k, v)
		}
	}
	c := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	resp, err := c.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp, string(b)
}
