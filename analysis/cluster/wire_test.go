package cluster

import (
	"encoding/json"
	"errors"
	"reflect"
	"strings"
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
	if got := resultSubject("j", 4, "UX"); got != "outpost.results.j.4.UX" {
		t.Errorf("resultSubject = %q", got)
	}
	for _, tt := range []struct {
		subject, job, identity string
		index                  int
		ok                     bool
	}{
		{"outpost.results.abc.3.UX", "abc", "UX", 3, true},
		{"outpost.results.abc.3", "", "", 0, false}, // the old form: no identity
		{"outpost.results.abc.3.", "", "", 0, false},
		{"outpost.results.abc.x.UX", "", "", 0, false},
		{"outpost.results.refused.17.open", "refused", "open", 17, true},
	} {
		job, index, id, err := parseResultSubject(tt.subject)
		if (err == nil) != tt.ok || (tt.ok && (job != tt.job || index != tt.index || id != tt.identity)) {
			t.Errorf("parseResultSubject(%q) = %q, %d, %q, %v; want %q, %d, %q, ok=%v", tt.subject, job, index, id, err, tt.job, tt.index, tt.identity, tt.ok)
		}
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

// FuzzParseResultSubject: what parseResultSubject accepts is written back
// by resultSubject to the same subject, with a job, an index and an
// identity without dots.
func FuzzParseResultSubject(f *testing.F) {
	for _, s := range []string{"outpost.results.abc.0.UX", "outpost.results.abc.0", "outpost.results.refused.12.open", "outpost.results..0.", ""} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		job, index, id, err := parseResultSubject(s)
		if err != nil {
			return
		}
		if job == "" || index < 0 || id == "" || strings.Contains(id, ".") || resultSubject(job, index, id) != s {
			t.Fatalf("accepted %q as %q %d %q", s, job, index, id)
		}
	})
}

