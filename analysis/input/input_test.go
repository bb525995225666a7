package input

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/outpostchess/outpost/analysis"
)

func TestReadPGNKeepsGoodGamesAndNamesBadOnes(t *testing.T) {
	src := `[Event "Good"]
[White "A"]
[Black "B"]

1. e4 e5 2. Nf3 { [%eval 0.3] [%clk 0:01:00] } 1-0

[Event "Illegal"]
[White "Carol"]
[Black "Dan"]

1. e4 e5
2. Ke3 Nc6 0-1

[Event "Crazy"]
[Variant "Crazyhouse"]

1. e4 e5 *

[Event "From FEN"]
[SetUp "1"]
[FEN "4k3/8/8/8/8/8/4P3/4K3 b - - 0 30"]

30... Kd7 31. e4 Kd6 1/2-1/2

[Event "Broken"]

1. e4 ( e5 0-1
`
	games, errs := ReadPGN(strings.NewReader(src), "mixed.pgn")
	if len(games) != 2 {
		t.Fatalf("%d games kept, want 2; errs %v", len(games), errs)
	}
	if len(errs) != 3 {
		t.Fatalf("errs %v", errs)
	}
	var ge *GameError
	// errors come in input order: games are read one at a time
	if !errors.As(errs[2], &ge) || ge.Index != 5 || ge.Line != 27 {
		t.Errorf("syntax error: %v", errs[2])
	}
	msg := errs[0].Error()
	if !errors.As(errs[0], &ge) || ge.Index != 2 || ge.Line != 12 || !strings.Contains(msg, "mixed.pgn") ||
		!strings.Contains(msg, `White "Carol"`) || !strings.Contains(msg, "2. Ke3") || !strings.Contains(msg, "illegal") {
		t.Errorf("illegal move error: %v", msg)
	}
	if !errors.Is(errs[1], ErrUnsupportedVariant) || !strings.Contains(errs[1].Error(), "Crazyhouse") {
		t.Errorf("variant error: %v", errs[1])
	}
	good := games[0]
	if good.Moves[2].Clock != "0:01:00" || good.Lichess == nil || good.Lichess.Plies[2].Eval.CP != 30 || good.Lichess.Literate {
		t.Errorf("good game %+v", good.Moves[2])
	}
	fen := games[1]
	if fen.StartPly != 59 || fen.FirstWhite() || fen.MoveNumber(0) != 30 || fen.Moves[1].UCI != "e2e4" || fen.Lichess != nil {
		t.Errorf("FEN game start ply %d moves %+v", fen.StartPly, fen.Moves)
	}
}

func TestPlainEvalsWithoutJudgementsAreJudgedOpenGate(t *testing.T) {
	src := "1. e4 { [%eval 0.2] } 1... f6 { [%eval 0.9] } 2. d4 { [%eval 0.8] } 2... g5 { [%eval #1] } 3. Qh5# 1-0"
	a := buildLichess(t, src, "evals.pgn")
	if a.Plies[1].Judgement != analysis.Inaccuracy || a.Plies[3].Judgement != analysis.Blunder || a.Plies[3].MateCase != "created" {
		t.Errorf("judgements %v %v", a.Plies[1].Judgement, a.Plies[3].Judgement)
	}
	if a.Plies[4].Eval != nil || a.Players.White.Accuracy == nil {
		t.Errorf("mate ply eval %v, accuracy %v", a.Plies[4].Eval, a.Players.White.Accuracy)
	}
}

