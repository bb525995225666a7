package knobs

import (
	"bytes"
	"context"
	"errors"
	"math"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/outpostchess/outpost/bots/board"
	"github.com/outpostchess/outpost/bots/engine"
)

func newEngine(t testing.TB, set func(*Config), opts ...Option) *Engine {
	t.Helper()
	c := Defaults()
	if set != nil {
		set(&c)
	}
	e, err := New(c, opts...)
	if err != nil {
		t.Fatal(err)
	}
	return e
}

func greedy(c *Config) { c.SearchMode = ModeGreedy }

func selectMove(t *testing.T, e *Engine, fen string, lim engine.Limits, moves ...string) engine.Move {
	t.Helper()
	m, err := e.SelectMove(context.Background(), engine.Position{StartFEN: fen, Moves: moves}, lim)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func TestGreedyTakesFreeMaterial(t *testing.T) {
	tests := []struct {
		name, fen, want string
	}{
		{"rook takes a free queen", "4k3/8/8/3q4/8/8/3R4/4K3 w - - 0 1", "d2d5"},
		{"knight takes a free rook", "4k3/8/8/8/2r5/8/3N4/4K3 w - - 0 1", "d2c4"},
		{"black pawn takes a queen", "4k3/8/8/3p4/4Q3/8/8/4K3 b - - 0 1", "d5e4"},
		{"takes the queen, not the pawn", "4k3/8/8/2p1q3/3P4/8/8/4K3 w - - 0 1", "d4e5"},
	}
	for _, tt := range tests {
		e := newEngine(t, greedy)
		m := selectMove(t, e, tt.fen, engine.Limits{})
		if m.UCI != tt.want {
			t.Errorf("%s: played %s, want %s", tt.name, m.UCI, tt.want)
		}
		if m.Depth != 1 {
			t.Errorf("%s: greedy depth %d", tt.name, m.Depth)
		}
	}
}

func TestGreedyAvoidsHangingQueen(t *testing.T) {
	// The queen's forward squares d4, d5 and d6 are attacked by the e5, e6
	// and c7 pawns; the development reward for the d-file is large.
	const fen = "r3k2r/pppp1ppp/4p3/4p3/8/8/PPP1PPPP/RN1QKBNR w KQkq - 0 1"
	hanging := map[string]bool{"d1d4": true, "d1d5": true, "d1d6": true}
	e := newEngine(t, greedy)
	m := selectMove(t, e, fen, engine.Limits{})
	if hanging[m.UCI] {
		t.Fatalf("greedy hangs the queen with %s", m.UCI)
	}
	// Without the risk term (which charges the opponent's best capture at
	// the line's end) the development reward lures the queen forward.
	e = newEngine(t, func(c *Config) { greedy(c); c.WeightRisk = 0 })
	m = selectMove(t, e, fen, engine.Limits{})
	if !hanging[m.UCI] {
		t.Errorf("without risk the queen should advance, played %s", m.UCI)
	}
}

func TestLineSearchMateInOne(t *testing.T) {
	tests := []struct{ name, fen, want string }{
		{"scholar's mate", "r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 4 4", "h5f7"},
		{"back rank", "6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1", "d1d8"},
		{"black mates", "3r2k1/8/8/8/8/8/5PPP/6K1 b - - 0 1", "d8d1"},
	}
	for _, tt := range tests {
		e := newEngine(t, nil)
		m := selectMove(t, e, tt.fen, engine.Limits{})
		if m.UCI != tt.want || m.Score.Mate != 1 {
			t.Errorf("%s: got %s mate %d, want %s mate 1", tt.name, m.UCI, m.Score.Mate, tt.want)
		}
	}
}

func TestLineSearchFork(t *testing.T) {
	// Nc7+ forks king and rook; the check extension and the following
	// capture are inside depth 3.
	const fen = "r3k3/8/8/1N6/8/8/8/4K3 w - - 0 1"
	e := newEngine(t, nil)
	m := selectMove(t, e, fen, engine.Limits{Depth: 3})
	if m.UCI != "b5c7" {
		t.Fatalf("played %s (pv %v), want b5c7", m.UCI, m.PV)
	}
	if len(m.PV) < 3 || m.PV[2] != "c7a8" {
		t.Errorf("pv %v does not win the rook", m.PV)
	}
}

func TestLineSearchAvoidsLosingRecapture(t *testing.T) {
	// Qxd5 wins a pawn but the e6 pawn recaptures the queen: the
	// material-swing extension sees the recapture even at depth 1.
	const fen = "4k3/8/4p3/3p4/8/8/8/3QK3 w - - 0 1"
	for _, depth := range []int{1, 2} {
		e := newEngine(t, nil)
		m := selectMove(t, e, fen, engine.Limits{Depth: depth})
		if m.UCI == "d1d5" {
			t.Errorf("depth %d: Qxd5 loses the queen", depth)
		}
	}
}

func TestThreefoldCutoff(t *testing.T) {
	// Black is a queen down; knights have shuffled so that Nf6-g8 repeats
	// the position for the third time: the line is cut off as a draw (0),
	// which beats every other move.
	const fen = "rnb1kbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
	hist := []string{"g1f3", "g8f6", "f3g1", "f6g8", "g1f3", "g8f6", "f3g1"}
	var buf bytes.Buffer
	e := newEngine(t, func(c *Config) { c.Debug = true }, WithDebugOutput(&buf))
	m := selectMove(t, e, fen, engine.Limits{Depth: 2}, hist...)
	if m.UCI != "f6g8" || m.Score.CP != 0 {
		t.Fatalf("played %s score %+v, want the drawing f6g8 at 0", m.UCI, m.Score)
	}
	if !regexp.MustCompile(`#1 f6g8 total=\+0\.0 .*plies=1 .* draw line=f6g8\n`).MatchString(buf.String()) {
		t.Errorf("debug output lacks the cut-off draw line:\n%s", buf.String())
	}
	// One repetition short, the same move is searched on normally.
	buf.Reset()
	m = selectMove(t, e, fen, engine.Limits{Depth: 2}, hist[4:]...)
	if strings.Contains(buf.String(), " f6g8 total=+0.0") {
		t.Errorf("second occurrence treated as a draw:\n%s", buf.String())
	}
	// Repetitions count the game's history and the current line together.
	p := newParams(Defaults())
	g, err := parsePosition(p, engine.Position{StartFEN: fen, Moves: hist[:5]})
	if err != nil {
		t.Fatal(err)
	}
	k := keyOf(&g.root.mb, g.root.pos)
	s := &searcher{p: p, hist: g.hist}
	// The root (after the second g1f3) occurred after plies 1 and 5.
	if got := s.repetitions(k); got != 2 {
		t.Errorf("history repetitions of the root = %d, want 2", got)
	}
	s.keys = []repKey{k}
	if got := s.repetitions(k); got != 3 {
		t.Errorf("with the line = %d, want 3", got)
	}
}

func TestKnightLoop(t *testing.T) {
	// The engine plays Black and loops its knight while White develops.
	white := []string{"e2e4", "d2d4", "b1c3", "g1f3", "f1c4", "c1e3", "d1d2", "e1c1"}
	e := newEngine(t, func(c *Config) { c.ForceKnightCenterLoop = true; c.SearchDepth = 2 })
	var played []string
	var scores []int
	var moves []string
	for _, w := range white {
		moves = append(moves, w)
		m := selectMove(t, e, "", engine.Limits{}, moves...)
		played = append(played, m.UCI)
		scores = append(scores, m.Score.CP)
		moves = append(moves, m.UCI)
	}
	want := []string{"g8f6", "f6g8", "g8f6", "f6g8", "g8f6", "f6g8", "g8f6", "f6g8"}
	for i := range want {
		if played[i] != want[i] {
			t.Fatalf("knight loop: played %v, want %v", played, want)
		}
	}
	t.Logf("scores %v", scores)
	// Scores are from Black's point of view: as White develops they trend
	// down (positive for White).
	if scores[len(scores)-1] >= scores[0] || scores[len(scores)-2] >= scores[1] {
		t.Errorf("scores do not trend in White's favour: %v", scores)
	}
	// Without the toggle the engine does not loop.
	e = newEngine(t, func(c *Config) { c.SearchDepth = 2 })
	m := selectMove(t, e, "", engine.Limits{}, "e2e4", "g8f6", "d2d4")
	if m.UCI == "f6g8" {
		t.Errorf("engine without the toggle retreats the knight")
	}
	// Without a knight at home or on its loop square the toggle falls back to
	// the search.
	e = newEngine(t, func(c *Config) { c.ForceKnightCenterLoop = true })
	m = selectMove(t, e, "4k3/8/8/8/8/8/8/3QK3 w - - 0 1", engine.Limits{Depth: 1})
	if m.UCI == "" {
		t.Error("no move without knights")
	}
}

var totalRe = regexp.MustCompile(`#(\d+) (\S+) total=([-+][0-9.]+) base=([-+][0-9.]+) center=([-+][0-9.]+) king_center=([-+][0-9.]+) development=([-+][0-9.]+) undevelopment=([-+][0-9.]+) defense=([-+][0-9.]+) castling=([-+][0-9.]+) risk=([-+][0-9.]+) mate=([-+][0-9.]+) offset=([-+][0-9.]+)`)

func TestDebugOutput(t *testing.T) {
	// Black to move can take White's queen: a good line for Black is a
	// negative (white-centric) score.
	const fen = "4k3/8/8/3p4/4Q3/8/8/4K3 b - - 0 1"
	var buf bytes.Buffer
	e := newEngine(t, func(c *Config) { c.Debug = true; c.MaxExtensionPlies = 4 }, WithDebugOutput(&buf))
	m := selectMove(t, e, fen, engine.Limits{Depth: 2})
	out := buf.String()
	if !strings.Contains(out, "white-centric") || !strings.Contains(out, "engine=black") {
		t.Fatalf("header missing:\n%s", out)
	}
	matches := totalRe.FindAllStringSubmatch(out, -1)
	if len(matches) == 0 {
		t.Fatalf("no candidate lines:\n%s", out)
	}
	legal := 0
	for _, mm := range matches {
		var sum float64
		for _, s := range mm[4:] {
			v, _ := strconv.ParseFloat(s, 64)
			sum += v
		}
		total, _ := strconv.ParseFloat(mm[3], 64)
		if !approx(sum, total, 0.6) {
			t.Errorf("%s: components sum to %g, total %g", mm[2], sum, total)
		}
		legal++
	}
	if matches[0][2] != m.UCI || matches[0][2] != "d5e4" {
		t.Errorf("first candidate %s, move %s, want d5e4", matches[0][2], m.UCI)
	}
	// After d5xe4 Black is a pawn up: negative white-centric, positive for
	// the engine.
	if top, _ := strconv.ParseFloat(matches[0][3], 64); top >= 0 || m.Score.CP != -int(math.Round(top)) {
		t.Errorf("white-centric %g should be negative and the engine's score %d its opposite", top, m.Score.CP)
	}
	// Every legal move is a candidate: king 5 moves... count them.
	if legal < 5 {
		t.Errorf("only %d candidates", legal)
	}
	// Debug off prints nothing.
	buf.Reset()
	e = newEngine(t, nil, WithDebugOutput(&buf))
	selectMove(t, e, fen, engine.Limits{Depth: 1})
	if buf.Len() != 0 {
		t.Errorf("debug off printed %q", buf.String())
	}
}

func TestConfigure(t *testing.T) {
	e := newEngine(t, nil)
	if err := e.Configure(map[string]string{"opponentPlyDepth": "6", "search_mode": "greedy"}); err != nil {
		t.Fatal(err)
	}
	if c := e.Config(); c.OpponentPlyDepth != 6 || c.SearchMode != ModeGreedy {
		t.Errorf("configure did not apply: %+v", c)
	}
	if !e.Info().Features["greedy"] {
		t.Error("info does not report greedy")
	}
	before := e.Config()
	err := e.Configure(map[string]string{"opponent_ply_depth": "3", "rank_attack_factor": "9"})
	if err == nil || !strings.Contains(err.Error(), "rank_attack_factor = 9") {
		t.Errorf("bad value: %v", err)
	}
	if e.Config() != before {
		t.Error("failed Configure changed knobs")
	}
	if _, err := New(Config{}); err == nil {
		t.Error("New accepted the zero Config")
	}
}

func TestSelectMoveErrors(t *testing.T) {
	e := newEngine(t, nil)
	ctx := context.Background()
	if _, err := e.SelectMove(ctx, engine.Position{StartFEN: "not a fen"}, engine.Limits{}); err == nil || !strings.Contains(err.Error(), "bad FEN") {
		t.Errorf("bad FEN: %v", err)
	}
	if _, err := e.SelectMove(ctx, engine.Position{Moves: []string{"e2e5"}}, engine.Limits{}); err == nil || !strings.Contains(err.Error(), `"e2e5" is not legal`) {
		t.Errorf("illegal move: %v", err)
	}
	if _, err := e.SelectMove(ctx, engine.Position{StartFEN: "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1"}, engine.Limits{}); err == nil {
		t.Error("stalemate: no error")
	}
	cctx, cancel := context.WithCancel(ctx)
	cancel()
	if _, err := e.SelectMove(cctx, engine.Position{}, engine.Limits{}); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled: %v", err)
	}
	_ = e.Close()
	_ = e.Close()
	if _, err := e.SelectMove(ctx, engine.Position{}, engine.Limits{}); err == nil {
		t.Error("closed engine moved")
	}
}

