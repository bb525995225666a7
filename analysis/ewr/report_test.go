package ewr

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/outpostchess/outpost/bots/score"
)

// TestWriteBenchSummary: the totals line of a benchmark pass, golden.
func TestWriteBenchSummary(t *testing.T) {
	r := BenchRun{
		Times:         []time.Duration{time.Second, 3 * time.Second, 2 * time.Second},
		EngineEvals:   30,
		CacheHits:     10,
		MaiaPositions: 40, MaiaCall: 4,
		StockfishTime: 4 * time.Second, MaiaTime: 1500 * time.Millisecond,
		Searches: 25, Nodes: 2_500_000,
	}
	var b bytes.Buffer
	writeBenchSummary(&b, r)
	assert.Equal(t, "median 2.00s per position · total 6.0s (Stockfish 4.0s, Maia 1.5s, other 0.5s) · Stockfish 30 evaluations, 25 searches, 2.5M nodes · Maia 40 positions in 4 calls · cache hit rate 25%\n", b.String())
}

// TestWriteCompareSummary: the totals of a side-by-side run, golden, for
// the exact-against-fast and the repeated run.
func TestWriteCompareSummary(t *testing.T) {
	r := CompareRun{
		A:       BenchRun{Times: []time.Duration{2 * time.Second, 4 * time.Second}, Searches: 40, Nodes: 8_000_000},
		B:       BenchRun{Times: []time.Duration{time.Second, 1 * time.Second}, Searches: 30, Nodes: 2_000_000, FirstRanking: []time.Duration{time.Second, 2500 * time.Millisecond}, MaxGap: []time.Duration{1200 * time.Millisecond}},
		MaxDiff: 0.0123, MeanDiff: 0.004, Moves: 12, Over1pp: 1, SameBest: 1, SameOrTie: 2,
	}
	for _, c := range []struct {
		repeat bool
		want   string
	}{
		{false, "A exact: median 3.00s, max 4.00s, 40 searches, 8.0M nodes\n" +
			"B:       median 1.00s, max 1.00s, 30 searches, 2.0M nodes (4.00× fewer nodes, median 3.00× faster)\n" +
			"B:       first ranking at most 2.5s, longest silence 1.2s (targets: 3 s, 2 s)\n" +
			"B against A: 12 moves, max |Δ| 1.23 pp, mean 0.40 pp, 1 over 1 pp; same best move in 1 of 2 positions, same best (ties within 1 pp) in 2 of 2\n"},
		{true, "A run 1: median 3.00s, max 4.00s, 40 searches, 8.0M nodes\n" +
			"B run 2: median 1.00s, max 1.00s, 30 searches, 2.0M nodes (4.00× fewer nodes, median 3.00× faster)\n" +
			"B run 2: first ranking at most 2.5s, longest silence 1.2s (targets: 3 s, 2 s)\n" +
			"B against A: 12 moves, max |Δ| 1.23 pp, mean 0.40 pp, 1 over 1 pp; same best move in 1 of 2 positions, same best (ties within 1 pp) in 2 of 2\n"},
	} {
		var b bytes.Buffer
		writeCompareSummary(&b, r, c.repeat)
		assert.Equal(t, c.want, b.String(), "repeat %v", c.repeat)
	}
}