func TestReadJSONFormsAndErrors(t *testing.T) {
	one := `{"id":"abcdefgh","variant":"standard","status":"mate","winner":"white","moves":"f3 e5 g4 Qh4#","players":{"white":{"user":{"name":"W"},"rating":1500},"black":{"aiLevel":3}}}`
	ndjson := one + "\n" + strings.Replace(one, "abcdefgh", "ijklmnop", 1) + "\n"
	arr := "[" + one + "," + `{"id":"zzzzzzzz","variant":{"key":"atomic"},"moves":"e4"}` + "]"
	games, errs := ReadJSON(strings.NewReader(ndjson), "x.ndjson")
	if len(games) != 2 || len(errs) != 0 || games[1].ID != "ijklmnop" {
		t.Fatalf("ndjson: %d games %v", len(games), errs)
	}
	g := games[0]
	if g.Result != "1-0" || g.Black.Name != "Stockfish level 3" || g.White.Rating != 1500 || g.Moves[3].Status != "White wins by checkmate." || g.Lichess != nil {
		t.Errorf("game %+v", g)
	}
	games, errs = ReadJSON(strings.NewReader(arr), "x.json")
	if len(games) != 1 || len(errs) != 1 || !errors.Is(errs[0], ErrUnsupportedVariant) {
		t.Fatalf("array: %d games %v", len(games), errs)
	}
	// Chess960: castling is king takes rook, the game knows its variant.
	c960 := `{"id":"c9600000","variant":{"key":"chess960"},"initialFen":"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1","moves":"e4 e5 Nf3 Nf6 Bc4 Bc5 O-O"}`
	games, errs = ReadJSON(strings.NewReader(c960), "x.json")
	if len(games) != 1 || len(errs) != 0 || !games[0].Chess960() || games[0].Moves[6].UCI != "e1h1" {
		t.Fatalf("chess960: %+v %v", games, errs)
	}
	bad := []string{
		`{"id":"a","moves":"e4 e4"}`,
		`{"id":"a","moves":"e4","analysis":[{"eval":1},{"eval":2}]}`,
		`{"id":"a","moves":"e4","analysis":[{"eval":1,"best":"e2e5"}]}`,
		`{"id":"a","moves":"e4","analysis":[{"eval":1,"judgment":{"name":"Great"}}]}`,
		`{"id":"a","initialFen":"bad fen","moves":"e4"}`,
		`{"id": 3}`,
	}
	for _, b := range bad {
		if games, errs := ReadJSON(strings.NewReader(b), "bad.json"); len(games) != 0 || len(errs) != 1 {
			t.Errorf("%s: %d games, errs %v", b, len(games), errs)
		}
	}
}

