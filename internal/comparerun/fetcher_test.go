package comparerun

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/outpostchess/outpost/analysis"
	"github.com/outpostchess/outpost/analysis/input"
	"github.com/outpostchess/outpost/internal/sandbox"
	"github.com/outpostchess/outpost/lichess"
)

// TestFetchGameCarriesLichessAnalysis plays a game in the sandbox, attaches
// a Lichess-style analysis, fetches it by URL without a token and checks
// that Lichess's analysis came along, judgement for judgement.
func TestFetchGameCarriesLichessAnalysis(t *testing.T) {
	w := newWorld(t)
	s := syntheticGames[0]
	want, _ := s.lichessAnalysis(t)
	id := w.play(t, s.moves, s.resign)
	f := NewFetcher(w.public)
	ctx := context.Background()

	// before the analysis is attached: the game, no Lichess analysis
	g, err := f.FetchGame(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	if g.Lichess != nil || len(g.Moves) != len(s.moves) {
		t.Fatalf("unanalysed game: lichess %v, %d moves", g.Lichess, len(g.Moves))
	}
	_, sa := s.lichessAnalysis(t)
	if err := w.srv.AttachAnalysis(id, sa); err != nil {
		t.Fatal(err)
	}
	for _, ref := range []string{id, w.url + "/" + id + "/black", w.url + "/" + id + "#3"} {
		g, err = f.FetchGame(ctx, ref)
		if err != nil {
			t.Fatalf("%s: %v", ref, err)
		}
		if g.ID != id || g.White.Name != "Alice" || g.Black.Name != "bot1" || g.Result != "1-0" {
			t.Fatalf("%s: game %s %s-%s %s", ref, g.ID, g.White.Name, g.Black.Name, g.Result)
		}
	}
	if !g.Lichess.FromLichess() || len(g.Lichess.Plies) != len(s.moves) {
		t.Fatalf("Lichess analysis not carried: %+v", g.Lichess)
	}
	flagged := 0
	for i, p := range want.Plies {
		lp := g.Lichess.Plies[i]
		if !reflect.DeepEqual(lp.Eval, p.Eval) {
			t.Errorf("ply %d eval %v, want %v", i+1, lp.Eval, p.Eval)
		}
		if lp.Judgement != p.Judgement {
			t.Errorf("ply %d judgement %v, want %v", i+1, lp.Judgement, p.Judgement)
		}
		if p.Judgement != analysis.NoJudgement {
			flagged++
			if lp.Comment != p.Comment || lp.BestUCI != *p.BestUCI || lp.BestSAN != *p.BestSAN {
				t.Errorf("ply %d: comment %q best %s/%s, want %q %s/%s", i+1, lp.Comment, lp.BestUCI, lp.BestSAN, p.Comment, *p.BestUCI, *p.BestSAN)
			}
		}
		if g.Moves[i].Clock == "" {
			t.Errorf("ply %d: no clock", i+1)
		}
	}
	if flagged < 2 {
		t.Fatalf("the synthetic analysis flags %d plies; the test needs some", flagged)
	}
	if g.Lichess.White == nil || g.Lichess.White.ACPL == nil || *g.Lichess.White.ACPL != *want.Players.White.ACPL ||
		g.Lichess.Black.Accuracy == nil || *g.Lichess.Black.Accuracy != *want.Players.Black.Accuracy {
		t.Fatalf("stated figures %+v %+v", g.Lichess.White, g.Lichess.Black)
	}
	// Lichess's evals through the rules reproduce Lichess's judgements
	la, err := analysis.BuildLichess(g)
	if err != nil {
		t.Fatal(err)
	}
	for i := range la.Plies {
		if la.Plies[i].Judgement != want.Plies[i].Judgement {
			t.Errorf("ply %d rebuilt judgement %v, want %v", i+1, la.Plies[i].Judgement, want.Plies[i].Judgement)
		}
	}

	// through input.Open, as `outpost analyse` uses it
	src, err := input.Open(ctx, "https://lichess.org/"+id, nil, f)
	if err != nil {
		t.Fatal(err)
	}
	games, errs, err := src.Games(ctx)
	if err != nil || len(errs) != 0 || len(games) != 1 || games[0].ID != id || games[0].Lichess == nil {
		t.Fatalf("input.Open: %v %v %d", err, errs, len(games))
	}

	// failures name what was wrong
	if _, err := f.FetchGame(ctx, "not a game"); !errors.Is(err, ErrBadGameRef) {
		t.Errorf("bad ref: %v", err)
	}
	if _, err := f.FetchGame(ctx, "zzzzzzzz"); !errors.Is(err, lichess.ErrNotFound) {
		t.Errorf("unknown game: %v", err)
	}
}

// TestUserGamesOnlyAnalysed lists a user's games: only the analysed ones,
// newest first, at most Max.
func TestUserGamesOnlyAnalysed(t *testing.T) {
	w := newWorld(t)
	ids := w.playSynthetic(t, syntheticGames)
	unanalysed := w.play(t, []string{"e2e4", "e7e5"}, "white")
	f := NewFetcher(w.public)
	ctx := context.Background()
	games, errs, err := f.UserGames(ctx, "alice", UserGamesOptions{})
	if err != nil || len(errs) != 0 {
		t.Fatal(err, errs)
	}
	var got []string
	for _, g := range games {
		if g.ID == unanalysed {
			t.Errorf("unanalysed game %s listed", g.ID)
		}
		if g.Lichess == nil {
			t.Errorf("game %s without Lichess analysis", g.ID)
		}
		got = append(got, g.ID)
	}
	if want := []string{ids[2], ids[1], ids[0]}; !reflect.DeepEqual(got, want) {
		t.Fatalf("games %v, want newest first %v", got, want)
	}
	games, _, err = f.UserGames(ctx, "alice", UserGamesOptions{Max: 2})
	if err != nil || len(games) != 2 {
		t.Fatalf("max 2: %d games, %v", len(games), err)
	}
	if _, _, err := f.UserGames(ctx, "nobody", UserGamesOptions{}); !errors.Is(err, lichess.ErrNotFound) {
		t.Errorf("unknown user: %v", err)
	}
}

// TestFetchSharedGameThroughSandbox replays a real Lichess-analysed game
// (../shared/lichess-games/json/CCW6EEru.json) in the sandbox, attaches its
// real analysis and checks the fetched game carries exactly what the file
// carries.
func TestFetchSharedGameThroughSandbox(t *testing.T) {
	path := filepath.Join(sharedDir(t), "json", "CCW6EEru.json")
	data, err := os.ReadFile(path)
	if err != nil {
		t.Skip(err)
	}
	fromFile, errs := input.ReadJSON(bytesReader(data), path)
	if len(errs) != 0 || len(fromFile) != 1 {
		t.Fatal(errs)
	}
	var raw lichess.Game
	if err := json.Unmarshal(data, &raw); err != nil {
		t.Fatal(err)
	}
	want := fromFile[0]
	var ucis []string
	for _, m := range want.Moves {
		ucis = append(ucis, m.UCI)
	}
	w := newWorld(t)
	id := w.play(t, ucis, "black") // white won by resignation
	var sa sandbox.Analysis
	for _, m := range raw.Analysis {
		ma := sandbox.MoveAnalysis{Eval: m.Eval, Mate: m.Mate, Best: m.Best, Variation: m.Variation}
		if m.Judgment != nil {
			ma.Judgment = &sandbox.Judgment{Name: m.Judgment.Name, Comment: m.Judgment.Comment}
		}
		sa.Moves = append(sa.Moves, ma)
	}
	fig := func(p *lichess.PlayerAnalysis) sandbox.PlayerAnalysis {
		return sandbox.PlayerAnalysis{Inaccuracy: p.Inaccuracy, Mistake: p.Mistake, Blunder: p.Blunder, ACPL: p.ACPL, Accuracy: p.Accuracy}
	}
	sa.White, sa.Black = fig(raw.Players.White.Analysis), fig(raw.Players.Black.Analysis)
	if err := w.srv.AttachAnalysis(id, sa); err != nil {
		t.Fatal(err)
	}
	g, err := NewFetcher(w.public).FetchGame(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(g.Lichess.Plies, want.Lichess.Plies) {
		for i := range want.Lichess.Plies {
			if !reflect.DeepEqual(g.Lichess.Plies[i], want.Lichess.Plies[i]) {
				t.Errorf("ply %d: %+v, want %+v", i+1, g.Lichess.Plies[i], want.Lichess.Plies[i])
			}
		}
	}
	if !reflect.DeepEqual(g.Lichess.White, want.Lichess.White) || !reflect.DeepEqual(g.Lichess.Black, want.Lichess.Black) {
		t.Errorf("figures %+v %+v, want %+v %+v", g.Lichess.White, g.Lichess.Black, want.Lichess.White, want.Lichess.Black)
	}
	ours, err := analysis.BuildLichess(g)
	if err != nil {
		t.Fatal(err)
	}
	theirs, _ := analysis.BuildLichess(want)
	for i := range ours.Plies {
		if ours.Plies[i].Judgement != theirs.Plies[i].Judgement {
			t.Errorf("ply %d judgement %v, want %v", i+1, ours.Plies[i].Judgement, theirs.Plies[i].Judgement)
		}
	}
}