// TestWriteCompareSides: the line naming the two sides, golden, for each
// way the sides are chosen.
func TestWriteCompareSides(t *testing.T) {
	half, zero := 0.5, 0.0
	tree10 := DefaultParams()
	tree10.TreeDepth = 10
	massy := DefaultParams()
	massy.FullDepthMass = 0.9
	fastP := DefaultParams().Fast()
	fastP.FullDepthMass = 0.9
	for _, c := range []struct {
		name   string
		p      Params
		margin *float64
		repeat bool
		want   string
	}{
		{"exact against fast", DefaultParams(), nil, false, "A: exact (depth 15 everywhere) · B: legal moves at depth 15, trees at depth 12\n"},
		{"mass and margin", massy, &half, false, "A: exact (depth 15 everywhere) · B: legal moves at depth 15, trees at depth 12 (positions of cumulative probability ≥ 0.9 at depth 15) (the analysing player's moves within 0.5 of the threshold again at depth 15)\n"},
		{"margin zero", DefaultParams(), &zero, false, "A: exact (depth 15 everywhere) · B: legal moves at depth 15, trees at depth 12\n"},
		{"tree depth given", tree10, &half, false, "A: exact (depth 15 everywhere) · B: legal moves at depth 15, trees at depth 10\n"},
		{"repeat exact", DefaultParams(), nil, true, "A and B: exact (depth 15 everywhere), calculated twice (run-to-run difference)\n"},
		{"settle mode (the default)", DefaultParams().Settle(), nil, false, "A: exact (depth 15 everywhere) · B: legal moves at depth 15, trees at depth 12 (the analysing player's moves within 0.03 of the threshold again at depth 15) (settle rule: towards depth 15, ended at 12 or 13 when probability × (change + 0.01) ≤ 0.004)\n"},
		{"repeat fast", fastP, nil, true, "A and B: the fast mode (trees at depth 12 (positions of cumulative probability ≥ 0.9 at depth 15)), calculated twice (run-to-run difference)\n"},
	} {
		exact, fast := compareSides(c.p, c.margin)
		var b bytes.Buffer
		writeCompareSides(&b, c.p, exact, fast, c.repeat)
		assert.Equal(t, c.want, b.String(), c.name)
		assert.Zero(t, exact.TreeDepth, c.name)
	}
}

// TestMachineLoad: the load average as the reports print it, and without
// one.
func TestMachineLoad(t *testing.T) {
	for _, c := range []struct {
		name      string
		load      func() (string, error)
		short     string
		wholeLine string
	}{
		{"proc", func() (string, error) { return "0.50 1.25 2.00 3/400 1234\n", nil }, "0.50 1.25 2.00", "load average before: 0.50 1.25 2.00 3/400 1234\n"},
		{"error", func() (string, error) { return "", errors.New("no /proc") }, "?", ""},
		{"short", func() (string, error) { return "0.5", nil }, "?", "load average before: 0.5"},
		{"none", nil, "?", ""},
	} {
		m := Machine{LoadAvg: c.load}
		assert.Equal(t, c.short, m.load(), c.name)
		var b bytes.Buffer
		m.writeLoad(&b, "before")
		assert.Equal(t, c.wholeLine, b.String(), c.name)
	}
}

// TestReadCompareReference: the A sides by position; B sides skipped; a
// bad record named by its number.
func TestReadCompareReference(t *testing.T) {
	a := CompareSide{Side: "A", Position: "start", Params: DefaultParams(), Nodes: 7, Result: &Result{BaseWinrate: 0.53}}
	b := a
	b.Side, b.Nodes = "B", 3
	noResult := a
	noResult.Position, noResult.Result = "qgd", nil
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	for _, cs := range []CompareSide{a, b, noResult} {
		require.NoError(t, enc.Encode(cs))
	}
	refs, err := ReadCompareReference(bytes.NewReader(buf.Bytes()))
	require.NoError(t, err)
	require.Len(t, refs, 1)
	assert.Equal(t, int64(7), refs["start"].Nodes)
	assert.Equal(t, 0.53, refs["start"].Result.BaseWinrate)

	_, err = ReadCompareReference(strings.NewReader(buf.String() + "{oops\n"))
	assert.ErrorContains(t, err, "record 4")
}

// TestBenchPositionNames: names are trimmed, empty ones skipped, unknown
// ones named.
func TestBenchPositionNames(t *testing.T) {
	for _, c := range []struct {
		list    string
		want    []string
		wantErr string
	}{
		{"", nil, ""},
		{" start , pawn endgame,", []string{"start", "pawn endgame"}, ""},
		{"start,nope", nil, `no benchmark position "nope"`},
	} {
		got, err := BenchPositionNames(c.list)
		if c.wantErr != "" {
			assert.ErrorContains(t, err, c.wantErr, c.list)
			continue
		}
		require.NoError(t, err, c.list)
		assert.Equal(t, c.want, got, c.list)
	}
}

