package web

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strings"
	"testing"

	"github.com/outpostchess/outpost/analysis"
	"github.com/outpostchess/outpost/internal/store"
	"github.com/outpostchess/outpost/internal/web/htmlreport"
)

// storeLongGame stores a finished, analysed game of n plies of knights
// going out and back.
func storeLongGame(t *testing.T, st *store.Store, id string, n int) {
	t.Helper()
	ctx := context.Background()
	san := []string{"Nf3", "Nf6", "Ng1", "Ng8"}
	uci := []string{"g1f3", "g8f6", "f3g1", "f6g8"}
	a := analysis.Analysis{ID: id, Result: "*"}
	var moves []string
	for i := range n {
		color := "white"
		if i%2 == 1 {
			color = "black"
		}
		a.Plies = append(a.Plies, analysis.Ply{Ply: i + 1, MoveNumber: i/2 + 1, Color: color, SAN: san[i%4], UCI: uci[i%4]})
		moves = append(moves, uci[i%4])
	}
	raw, err := json.Marshal(a)
	if err != nil {
		t.Fatal(err)
	}
	if err := st.StartGame(ctx, store.Game{ID: id, Opponent: "bob", Color: "white", Variant: "standard", InitialFEN: "startpos", Status: "started"}); err != nil {
		t.Fatal(err)
	}
	if _, err := st.FinishGame(ctx, id, "draw", "", strings.Join(moves, " "), ""); err != nil {
		t.Fatal(err)
	}
	if err := st.EnqueueAnalysis(ctx, id); err != nil {
		t.Fatal(err)
	}
	if err := st.SaveAnalysis(ctx, id, string(raw), "summary"); err != nil {
		t.Fatal(err)
	}
}

// TestGamePageBoundsLongGames: GET /game/ID of a stored game longer than
// htmlreport.MaxPlies answers with the count and the bound instead of the
// report (a 10,000-ply game's page took 698 MB and four at once killed
// `outpost serve`); a game at the bound gets its report.
func TestGamePageBoundsLongGames(t *testing.T) {
	e := newTestEnv(t, nil)
	storeLongGame(t, e.st, "long0001", htmlreport.MaxPlies+1)
	storeLongGame(t, e.st, "long0002", htmlreport.MaxPlies)
	code, body := e.get(t, "/game/long0001")
	if code != 200 || !strings.Contains(body, "1001 plies, at most 1000") || strings.Contains(body, "g1-p1\"") || len(body) > 1<<20 {
		t.Errorf("past the bound: %d, %d bytes, says the bound: %v", code, len(body), strings.Contains(body, "1001 plies, at most 1000"))
	}
	code, body = e.get(t, "/game/long0002")
	if code != 200 || !strings.Contains(body, `id="g1-p1000"`) || !strings.HasSuffix(body, "</html>\n") {
		t.Errorf("at the bound: %d, %d bytes", code, len(body))
	}
	parseHTML(t, body)
}

// writeRecorder is a ResponseWriter that records the largest write and,
// when fail is set, fails every write.
type writeRecorder struct {
	header        http.Header
	writes, total int
	largest       int
	fail          bool
}

func (w *writeRecorder) Header() http.Header { return w.header }
func (w *writeRecorder) WriteHeader(int)     {}
func (w *writeRecorder) Write(b []byte) (int, error) {
	w.writes++
	if w.fail {
		return 0, errors.New("client gone")
	}
	w.total += len(b)
	w.largest = max(w.largest, len(b))
	return len(b), nil
}

// TestGamePageStreams: the console's game page of a game at the ply bound
// (an 11 MB page) is written as it is rendered. Its largest single write
// is a small part of the page, and a client gone at the first byte costs
// a small part of the page's allocations (before, the report section and
// then the whole page were built in memory and sent in one write: four
// such pages at once took 175 MB of `outpost serve`). Counted in bytes
// written and allocated, not time.
func TestGamePageStreams(t *testing.T) {
	e := newTestEnv(t, nil)
	storeLongGame(t, e.st, "long0002", htmlreport.MaxPlies)
	h := e.srv.Handler()
	serve := func(w *writeRecorder) {
		req := httptest.NewRequest(http.MethodGet, "/game/long0002", nil)
		req.Host = "127.0.0.1"
		h.ServeHTTP(w, req)
	}
	var m0, m1, m2 runtime.MemStats
	whole := &writeRecorder{header: http.Header{}}
	runtime.ReadMemStats(&m0)
	serve(whole)
	runtime.ReadMemStats(&m1)
	gone := &writeRecorder{header: http.Header{}, fail: true}
	serve(gone)
	runtime.ReadMemStats(&m2)
	all, failed := m1.TotalAlloc-m0.TotalAlloc, m2.TotalAlloc-m1.TotalAlloc
	t.Logf("page: %d bytes in %d writes, largest %d; allocated %d MB for the whole page, %d KB when the first write failed", whole.total, whole.writes, whole.largest, all>>20, failed>>10)
	if whole.total < 5<<20 {
		t.Fatalf("the page is %d bytes: not the report of a 1000-ply game", whole.total)
	}
	if whole.largest*20 > whole.total { // the graph, about 130 KB, is one write
		t.Errorf("largest write %d bytes of a %d-byte page: the page is not streamed", whole.largest, whole.total)
	}
	if gone.writes != 1 || failed*5 > all {
		t.Errorf("a client gone at once: %d writes, %d bytes allocated of the whole page's %d: the page is built before it is sent", gone.writes, failed, all)
	}
}