func TestLimits(t *testing.T) {
	// A node budget stops the search with a legal move from a finished
	// iteration (or the first ordered move).
	e := newEngine(t, func(c *Config) { c.SearchDepth = 8 })
	const kiwipete = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"
	m := selectMove(t, e, kiwipete, engine.Limits{Nodes: 3000})
	if m.UCI == "" || m.Depth >= 8 || m.Nodes > 3000 {
		t.Errorf("node limit: %+v", m)
	}
	// A move time returns before the nominal depth is reached.
	m = selectMove(t, e, kiwipete, engine.Limits{MoveTime: 50 * time.Millisecond})
	if m.UCI == "" || m.Depth >= 8 {
		t.Errorf("move time: %+v", m)
	}
	// The clock is honoured too.
	m = selectMove(t, e, kiwipete, engine.Limits{WTime: 2 * time.Second, BTime: 2 * time.Second})
	if m.UCI == "" || m.Depth >= 8 {
		t.Errorf("clock: %+v", m)
	}
	// A cancelled context mid-search still yields a move.
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Millisecond)
	defer cancel()
	m, err := e.SelectMove(ctx, engine.Position{StartFEN: kiwipete}, engine.Limits{Infinite: true})
	if m.UCI == "" {
		t.Errorf("cancelled search: %+v %v", m, err)
	}
}