// FuzzPeekRoute: a route peekRoute finds names the subject's chunk and a
// nonce of the right form.
func FuzzPeekRoute(f *testing.F) {
	job := "0123456789abcdef01234567"
	f.Add("outpost.work."+job+".0", []byte(`{"job":"`+job+`","index":0,"nonce":"0123456789abcdef0123456789abcdef"}`))
	f.Add("outpost.work."+job+".1", []byte(`{"job":"`+job+`","index":0}`))
	f.Fuzz(func(t *testing.T, subject string, data []byte) {
		r := peekRoute(subject, data)
		if !r.ok {
			return
		}
		if workSubject(r.job, r.index) != subject || !isHex(r.nonce, nonceLen) {
			t.Fatalf("route %+v for %q", r, subject)
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

// The assembler takes each chunk's first result with the chunk's nonce
// and verified outcomes; it drops what has no nonce, another chunk's
// nonce, another job's subject or no identity, refuses outcomes outside
// the rules, and fails the job on a failure with the nonce only.
func TestAssemblerTakesEachChunkOnce(t *testing.T) {
	chunks := sampleChunks() // chunk 0: after 1.e4 e5 (White to move); chunk 1: after 1.e4
	// chunk 1 was published again after each refusal: r1… are its
	// earlier publications' nonces, n1 its last
	nonces := [][]string{{"n0"}, {"r1", "r2", "r3", "r4", "r5", "r6", "r7", "r8", "r9", "r10", "n1"}}
	a := newAssembler("j", chunks, nonces)
	e, big, mate := score.CP(10), score.CP(40_000), score.Mate(200)
	res := func(i int, nonce string, outs []analysis.Outcome, errText string) []byte {
		b, _ := json.Marshal(resultMsg{Job: "j", Index: i, Worker: "w", Nonce: nonce, Outcomes: outs, Err: errText})
		return b
	}
	good1 := []analysis.Outcome{{Eval: &e, BestUCI: "e7e5", PV: []string{"e7e5", "g1f3"}, Depth: 12, Nodes: 1000}}
	var drop *droppedResult
	var bad *refusedResult
	var failed *failedChunk
	for _, tc := range []struct {
		name    string
		subject string
		data    []byte
		want    any // nil: taken
	}{
		{"no nonce", resultSubject("j", 1, "UX"), res(1, "", good1, ""), &drop},
		{"another chunk's nonce", resultSubject("j", 1, "UX"), res(1, "n0", good1, ""), &drop},
		{"a failure without the nonce", resultSubject("j", 1, "UX"), res(1, "", nil, "forged"), &drop},
		{"another job", resultSubject("other", 1, "UX"), res(1, "n1", good1, ""), &drop},
		{"no identity (the old subject)", "outpost.results.j.1", res(1, "n1", good1, ""), &drop},
		{"chunk out of range", resultSubject("j", 2, "UX"), res(2, "n1", good1, ""), &drop},
		{"not JSON", resultSubject("j", 1, "UX"), []byte("{"), &drop},
		{"no outcome", resultSubject("j", 1, "UX"), res(1, "r1", nil, ""), &bad},
		{"illegal best move", resultSubject("j", 1, "UX"), res(1, "r2", []analysis.Outcome{{Eval: &e, BestUCI: "e1e8"}}, ""), &bad},
		{"illegal line", resultSubject("j", 1, "UX"), res(1, "r3", []analysis.Outcome{{Eval: &e, BestUCI: "e7e5", PV: []string{"e7e5", "e7e5"}}}, ""), &bad},
		{"cp out of range", resultSubject("j", 1, "UX"), res(1, "r4", []analysis.Outcome{{Eval: &big, BestUCI: "e7e5"}}, ""), &bad},
		{"mate out of range", resultSubject("j", 1, "UX"), res(1, "r5", []analysis.Outcome{{Eval: &mate, BestUCI: "e7e5"}}, ""), &bad},
		{"negative depth", resultSubject("j", 1, "UX"), res(1, "r6", []analysis.Outcome{{Eval: &e, BestUCI: "e7e5", Depth: -1}}, ""), &bad},
		// a publication is refused once: another answer with its nonce is dropped
		{"a refused publication again", resultSubject("j", 1, "UX"), res(1, "r6", good1, ""), &drop},
		// with the nonce but not decodable: refused, not dropped
		{"cp 1e308 with the nonce", resultSubject("j", 1, "UX"), []byte(`{"job":"j","index":1,"nonce":"r7","outcomes":[{"Eval":{"cp":1e308},"BestUCI":"e7e5"}]}`), &bad},
		{"mate 0 with the nonce", resultSubject("j", 1, "UX"), []byte(`{"job":"j","index":1,"nonce":"r8","outcomes":[{"Eval":{"mate":0},"BestUCI":"e7e5"}]}`), &bad},
		{"NaN with the nonce", resultSubject("j", 1, "UX"), []byte(`{"job":"j","index":1,"nonce":"r9","outcomes":[{"Eval":{"cp":NaN}}]}`), &bad},
		{"NaN before the nonce", resultSubject("j", 1, "UX"), []byte(`{"job":"j","index":1,"outcomes":[{"Eval":{"cp":NaN}}],"nonce":"r10"}`), &drop},
		{"NaN with another nonce", resultSubject("j", 1, "UX"), []byte(`{"job":"j","index":1,"nonce":"zz","outcomes":[{"Eval":{"cp":NaN}}]}`), &drop},
		{"taken", resultSubject("j", 1, "UX"), res(1, "n1", good1, ""), nil},
		// a redelivered chunk's second result is ignored, even if it differs
		{"duplicate", resultSubject("j", 1, "UY"), res(1, "n1", []analysis.Outcome{{BestUCI: "a7a6"}}, ""), nil},
		{"a failure with the nonce", resultSubject("j", 0, "UX"), res(0, "n0", nil, "engine refused"), &failed},
	} {
		n, err := a.add(tc.subject, tc.data)
		switch want := tc.want.(type) {
		case nil:
			if err != nil {
				t.Errorf("%s: %v, want taken", tc.name, err)
			}
		case **droppedResult:
			if !errors.As(err, want) || n != 0 {
				t.Errorf("%s: %d %v, want dropped", tc.name, n, err)
			}
		case **refusedResult:
			if !errors.As(err, want) || n != 0 {
				t.Errorf("%s: %d %v, want refused", tc.name, n, err)
			}
		case **failedChunk:
			if !errors.As(err, want) {
				t.Errorf("%s: %v, want the job failed", tc.name, err)
			}
		}
	}
	if a.complete() || a.duplicates != 1 || a.out[1][0].Eval.CP != 10 {
		t.Fatalf("after duplicate: complete=%v duplicates=%d out=%+v", a.complete(), a.duplicates, a.out[1])
	}
	e2 := score.CP(-20)
	if _, err := a.add(resultSubject("j", 0, "UX"), res(0, "n0", []analysis.Outcome{{Eval: &e2, BestUCI: "g1f3"}}, "")); err != nil || !a.complete() {
		t.Fatalf("last result: %v complete=%v", err, a.complete())
	}
}

func TestPrintable(t *testing.T) {
	for in, want := range map[string]string{
		"worker-1":           "worker-1",
		"w\x1b[2Jevil\nline": `w\x1b[2Jevil\nline`,
		"émile":              "émile",
		"a\u202eb":           `a\u202eb`,
	} {
		if got := printable(in); got != want {
			t.Errorf("printable(%q) = %q, want %q", in, got, want)
		}
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