func TestOpenSources(t *testing.T) {
	ctx := context.Background()
	if _, err := Open(ctx, "q7ZvsdUF", nil, nil); !errors.Is(err, ErrOffline) {
		t.Errorf("id without fetcher: %v", err)
	}
	if _, err := Open(ctx, "https://lichess.org/q7ZvsdUF/black", nil, nil); !errors.Is(err, ErrOffline) {
		t.Errorf("url without fetcher: %v", err)
	}
	if _, err := Open(ctx, "missing.pgn", nil, nil); err == nil || !strings.Contains(err.Error(), "no such file") {
		t.Errorf("missing file: %v", err)
	}
	f := fakeFetcher{}
	src, err := Open(ctx, "https://lichess.org/q7ZvsdUF", nil, f)
	if err != nil || src.Name() != "fetched q7ZvsdUF" {
		t.Errorf("fetcher: %v %v", src, err)
	}
	path := filepath.Join(t.TempDir(), "g.pgn")
	os.WriteFile(path, []byte("1. e4 e5 *"), 0o600)
	src, err = Open(ctx, path, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	games, errs, err := src.Games(ctx)
	if err != nil || len(errs) > 0 || len(games) != 1 {
		t.Errorf("file source: %v %v %v", games, errs, err)
	}
	src, _ = Open(ctx, "-", strings.NewReader(`{"id":"abcdefgh","moves":"d4"}`), nil)
	if games, _, err := src.Games(ctx); err != nil || len(games) != 1 || games[0].ID != "abcdefgh" {
		t.Errorf("stdin JSON: %v %v", games, err)
	}
}

type fakeFetcher struct{}

func (fakeFetcher) Fetch(ctx context.Context, id string) (GameSource, error) {
	return Bytes{Label: "fetched " + id, Data: []byte("1. e4 *")}, nil
}

func FuzzReadJSON(f *testing.F) {
	f.Add([]byte(`{"id":"abcdefgh","moves":"e4 e5","analysis":[{"eval":20},{"mate":-3,"best":"e7e5","variation":"e5 Nf3","judgment":{"name":"Blunder","comment":"Checkmate is now unavoidable. e5 was best."}}]}`))
	f.Add([]byte(`[{"id":"x","variant":{"key":"standard"},"status":{"name":"draw"}}]`))
	f.Add([]byte(`{"moves":"e4"}{"moves":"d4"}`))
	for _, p := range []string{"json/q7ZvsdUF.json", "json/CCW6EEru.json"} {
		if data, err := os.ReadFile(filepath.Join(sharedGames, p)); err == nil {
			f.Add(data)
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		games, _ := ReadJSON(strings.NewReader(string(data)), "fuzz.json")
		for _, g := range games {
			if g.Lichess != nil && len(g.Lichess.Plies) != len(g.Moves) {
				t.Fatalf("analysis plies %d for %d moves", len(g.Lichess.Plies), len(g.Moves))
			}
			if g.Lichess != nil {
				if _, err := analysis.BuildLichess(g); err != nil {
					t.Fatal(err)
				}
			}
		}
	})
}

func FuzzReadPGN(f *testing.F) {
	f.Add([]byte("1. e4 { [%eval 0.2] } e5?! { (0.20 → 0.90) Inaccuracy. c5 was best. } (1... c5) 2. Nf3 1-0"))
	f.Add([]byte("[FEN \"4k3/8/8/8/8/8/4P3/4K3 b - - 0 30\"]\n\n30... Kd7 *"))
	files, _ := filepath.Glob(filepath.Join(sharedGames, "*.pgn"))
	for _, p := range files {
		if data, err := os.ReadFile(p); err == nil {
			f.Add(data)
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		games, _ := ReadPGN(strings.NewReader(string(data)), "fuzz.pgn")
		for _, g := range games {
			if g.Lichess != nil {
				if _, err := analysis.BuildLichess(g); err != nil {
					t.Fatal(err)
				}
			}
		}
	})
}

func TestOwnOutputIsNotComparedAsLichess(t *testing.T) {
	src := "[Annotator \"outpost\"]\n\n1. e4 { [%eval 0.2] } 1... f6 { [%eval 0.9] } *"
	a := buildLichess(t, src, "ours.pgn")
	if err := a.CompareWithLichess(); err != nil || a.Comparison != nil {
		t.Errorf("compared our own evals as Lichess's: %v %+v", err, a.Comparison)
	}
	if a.Plies[1].Judgement != analysis.Inaccuracy {
		t.Errorf("--lichess-evals still classifies: %v", a.Plies[1].Judgement)
	}
}

// TestReadChess960PGN reads the cutechess Chess960 games of ../shared
// ([Variant "fischerandom"], castling written O-O): every move replays and
// castling comes out king takes rook.
func TestReadChess960PGN(t *testing.T) {
	f, err := os.Open("../../../shared/chess960/cutechess-fischerrandom.pgn")
	if err != nil {
		t.Skipf("shared Chess960 games not present: %v", err)
	}
	defer f.Close()
	games, errs := ReadPGN(f, "fischerrandom.pgn")
	if len(errs) != 0 || len(games) != 4 {
		t.Fatalf("%d games, errors %v", len(games), errs)
	}
	castles := 0
	for _, g := range games {
		if !g.Chess960() || len(g.Moves) < 40 {
			t.Errorf("game %d: chess960 %v, %d moves", g.Index, g.Chess960(), len(g.Moves))
		}
		for _, m := range g.Moves {
			if strings.HasPrefix(m.SAN, "O-O") {
				castles++
			}
		}
	}
	if castles == 0 {
		t.Error("no castling replayed")
	}
}

// buildLichess reads the one game of a PGN text and builds its analysis
// from the evals it carries.
func buildLichess(t *testing.T, src, name string) *analysis.Analysis {
	t.Helper()
	games, errs := ReadPGN(strings.NewReader(src), name)
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	a, err := analysis.BuildLichess(games[0])
	if err != nil {
		t.Fatal(err)
	}
	return a
}

// TestShredderFENImpliesChess960: a PGN whose [FEN] names its castling
// rooks by file ("HAha") and has no Variant tag is a Chess960 game: its O-O
// replays as the king taking its rook and its analysis asks for
// UCI_Chess960 (Game.Chess960). Before, the game was analysed as standard:
// O-O sent without UCI_Chess960, reported as "O-O?? #-2". KQkq stays
// standard.
func TestShredderFENImpliesChess960(t *testing.T) {
	for _, c := range []struct {
		fen, uci string
		chess960 bool
	}{
		{"rnbqkbnr/pppppppp/8/8/8/5NP1/PPPPPPBP/RNBQK2R w HAha - 0 1", "e1h1", true},
		{"rnbqkbnr/pppppppp/8/8/8/5NP1/PPPPPPBP/RNBQK2R w KQkq - 0 1", "e1g1", false},
	} {
		pgn := "[Event \"x\"]\n[SetUp \"1\"]\n[FEN \"" + c.fen + "\"]\n\n1. O-O *\n"
		games, errs := ReadPGN(strings.NewReader(pgn), "t.pgn")
		if len(errs) > 0 || len(games) != 1 {
			t.Fatalf("%s: %v", c.fen, errs)
		}
		g := games[0]
		if g.Chess960() != c.chess960 || len(g.Moves) != 1 || g.Moves[0].UCI != c.uci {
			t.Errorf("%s: Chess960 %v, moves %+v; want %v, %s", c.fen, g.Chess960(), g.Moves, c.chess960, c.uci)
		}
	}
}
