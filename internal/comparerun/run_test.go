package comparerun

import (
	"bytes"
	"context"
	"errors"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/outpostchess/outpost/analysis"
)

func fetchAll(t *testing.T, w *world) []*analysis.Game {
	t.Helper()
	games, errs, err := NewFetcher(w.public).UserGames(context.Background(), "alice", UserGamesOptions{})
	if err != nil || len(errs) != 0 {
		t.Fatal(err, errs)
	}
	return games
}

func oracleComparer(st *memRunStore, o *oracle) *Comparer {
	return &Comparer{Store: st, Pool: analysis.PoolConfig{Factory: o.factory(), Workers: 1, Command: []string{"oracle"}},
		Budget: analysis.Budget{Nodes: 1000}, BorderlineBand: -1}
}

// TestCompareEndToEnd runs two comparisons of a sandbox user's analysed
// games with fake engines: the first reproduces Lichess's evals (full
// agreement), the second scales them (disagreements); both runs and every
// game are stored, and the second report shows the trend.
func TestCompareEndToEnd(t *testing.T) {
	w := newWorld(t)
	w.playSynthetic(t, syntheticGames)
	games := fetchAll(t, w)
	st := openStore(t)
	ctx := context.Background()
	src := UserSource{Fetcher: NewFetcher(w.public), User: "Alice", Since: 24 * time.Hour, Max: 10}

	exact := newOracle(t, games, 1)
	rep, err := oracleComparer(st, exact).Run(ctx, src)
	if err != nil {
		t.Fatal(err)
	}
	if rep.Analysed != 3 || rep.Reused != 0 || rep.Resumed || len(rep.Games) != 3 {
		t.Fatalf("analysed %d reused %d resumed %v games %d", rep.Analysed, rep.Reused, rep.Resumed, len(rep.Games))
	}
	h := rep.Headline
	if h.Games != 3 || h.Flagged == 0 || *h.SameName != 1 || *h.F1 != 1 || *h.WithinOne != 1 || h.EvalMAECP != 0 || h.Disagreements != 0 {
		t.Fatalf("exact engine headline %+v", h)
	}
	if rep.Players.All.ACPL != 6 || rep.Players.All.ACPLMeanAbs != 0 || rep.Players.All.AccuracyMeanAbs >= 0.5 {
		t.Fatalf("player figures %+v", rep.Players.All)
	}
	if rep.Players.User == nil || rep.Players.User.ACPL != 3 || rep.Players.Opponents.ACPL != 3 {
		t.Fatalf("user/opponent split %+v %+v", rep.Players.User, rep.Players.Opponents)
	}
	if len(rep.Trend) != 1 || rep.Trend[0].RunID != rep.RunID {
		t.Fatalf("trend %+v", rep.Trend)
	}
	// stored: the finished run with its report, and every game
	runs, err := st.Runs(ctx, "alice", 10)
	if err != nil || len(runs) != 1 || runs[0].State != RunFinished || !strings.Contains(runs[0].Report, `"f1":1`) {
		t.Fatalf("runs %+v %v", runs, err)
	}
	stored, err := st.RunGames(ctx, rep.RunID)
	if err != nil || len(stored) != 3 {
		t.Fatalf("stored games %d %v", len(stored), err)
	}
	for id, s := range stored {
		rec, err := decodeRecord(id, s)
		if err != nil || rec.Analysis == nil || rec.Analysis.Comparison == nil || rec.Error != "" {
			t.Fatalf("stored game %s: %v %+v", id, err, rec)
		}
	}

	scaled := newOracle(t, games, 1.8)
	rep2, err := oracleComparer(st, scaled).Run(ctx, src)
	if err != nil {
		t.Fatal(err)
	}
	if rep2.RunID == rep.RunID || rep2.Resumed || rep2.Analysed != 3 {
		t.Fatalf("second run %d resumed %v analysed %d", rep2.RunID, rep2.Resumed, rep2.Analysed)
	}
	if rep2.Headline.EvalMAECP <= 0 || rep2.Headline.Disagreements == 0 || rep2.Aggregate.Causes[analysis.CauseEvalScale] == 0 {
		t.Fatalf("scaled engine headline %+v causes %v", rep2.Headline, rep2.Aggregate.Causes)
	}
	if len(rep2.Trend) != 2 || rep2.Trend[0].RunID != rep2.RunID || rep2.Trend[1].RunID != rep.RunID ||
		rep2.Trend[1].Headline.EvalMAECP != 0 || rep2.Trend[0].Headline.EvalMAECP != rep2.Headline.EvalMAECP {
		t.Fatalf("trend %+v", rep2.Trend)
	}
	var out bytes.Buffer
	if err := WriteText(&out, rep2); err != nil {
		t.Fatal(err)
	}
	text := out.String()
	t.Log("\n" + text)
	for _, want := range []string{
		"Comparison run 2 for Alice (new run: 3 games analysed now, 0 from the store)",
		"same judgement on Lichess-flagged plies:", "precision", "within one grade", "eval difference: MAE",
		"Alice, ours minus Lichess's: accuracy mean", "confusion (rows Lichess, columns ours)", "disagreements:", "eval_scale",
		"Trend (newest first)", "\n  2     ", "\n  1     ",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("report lacks %q:\n%s", want, text)
		}
	}
	out.Reset()
	if err := WriteJSON(&out, rep2); err != nil || !strings.Contains(out.String(), `"trend": [`) {
		t.Fatalf("JSON: %v\n%s", err, out.String())
	}

	// the stored report reads back as it was printed
	last, err := LastReport(ctx, st, "ALICE", 0)
	if err != nil {
		t.Fatal(err)
	}
	var again bytes.Buffer
	if err := WriteText(&again, last); err != nil {
		t.Fatal(err)
	}
	if again.String() != text {
		t.Fatalf("stored report differs:\n%s\nprinted:\n%s", again.String(), text)
	}
	if _, err := LastReport(ctx, st, "nobody", 0); !errors.Is(err, ErrNoRun) {
		t.Fatalf("no runs: %v", err)
	}
}

