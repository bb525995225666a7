package cluster

import (
	"encoding/json"
	"reflect"
	"testing"
	"time"

	"github.com/outpostchess/outpost/analysis"
	"github.com/outpostchess/outpost/bots/score"
	"github.com/outpostchess/outpost/bots/uci"
)

func TestParseSubject(t *testing.T) {
	tests := []struct {
		subject string
		job     string
		index   int
		ok      bool
	}{
		{"outpost.results.abc.0", "abc", 0, true},
		{"outpost.results.abc.17", "abc", 17, true},
		{"outpost.results.abc", "", 0, false},
		{"outpost.results..3", "", 0, false},
		{"outpost.results.abc.-1", "", 0, false},
		{"outpost.results.abc.x", "", 0, false},
		{"outpost.work.abc.1", "", 0, false},
	}
	for _, tt := range tests {
		job, index, err := parseSubject(resultsPrefix, tt.subject)
		if (err == nil) != tt.ok || job != tt.job || index != tt.index {
			t.Errorf("parseSubject(%q) = %q, %d, %v; want %q, %d, ok=%v", tt.subject, job, index, err, tt.job, tt.index, tt.ok)
		}
	}
	if got := resultSubject("j", 4); got != "outpost.results.j.4" {
		t.Errorf("resultSubject = %q", got)
	}
}

func FuzzParseSubject(f *testing.F) {
	for _, s := range []string{"outpost.results.abc.0", "outpost.results..", "outpost.results.a.b.c", ""} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		job, index, err := parseSubject(resultsPrefix, s)
		if err != nil {
			return
		}
		if job == "" || index < 0 {
			t.Fatalf("accepted %q as %q %d", s, job, index)
		}
	})
}

func sampleChunks() []analysis.Chunk {
	jobs := []analysis.Job{
		{Pos: uci.Position{Moves: []string{"e2e4"}}, Limits: uci.Limits{Nodes: 1000}},
		{Pos: uci.Position{Moves: []string{"e2e4", "e7e5"}}, WhiteToMove: true, Limits: uci.Limits{Nodes: 1000}},
	}
	return []analysis.Chunk{{Jobs: jobs[1:]}, {Jobs: jobs[:1], Warmup: &jobs[1]}}
}

func TestJobIDDependsOnSpecAndChunks(t *testing.T) {
	eng := EngineSettings{Name: "sf15", Threads: 1, HashMB: 16}
	a, err := JobID(eng, sampleChunks())
	if err != nil {
		t.Fatal(err)
	}
	b, _ := JobID(eng, sampleChunks())
	if a != b || len(a) != 24 {
		t.Fatalf("job ids %q %q: want equal, 24 hex digits", a, b)
	}
	eng.HashMB = 32
	if c, _ := JobID(eng, sampleChunks()); c == a {
		t.Error("another hash size gave the same job id")
	}
	ch := sampleChunks()
	ch[0].Jobs[0].Limits.Nodes = 2000
	if c, _ := JobID(EngineSettings{Name: "sf15", Threads: 1, HashMB: 16}, ch); c == a {
		t.Error("another node budget gave the same job id")
	}
}

// Outcomes cross the bus as JSON: every field must survive.
func TestOutcomeRoundTrip(t *testing.T) {
	e, m := score.CP(-37), score.Mate(-3)
	in := []analysis.Outcome{
		{Eval: &e, BestUCI: "e2e4", PV: []string{"e2e4", "e7e5"}, Depth: 12, Nodes: 12345},
		{Eval: &m, BestUCI: "h7h8q", Depth: 30, Nodes: 99},
		{},
	}
	b, err := json.Marshal(resultMsg{Job: "j", Index: 1, Outcomes: in})
	if err != nil {
		t.Fatal(err)
	}
	var out resultMsg
	if err := json.Unmarshal(b, &out); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(in, out.Outcomes) {
		t.Fatalf("round trip:\n in %+v\nout %+v", in, out.Outcomes)
	}
	var c []analysis.Chunk
	b, _ = json.Marshal(sampleChunks())
	if err := json.Unmarshal(b, &c); err != nil || !reflect.DeepEqual(c, sampleChunks()) {
		t.Fatalf("chunks round trip: %v\n%+v", err, c)
	}
}

func TestAssemblerTakesEachChunkOnce(t *testing.T) {
	chunks := sampleChunks()
	a := newAssembler("j", chunks)
	e := score.CP(10)
	res := func(i int, outs []analysis.Outcome, errText string) []byte {
		b, _ := json.Marshal(resultMsg{Job: "j", Index: i, Worker: "w", Outcomes: outs, Err: errText})
		return b
	}
	if n, err := a.add(resultSubject("j", 1), res(1, []analysis.Outcome{{Eval: &e}}, "")); err != nil || n != 1 {
		t.Fatalf("first result: %d %v", n, err)
	}
	// a redelivered chunk's second result is ignored, even if it differs
	if n, err := a.add(resultSubject("j", 1), res(1, []analysis.Outcome{{BestUCI: "a2a3"}}, "")); err != nil || n != 0 {
		t.Fatalf("duplicate: %d %v", n, err)
	}
	if a.complete() || a.duplicates != 1 || a.out[1][0].Eval.CP != 10 {
		t.Fatalf("after duplicate: complete=%v duplicates=%d out=%+v", a.complete(), a.duplicates, a.out[1])
	}
	if _, err := a.add(resultSubject("j", 0), res(0, nil, "")); err == nil {
		t.Error("a result with no outcome for a one-position chunk was accepted")
	}
	if _, err := a.add(resultSubject("other", 0), res(0, nil, "")); err == nil {
		t.Error("another job's result was accepted")
	}
	if _, err := a.add(resultSubject("j", 0), res(0, nil, "engine refused")); err == nil {
		t.Error("a worker's error did not fail the job")
	}
	if _, err := a.add(resultSubject("j", 0), res(0, []analysis.Outcome{{BestUCI: "e7e5"}}, "")); err != nil || !a.complete() {
		t.Fatalf("last result: %v complete=%v", err, a.complete())
	}
}

func TestRateWindow(t *testing.T) {
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	var r rateWindow
	if got := r.add(t0, 100); got != 0 {
		t.Errorf("one sample: %v", got)
	}
	if got := r.add(t0.Add(10*time.Second), 150); got != 5 {
		t.Errorf("50 positions in 10 s: %v", got)
	}
	// samples older than the span drop out: 20 positions in the last 60 s
	r.add(t0.Add(30*time.Second), 150)
	if got := r.add(t0.Add(90*time.Second), 170); got != 20.0/60 {
		t.Errorf("after the span: %v, want %v", got, 20.0/60)
	}
}
