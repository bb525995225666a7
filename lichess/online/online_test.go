package online

import (
	"context"
	"errors"
	"testing"

	"github.com/outpostchess/outpost/bots/board"
	"github.com/outpostchess/outpost/bots/engine"
	"github.com/outpostchess/outpost/bots/movesource"
	"github.com/outpostchess/outpost/bots/score"
	"github.com/outpostchess/outpost/internal/sandbox"
	"github.com/outpostchess/outpost/lichess"
)

func ip(v int) *int { return &v }

func mustBoard(t *testing.T, fen string) *board.Board {
	t.Helper()
	b, err := board.FromFEN(fen)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestTablebasePickRules: the best WDL first, then the shortest distance
// when winning and the longest when losing (DTM when both have it, else
// DTZ), cursed/blessed between wins and draws, a mate always, illegal and
// unknown moves never.
func TestTablebasePickRules(t *testing.T) {
	const fen = "4k3/8/8/8/8/8/8/4K2R w - - 0 1" // any legal moves: e1d1, e1f1, h1h2 …
	mv := func(uci, cat string, dtz, dtm *int) lichess.TablebaseMove {
		return lichess.TablebaseMove{UCI: uci, TablebaseResult: lichess.TablebaseResult{Category: cat, DTZ: dtz, DTM: dtm}}
	}
	tests := []struct {
		name  string
		moves []lichess.TablebaseMove
		want  string
	}{
		{"win beats draw", []lichess.TablebaseMove{mv("e1d1", "draw", ip(0), nil), mv("h1h2", "loss", ip(-30), nil)}, "h1h2"},
		{"shortest dtz win", []lichess.TablebaseMove{mv("h1h2", "loss", ip(-30), nil), mv("h1h3", "loss", ip(-12), nil)}, "h1h3"},
		{"dtm over dtz", []lichess.TablebaseMove{mv("h1h2", "loss", ip(-4), ip(-40)), mv("h1h3", "loss", ip(-20), ip(-22))}, "h1h3"},
		{"dtz when a dtm is missing", []lichess.TablebaseMove{mv("h1h2", "loss", ip(-4), nil), mv("h1h3", "loss", ip(-20), ip(-22))}, "h1h2"},
		{"cursed win beats draw", []lichess.TablebaseMove{mv("e1d1", "draw", nil, nil), mv("h1h2", "blessed-loss", ip(-120), nil)}, "h1h2"},
		{"win beats cursed win", []lichess.TablebaseMove{mv("h1h2", "blessed-loss", ip(-101), nil), mv("h1h3", "loss", ip(-99), nil)}, "h1h3"},
		{"draw beats blessed loss", []lichess.TablebaseMove{mv("h1h2", "cursed-win", ip(110), nil), mv("e1d1", "draw", nil, nil)}, "e1d1"},
		{"longest loss", []lichess.TablebaseMove{mv("h1h2", "win", ip(3), ip(3)), mv("h1h3", "win", ip(15), ip(25))}, "h1h3"},
		{"syzygy win below win", []lichess.TablebaseMove{mv("h1h2", "syzygy-loss", ip(-2), nil), mv("h1h3", "loss", ip(-50), nil)}, "h1h3"},
		{"zeroing win first", []lichess.TablebaseMove{mv("h1h3", "loss", ip(-3), nil), {UCI: "h1h2", TablebaseResult: lichess.TablebaseResult{Category: "loss", DTZ: ip(-19)}, Zeroing: true}}, "h1h2"},
		{"loser avoids zeroing", []lichess.TablebaseMove{{UCI: "h1h2", TablebaseResult: lichess.TablebaseResult{Category: "win", DTZ: ip(19)}, Zeroing: true}, mv("h1h3", "win", ip(3), nil)}, "h1h3"},
		{"mate first", []lichess.TablebaseMove{mv("h1h3", "loss", ip(-1), ip(-1)), {UCI: "h1h8", TablebaseResult: lichess.TablebaseResult{Category: "loss", Checkmate: true}}}, "h1h8"},
		{"illegal skipped", []lichess.TablebaseMove{mv("h1a8", "loss", ip(-1), nil), mv("h1h2", "draw", nil, nil)}, "h1h2"},
		{"unknown skipped", []lichess.TablebaseMove{mv("h1h3", "unknown", nil, nil), mv("h1h2", "win", ip(5), nil)}, "h1h2"},
		{"castling normalised", []lichess.TablebaseMove{mv("e1h1", "loss", ip(-9), nil)}, "e1g1"},
		{"nothing usable", []lichess.TablebaseMove{mv("h1h3", "unknown", nil, nil)}, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			b := mustBoard(t, "4k3/8/8/8/8/8/8/4K2R w K - 0 1")
			if tc.name != "castling normalised" {
				b = mustBoard(t, fen)
			}
			got, ok := PickTablebaseMove(b, tc.moves)
			if got != tc.want || ok != (tc.want != "") {
				t.Errorf("got %q %v, want %q", got, ok, tc.want)
			}
		})
	}
}