// TestCompareResumesInterruptedRun interrupts a run after its first game
// and checks the next run resumes it: same run, the stored game not
// analysed again.
func TestCompareResumesInterruptedRun(t *testing.T) {
	w := newWorld(t)
	w.playSynthetic(t, syntheticGames)
	games := fetchAll(t, w)
	st := openStore(t)
	src := UserSource{Fetcher: NewFetcher(w.public), User: "alice", Max: 10}
	first := games[0] // newest: the 4-ply mate, 4 positions searched (the mate is not)
	if len(first.Moves) != 4 {
		t.Fatalf("newest game has %d moves", len(first.Moves))
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	o := newOracle(t, games, 1)
	o.hook = func(n int) {
		if n == 5 { // the first position of the second game
			cancel()
		}
	}
	_, err := oracleComparer(st, o).Run(ctx, src)
	if !errors.Is(err, ErrInterrupted) || !errors.Is(err, context.Canceled) {
		t.Fatalf("interrupted run: %v", err)
	}
	runs, _ := st.Runs(context.Background(), "alice", 10)
	if len(runs) != 1 || runs[0].State != RunRunning {
		t.Fatalf("runs after interruption %+v", runs)
	}
	stored, _ := st.RunGames(context.Background(), runs[0].ID)
	if _, ok := stored[first.ID]; !ok || len(stored) != 1 {
		t.Fatalf("stored after interruption: %v", stored)
	}

	o2 := newOracle(t, games, 1)
	rep, err := oracleComparer(st, o2).Run(context.Background(), src)
	if err != nil {
		t.Fatal(err)
	}
	if !rep.Resumed || rep.RunID != runs[0].ID || rep.Reused != 1 || rep.Analysed != 2 || rep.Headline.Games != 3 {
		t.Fatalf("resumed run %d resumed %v reused %d analysed %d games %d", rep.RunID, rep.Resumed, rep.Reused, rep.Analysed, rep.Headline.Games)
	}
	// every position, plus fishnet's overlap (warm-up) search before each
	// chunk of 5 but the game's last
	searches := func(positions int) int { return positions + (positions-1)/analysis.FishnetChunk }
	wantCalls := searches(len(games[1].Moves)+1) + searches(len(games[2].Moves)+1)
	calls := o2.searched()
	if len(calls) != wantCalls {
		t.Fatalf("%d positions searched on resume, want %d", len(calls), wantCalls)
	}
	for _, c := range calls {
		if strings.HasPrefix(c, "|f2f3") {
			t.Fatalf("stored game searched again: %s", c)
		}
	}
	if !rep.StartedAt.Equal(runs[0].StartedAt) {
		t.Fatalf("start time changed on resume: %v vs %v", rep.StartedAt, runs[0].StartedAt)
	}
	runs, _ = st.Runs(context.Background(), "alice", 10)
	if len(runs) != 1 || runs[0].State != RunFinished {
		t.Fatalf("runs after resume %+v", runs)
	}
}

// TestCompareOfflineFile compares from a literate PGN file (Lichess's
// export of the sandbox games), supersedes an interrupted run with other
// parameters and resumes a failed one.
// offlineFile writes the synthetic games, exported with Lichess's analysis,
// and one game without analysis to a PGN file, and reads it back.
func offlineFile(t *testing.T) (path, pgn string, games []*analysis.Game) {
	t.Helper()
	w := newWorld(t)
	ids := w.playSynthetic(t, syntheticGames)
	var b strings.Builder
	for _, id := range ids {
		p, err := w.srv.ExportPGN(id)
		if err != nil {
			t.Fatal(err)
		}
		b.WriteString(p + "\n")
	}
	b.WriteString("[Event \"no analysis\"]\n\n1. e4 e5 *\n\n")
	path = filepath.Join(t.TempDir(), "games.pgn")
	if err := os.WriteFile(path, []byte(b.String()), 0o600); err != nil {
		t.Fatal(err)
	}
	games, _, err := FileSource{Path: path}.Games(context.Background(), time.Time{})
	if err != nil || len(games) != 4 {
		t.Fatalf("%d games, %v", len(games), err)
	}
	return path, b.String(), games
}

func TestCompareOfflineFile(t *testing.T) {
	path, pgnText, fileGames := offlineFile(t)
	src := FileSource{Path: path}
	var err error
	st := openStore(t)
	ctx := context.Background()

	// an interrupted run with another budget is superseded
	o := newOracle(t, fileGames[:3], 1)
	c := oracleComparer(st, o)
	c.Budget = analysis.Budget{Nodes: 5}
	cctx, cancel := context.WithCancel(ctx)
	defer cancel()
	o.hook = func(int) { cancel() }
	if _, err := c.Run(cctx, src); !errors.Is(err, ErrInterrupted) {
		t.Fatalf("cancelled run: %v", err)
	}
	rep, err := oracleComparer(st, newOracle(t, fileGames[:3], 1)).Run(ctx, src)
	if err != nil {
		t.Fatal(err)
	}
	if rep.Resumed || rep.User != src.Key() || !strings.HasPrefix(rep.User, "pgn:/") {
		t.Fatalf("run %+v", rep)
	}
	runs, _ := st.Runs(ctx, src.Key(), 10)
	if len(runs) != 2 || runs[1].State != RunFailed || !strings.Contains(runs[1].Report, "superseded") {
		t.Fatalf("runs %+v", runs)
	}
	if rep.Headline.Games != 3 || *rep.Headline.F1 != 1 || len(rep.Games) != 4 || rep.Games[3].Error == "" || rep.Games[3].Result != "*" {
		t.Fatalf("headline %+v games %+v", rep.Headline, rep.Games)
	}
	if rep.Players.User != nil {
		t.Fatalf("a file run has no user split: %+v", rep.Players.User)
	}

	// a failed run (the engine cannot start) is resumed by the next one
	bad := &Comparer{Store: st, Pool: analysis.PoolConfig{Command: []string{"oracle"}, Factory: func(context.Context, int) (analysis.Searcher, error) {
		return nil, errors.New("no engine")
	}}, Budget: analysis.Budget{Nodes: 1000}, BorderlineBand: -1}
	other := FileSource{Path: path + ".copy"}
	if err := os.WriteFile(other.Path, []byte(pgnText), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := bad.Run(ctx, other); err == nil || !strings.Contains(err.Error(), "no engine") {
		t.Fatalf("engine failure: %v", err)
	}
	runs, _ = st.Runs(ctx, other.Key(), 10)
	if len(runs) != 1 || runs[0].State != RunFailed {
		t.Fatalf("failed run %+v", runs)
	}
	stored, _ := st.RunGames(ctx, runs[0].ID)
	if len(stored) != 0 {
		t.Fatalf("stored before the engine started: %v", stored)
	}
	rep, err = oracleComparer(st, newOracle(t, fileGames[:3], 1)).Run(ctx, other)
	if err != nil || !rep.Resumed || rep.RunID != runs[0].ID || math.IsNaN(*rep.Headline.F1) {
		t.Fatalf("resume of a failed run: %v %+v", err, rep)
	}
}
