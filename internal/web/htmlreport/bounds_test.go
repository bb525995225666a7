package htmlreport

import (
	"errors"
	"io"
	"runtime"
	"strings"
	"testing"

	"github.com/outpostchess/outpost/analysis"
)

// shuffle is an analysis of n plies of knights going out and back.
func shuffle(id string, n int) *analysis.Analysis {
	san := []string{"Nf3", "Nf6", "Ng1", "Ng8"}
	uci := []string{"g1f3", "g8f6", "f3g1", "f6g8"}
	a := &analysis.Analysis{ID: id, Result: "*"}
	for i := range n {
		color := "white"
		if i%2 == 1 {
			color = "black"
		}
		a.Plies = append(a.Plies, analysis.Ply{Ply: i + 1, MoveNumber: i/2 + 1, Color: color, SAN: san[i%4], UCI: uci[i%4]})
	}
	return a
}

// TestReportPlyBounds: a game past MaxPlies, or a page past MaxPagePlies,
// is refused with its count before anything is written (a 10,000-ply game
// peaked at 652 MB, 20 of them ran out of memory); at the bounds it is
// written.
func TestReportPlyBounds(t *testing.T) {
	var te *TooLongError
	var b strings.Builder
	err := Write(&b, []*analysis.Analysis{shuffle("long0001", MaxPlies+1)})
	if !errors.As(err, &te) || !strings.Contains(err.Error(), "game long0001 has 1001 plies, at most 1000") || b.Len() != 0 {
		t.Errorf("a game past the bound: %v (%d bytes written)", err, b.Len())
	}
	if _, err := Game(shuffle("long0001", MaxPlies+1), "g1"); !errors.As(err, &te) {
		t.Errorf("Game past the bound: %v", err)
	}
	page := make([]*analysis.Analysis, MaxPagePlies/MaxPlies+1)
	for i := range page {
		page[i] = shuffle("g", MaxPlies)
	}
	b.Reset()
	err = Write(&b, page)
	if !errors.As(err, &te) || !strings.Contains(err.Error(), "the page of 61 games has 61000 plies, at most 60000") || b.Len() != 0 {
		t.Errorf("a page past the bound: %v (%d bytes written)", err, b.Len())
	}
	b.Reset()
	if err := Write(&b, []*analysis.Analysis{shuffle("at000001", MaxPlies)}); err != nil || !strings.Contains(b.String(), "g1-p1000") {
		t.Errorf("at the bound: %v", err)
	}
}

// failingWriter fails every write, counting the calls.
type failingWriter struct{ writes int }

func (f *failingWriter) Write([]byte) (int, error) {
	f.writes++
	return 0, errors.New("disk full")
}

// TestReportStreams: the page is written as it is rendered. Given a writer
// that fails at once, Write stops at its first write having allocated a
// small part of what the page needs (before, every game's section, about
// 10 KB a ply, was built in memory before the first byte went out: here
// 20 games of 500 plies, over 100 MB). Counted in bytes allocated, not
// time.
func TestReportStreams(t *testing.T) {
	page := make([]*analysis.Analysis, 20)
	for i := range page {
		page[i] = shuffle("g", 500)
	}
	// the whole page, for scale
	var m0, m1, m2 runtime.MemStats
	runtime.ReadMemStats(&m0)
	if err := Write(io.Discard, page); err != nil {
		t.Fatal(err)
	}
	runtime.ReadMemStats(&m1)
	fw := &failingWriter{}
	if err := Write(fw, page); err == nil || fw.writes != 1 {
		t.Fatalf("want the first write's error, got %v after %d writes", err, fw.writes)
	}
	runtime.ReadMemStats(&m2)
	whole, failed := m1.TotalAlloc-m0.TotalAlloc, m2.TotalAlloc-m1.TotalAlloc
	t.Logf("whole page: %d MB allocated; stopped at the first write: %d KB", whole>>20, failed>>10)
	if failed*20 > whole {
		t.Errorf("stopping at the first write allocated %d bytes, more than 1/20 of the whole page's %d: the page is not streamed", failed, whole)
	}
}