func TestDeterministic(t *testing.T) {
	e := newEngine(t, nil)
	pos := []string{"e2e4", "e7e5", "g1f3"}
	a := selectMove(t, e, "", engine.Limits{Depth: 2}, pos...)
	b := selectMove(t, e, "", engine.Limits{Depth: 2}, pos...)
	if a.UCI != b.UCI || a.Score != b.Score || a.Nodes != b.Nodes || strings.Join(a.PV, " ") != strings.Join(b.PV, " ") {
		t.Errorf("two searches differ: %+v vs %+v", a, b)
	}
}

func BenchmarkSelectMove(b *testing.B) { benchSelect(b, nil) }

func BenchmarkSelectMoveGreedy(b *testing.B) { benchSelect(b, greedy) }

func benchSelect(b *testing.B, set func(*Config)) {
	e := newEngine(b, set)
	pos := engine.Position{Moves: []string{"e2e4", "e7e5", "g1f3", "b8c6", "f1c4"}}
	ctx := context.Background()
	var nodes int64
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		m, err := e.SelectMove(ctx, pos, engine.Limits{})
		if err != nil {
			b.Fatal(err)
		}
		nodes += m.Nodes
	}
	b.ReportMetric(float64(nodes)/float64(b.N), "nodes/op")
	b.ReportMetric(float64(nodes)/b.Elapsed().Seconds(), "nodes/s")
}