// TestExplorerSelectionRules: win rate for the side to move, or play
// count, with min games; illegal moves skipped.
func TestExplorerSelectionRules(t *testing.T) {
	moves := []lichess.ExplorerMove{
		{UCI: "e7e5", White: 40, Draws: 30, Black: 30}, // black scores 45%
		{UCI: "c7c5", White: 20, Draws: 10, Black: 30}, // 58%
		{UCI: "d7d5", White: 1, Draws: 0, Black: 4},    // 80%, 5 games
		{UCI: "e7e4", White: 0, Draws: 0, Black: 99},   // illegal
	}
	after := "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"
	tests := []struct {
		selection string
		minGames  int
		want      string
	}{
		{SelectWinRate, 0, "d7d5"},
		{SelectWinRate, 10, "c7c5"},
		{SelectCount, 0, "e7e5"},
		{SelectCount, 101, ""},
	}
	for _, tc := range tests {
		got, ok := PickExplorerMove(mustBoard(t, after), moves, tc.selection, tc.minGames)
		if got != tc.want || ok != (tc.want != "") {
			t.Errorf("%s min %d: got %q, want %q", tc.selection, tc.minGames, got, tc.want)
		}
	}
}

// TestCloudEvalPickRules: the best variation for the side to move, mates
// ordered, scores turned to the side to move's view.
func TestCloudEvalPickRules(t *testing.T) {
	pv := func(moves string, cp, mate *int) lichess.PV { return lichess.PV{Moves: moves, CP: cp, Mate: mate} }
	tests := []struct {
		name  string
		fen   string
		pvs   []lichess.PV
		want  string
		score score.Score
	}{
		{"white best cp", board.StartFEN, []lichess.PV{pv("d2d4", ip(20), nil), pv("e2e4 e7e5", ip(35), nil)}, "e2e4", score.CP(35)},
		{"black lowest cp", "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1",
			[]lichess.PV{pv("e7e5", ip(30), nil), pv("c7c5", ip(25), nil)}, "c7c5", score.CP(-25)},
		{"short mate first", board.StartFEN, []lichess.PV{pv("d2d4", nil, ip(5)), pv("e2e4", nil, ip(2)), pv("g1f3", ip(900), nil)}, "e2e4", score.Mate(2)},
		{"cp above being mated", board.StartFEN, []lichess.PV{pv("f2f3", nil, ip(-3)), pv("a2a3", ip(-500), nil)}, "a2a3", score.CP(-500)},
		{"illegal skipped", board.StartFEN, []lichess.PV{pv("e2e5", ip(99), nil), pv("d2d4", ip(10), nil)}, "d2d4", score.CP(10)},
		{"none usable", board.StartFEN, []lichess.PV{pv("", ip(10), nil)}, "", score.Score{}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := PickCloudMove(mustBoard(t, tc.fen), &lichess.CloudEval{Depth: 30, PVs: tc.pvs})
			if tc.want == "" {
				if !errors.Is(err, movesource.ErrNoMove) {
					t.Fatalf("got %+v %v, want ErrNoMove", got, err)
				}
				return
			}
			if err != nil || got.UCI != tc.want || got.Score != tc.score || got.Source != NameCloudEval {
				t.Errorf("got %+v %v, want %s %+v", got, err, tc.want, tc.score)
			}
		})
	}
}