// TestCompareReportRepeat runs the side-by-side report on one position
// with fake engines, saving every side, then again with the saved A side as
// the reference: the lines name the sides, the reused side is marked, and
// the fake engines' figures agree exactly.
func TestCompareReportRepeat(t *testing.T) {
	newCalc := func() *Calculator {
		return &Calculator{Prober: &fakeProber{}, Evaluator: &fakeEvaluator{def: func(string) score.Score { return score.Score{CP: 20} }}}
	}
	m := Machine{CPUs: 3, LoadAvg: func() (string, error) { return "1.00 2.00 3.00 1/2 3\n", nil }}
	var save, out bytes.Buffer
	opt := CompareReportOptions{Machine: m, Only: []string{"pawn endgame"}, Repeat: true, Save: &save}
	require.NoError(t, CompareReport(context.Background(), &out, newCalc(), DefaultParams(), opt))
	lines := strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n")
	require.Len(t, lines, 9, out.String())
	assert.Equal(t, "ewr benchmark, side by side: 10 positions, threshold 0.1, loss -0.10, Maia 1500 vs 1500, 3 engines", lines[0])
	assert.Equal(t, "A and B: exact (depth 15 everywhere), calculated twice (run-to-run difference)", lines[1])
	assert.Equal(t, "load average before: 1.00 2.00 3.00", lines[2])
	assert.Regexp(t, `^pawn endgame +A .* \| B .* \| max \|Δ\| 0\.00 pp .*digests ([0-9a-f]{8}) ([0-9a-f]{8})  load 1\.00 2\.00 3\.00$`, lines[3])
	assert.Regexp(t, `^B against A: [1-9][0-9]* moves, max \|Δ\| 0\.00 pp, mean 0\.00 pp, 0 over 1 pp; same best move in 1 of 1 positions, same best \(ties within 1 pp\) in 1 of 1$`, lines[7])
	assert.Equal(t, "load average after: 1.00 2.00 3.00", lines[8])
	d := regexp.MustCompile(`digests ([0-9a-f]{8}) ([0-9a-f]{8})`).FindStringSubmatch(lines[3])
	require.Len(t, d, 3)
	assert.Equal(t, d[1], d[2])

	refs, err := ReadCompareReference(&save)
	require.NoError(t, err)
	require.Contains(t, refs, "pawn endgame")
	out.Reset()
	opt = CompareReportOptions{Machine: m, Only: []string{"pawn endgame"}, Repeat: true, Reference: refs}
	require.NoError(t, CompareReport(context.Background(), &out, newCalc(), DefaultParams(), opt))
	assert.Contains(t, out.String(), "(ref)")
	assert.Contains(t, out.String(), "digests "+d[1]+" "+d[1])

	// a reference made with the hash kept is not taken by a run that
	// clears it before every search (the same params give other figures)
	out.Reset()
	opt = CompareReportOptions{Machine: m, Only: []string{"pawn endgame"}, Repeat: true, Reference: refs, ClearHash: true}
	require.NoError(t, CompareReport(context.Background(), &out, newCalc(), DefaultParams(), opt))
	assert.NotContains(t, out.String(), "(ref)", "a reference of the other hash policy was used")
}

// FuzzReadCompareReference: any input is read or refused with an error,
// never a panic; what is read is A sides with results, by position.
func FuzzReadCompareReference(f *testing.F) {
	f.Add(`{"side":"A","position":"start","result":{"base_winrate":0.5}}` + "\n" + `{"side":"B","position":"start","result":{}}`)
	f.Add(`{"side":"A","position":"qgd"}`)
	f.Add("{oops")
	f.Add("")
	f.Fuzz(func(t *testing.T, in string) {
		refs, err := ReadCompareReference(strings.NewReader(in))
		if err != nil {
			return
		}
		for pos, cs := range refs {
			if cs.Side != "A" || cs.Result == nil || cs.Position != pos {
				t.Fatalf("reference %q: %+v", pos, cs)
			}
		}
	})
}

// FuzzBenchPositionNames: every name returned is a benchmark position's,
// trimmed; a refused list names what it did not know.
func FuzzBenchPositionNames(f *testing.F) {
	f.Add("start, pawn endgame")
	f.Add(" ,,qgd")
	f.Add("nope")
	f.Fuzz(func(t *testing.T, list string) {
		names, err := BenchPositionNames(list)
		if err != nil {
			if !strings.Contains(err.Error(), "no benchmark position") {
				t.Fatalf("error %v", err)
			}
			return
		}
		for _, n := range names {
			found := false
			for _, bp := range BenchPositions {
				found = found || bp.Name == n
			}
			if !found || n != strings.TrimSpace(n) {
				t.Fatalf("name %q from %q", n, list)
			}
		}
	})
}