func TestBadPositions(t *testing.T) {
	e := newEngine(t, nil)
	for _, fen := range []string{
		"8/8/8/8/8/8/8/8 w - - 0 1",
		"4k3/8/8/8/8/8/8/8 w - - 0 1",
		"4k3/8/8/8/8/8/8/3KK3 w - - 0 1",
		"P3k3/8/8/8/8/8/8/4K3 w - - 0 1",
		"4k3/8/8/8/8/8/8/4K2p b - - 0 1",
		"4k3/4R3/8/8/8/8/8/4K3 w - - 0 1",
		"4k3/8/8/8/8/8/8/4K3 x - - 0 1",
	} {
		if _, err := e.SelectMove(context.Background(), engine.Position{StartFEN: fen}, engine.Limits{Depth: 1}); err == nil || !strings.Contains(err.Error(), "bad FEN") {
			t.Errorf("%s: error %v", fen, err)
		}
	}
}

func TestExplain(t *testing.T) {
	// Black to move; d5xe4 wins the queen. White-centric totals are the
	// negated engine-centric scores; candidates come best first and cover
	// every legal move.
	const fen = "4k3/8/8/3p4/4Q3/8/8/4K3 b - - 0 1"
	e := newEngine(t, func(c *Config) { c.MaxExtensionPlies = 4 })
	cands, err := e.Explain(context.Background(), engine.Position{StartFEN: fen}, engine.Limits{Depth: 2})
	if err != nil {
		t.Fatal(err)
	}
	if len(cands) != 5 { // Black is in check: d5xe4 and four king moves
		t.Errorf("%d candidates, want 5", len(cands))
	}
	if cands[0].Move != "d5e4" || cands[0].Line[0] != "d5e4" {
		t.Errorf("best %s %v", cands[0].Move, cands[0].Line)
	}
	for i, c := range cands {
		if !near(c.White.Total, -c.Score) {
			t.Errorf("%s: white total %g, engine score %g", c.Move, c.White.Total, c.Score)
		}
		if i > 0 && c.Score > cands[i-1].Score {
			t.Errorf("candidates out of order at %d", i)
		}
	}
	if _, err := e.Explain(context.Background(), engine.Position{StartFEN: fen}, engine.Limits{Nodes: 1}); err == nil {
		t.Error("explain with no completed ply: no error")
	}
}