// TestCloudEvalAgainstSandbox asks a sandbox over loopback: a position in
// the cloud deep enough gives its move, a shallow one or one not in the
// cloud gives ErrNoMove, Chess960 is never asked.
func TestCloudEvalAgainstSandbox(t *testing.T) {
	srv, u := listen(t, sandbox.Config{})
	ctx := t.Context()
	cp := 30
	if err := srv.AttachCloudEval(board.StartFEN, sandbox.CloudEval{Depth: 25, PVs: []sandbox.CloudPV{{CP: &cp, Moves: "g1f3 d7d5"}}}); err != nil {
		t.Fatal(err)
	}
	c, err := lichess.New(lichess.Options{BaseURL: u})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	for _, tc := range []struct {
		minDepth int
		pos      engine.Position
		want     string
	}{
		{20, engine.Position{}, "g1f3"},
		{30, engine.Position{}, ""},
		{0, engine.Position{Moves: []string{"e2e4"}}, ""},
		{0, engine.Position{StartFEN: "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9", Chess960: true}, ""},
	} {
		src, err := NewCloudEval(c, CloudEvalOptions{MinDepth: tc.minDepth})
		if err != nil {
			t.Fatal(err)
		}
		mv, err := src.Move(ctx, tc.pos, engine.Limits{})
		if tc.want == "" {
			if !errors.Is(err, movesource.ErrNoMove) {
				t.Errorf("%+v: got %+v %v, want ErrNoMove", tc, mv, err)
			}
			continue
		}
		if err != nil || mv.UCI != tc.want || mv.Depth != 25 {
			t.Errorf("%+v: got %+v %v", tc, mv, err)
		}
	}
}

// TestExplorerAndTablebaseAgainstSandbox: the explorer and tablebase
// sources ask a sandbox over loopback and play its moves; max ply and
// max pieces keep them from asking.
func TestExplorerAndTablebaseAgainstSandbox(t *testing.T) {
	srv, u := listen(t, sandbox.Config{Tablebase: sandbox.MateSearchProber{MaxPlies: 3}})
	ctx := t.Context()
	if err := srv.AttachExplorer("lichess", board.StartFEN, []sandbox.ExplorerMove{
		{UCI: "e2e4", White: 10, Black: 10, Speed: "blitz"}, {UCI: "d2d4", White: 3, Speed: "bullet"}}); err != nil {
		t.Fatal(err)
	}
	svc, err := lichess.NewService(lichess.ServiceOptions{BaseURL: u})
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		opts ExplorerOptions
		pos  engine.Position
		want string
	}{
		{ExplorerOptions{DB: lichess.ExplorerLichess, Selection: SelectCount}, engine.Position{}, "e2e4"},
		{ExplorerOptions{DB: lichess.ExplorerLichess}, engine.Position{}, "d2d4"},
		{ExplorerOptions{DB: lichess.ExplorerLichess, Speeds: []string{"blitz"}}, engine.Position{}, "e2e4"},
		{ExplorerOptions{DB: lichess.ExplorerLichess, MinGames: 5}, engine.Position{}, "e2e4"},
		{ExplorerOptions{DB: lichess.ExplorerLichess, MaxPly: 1}, engine.Position{Moves: []string{"e2e4"}}, ""},
		{ExplorerOptions{DB: lichess.ExplorerMasters}, engine.Position{}, ""},
	} {
		src, err := NewExplorer(svc, tc.opts)
		if err != nil {
			t.Fatal(err)
		}
		mv, err := src.Move(ctx, tc.pos, engine.Limits{})
		if (tc.want == "" && !errors.Is(err, movesource.ErrNoMove)) || (tc.want != "" && (err != nil || mv.UCI != tc.want)) {
			t.Errorf("%+v: got %+v %v, want %q", tc.opts, mv, err, tc.want)
		}
	}
	tb, err := NewTablebase(svc, TablebaseOptions{MaxPieces: 3})
	if err != nil {
		t.Fatal(err)
	}
	mv, err := tb.Move(ctx, engine.Position{StartFEN: "7k/8/6K1/8/8/8/8/5Q2 w - - 0 1"}, engine.Limits{})
	if err != nil || mv.UCI != "f1f8" || mv.Source != NameTablebase || mv.Score.Mate != 1 {
		t.Errorf("tablebase: got %+v %v, want f1f8 mate in 1", mv, err)
	}
	if _, err := tb.Move(ctx, engine.Position{StartFEN: "7k/8/6K1/8/8/8/P7/5Q2 w - - 0 1"}, engine.Limits{}); !errors.Is(err, movesource.ErrNoMove) {
		t.Errorf("4 pieces with max 3: %v, want ErrNoMove", err)
	}
	if _, err := NewTablebase(svc, TablebaseOptions{MaxPieces: 8}); err == nil {
		t.Error("max pieces 8 accepted")
	}
}

// listen starts a sandbox with cfg on loopback for the test and returns it
// with its URL; the end of the test stops it.
func listen(t *testing.T, cfg sandbox.Config) (*sandbox.Server, string) {
	t.Helper()
	srv := sandbox.New(cfg)
	ctx, cancel := context.WithCancel(context.Background())
	u, err := srv.Listen(ctx, "127.0.0.1:0")
	if err != nil {
		cancel()
		t.Fatal(err)
	}
	t.Cleanup(func() {
		srv.Close()
		cancel()
	})
	return srv, u
}