func TestSelfPlayLegal(t *testing.T) {
	// Line search (White) against greedy (Black) from the start, and from
	// Chess960 starts: every move must be legal and the game must not stall.
	if testing.Short() {
		t.Skip("self-play in -short mode")
	}
	lineE := newEngine(t, func(c *Config) { c.SearchDepth = 2 })
	greedyE := newEngine(t, greedy)
	for _, n := range []int{518, 0, 959} {
		fen, err := board.Chess960FEN(n)
		if err != nil {
			t.Fatal(err)
		}
		b, err := board.FromFEN960(fen)
		if err != nil {
			t.Fatal(err)
		}
		pos := engine.Position{StartFEN: fen, Chess960: true}
		castled := false
		for ply := 0; ply < 40 && b.Status() == board.Ongoing; ply++ {
			e := lineE
			if ply%2 == 1 {
				e = greedyE
			}
			m, err := e.SelectMove(context.Background(), pos, engine.Limits{})
			if err != nil {
				t.Fatal(err)
			}
			mv, ok := b.FindUCI(m.UCI)
			if !ok {
				t.Fatalf("position %d ply %d: illegal %s in %s", n, ply, m.UCI, b.FEN())
			}
			castled = castled || mv.IsCastle()
			b.Make(mv)
			pos.Moves = append(pos.Moves, m.UCI)
		}
		t.Logf("Chess960 position %d: %d plies, castled %v", n, len(pos.Moves), castled)
	}
}

func BenchmarkMeasure(b *testing.B) {
	p := newParams(Defaults())
	g, err := parsePosition(p, engine.Position{StartFEN: "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"})
	if err != nil {
		b.Fatal(err)
	}
	for i := 0; i < b.N; i++ {
		_ = p.measure(&g.root.mb)
	}
}

func TestTradeCompletedBeforeScoring(t *testing.T) {
	// At nominal depth 1, Nxd6 is answered by exd6 within the line (the
	// material-swing extension); the pair counts as a trade in ply
	// equivalents.
	const fen = "4k3/4p3/3n4/8/4N3/8/8/4K3 w - - 0 1"
	e := newEngine(t, nil)
	cands, err := e.Explain(context.Background(), engine.Position{StartFEN: fen}, engine.Limits{Depth: 1})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range cands {
		if c.Move != "e4d6" {
			continue
		}
		if strings.Join(c.Line, " ") != "e4d6 e7d6" || c.White.Plies != 2 || c.White.PlyEq != 1 {
			t.Errorf("line %v plies %d plyEq %g, want e4d6 e7d6, 2, 1", c.Line, c.White.Plies, c.White.PlyEq)
		}
		if c.Depth != 1 || c.Reached != 1 {
			t.Errorf("depth %d reached %d", c.Depth, c.Reached)
		}
		return
	}
	t.Fatal("e4d6 not among the candidates")
}
