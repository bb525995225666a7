package search

import (
	"context"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/outpostchess/outpost/bots/board"
	"github.com/outpostchess/outpost/bots/engine"
	"github.com/outpostchess/outpost/bots/timeman"
	"github.com/rs/zerolog"
)

// iterationSignal is a log writer that closes done at the engine's first
// "search iteration" line (a completed iteration of iterative deepening).
type iterationSignal struct {
	once sync.Once
	done chan struct{}
}

func (s *iterationSignal) Write(p []byte) (int, error) {
	if strings.Contains(string(p), "search iteration") {
		s.once.Do(func() { close(s.done) })
	}
	return len(p), nil
}

func engines(t *testing.T) []*Engine {
	t.Helper()
	m, err := NewMedium()
	if err != nil {
		t.Fatal(err)
	}
	h, err := NewHard(WithHashMB(8))
	if err != nil {
		t.Fatal(err)
	}
	return []*Engine{m, h}
}

// forcedMate reports whether the side to move in b mates within n moves
// against every defence (brute force; n small).
func forcedMate(b *board.Board, n int) bool {
	if n == 0 {
		return false
	}
	for _, m := range b.LegalMoves() {
		b.Make(m)
		replies := b.LegalMoves()
		ok := len(replies) > 0 || b.InCheck()
		if len(replies) == 0 && !b.InCheck() {
			ok = false // stalemate
		}
		for _, r := range replies {
			b.Make(r)
			if !forcedMate(b, n-1) {
				ok = false
			}
			b.Unmake()
			if !ok {
				break
			}
		}
		b.Unmake()
		if ok {
			return true
		}
	}
	return false
}

func TestMates(t *testing.T) {
	cases := []struct {
		name, fen string
		mateIn    int
		want      string // expected move when unique
	}{
		{"back rank", "6k1/5ppp/8/8/8/8/8/R6K w - - 0 1", 1, "a1a8"},
		{"smothered", "6rk/6pp/8/6N1/8/8/8/6K1 w - - 0 1", 1, "g5f7"},
		{"queen and king", "k7/8/1K6/8/8/8/8/6Q1 w - - 0 1", 1, "g1g8"},
		{"black mates", "7k/8/8/8/8/8/1r3PPP/6K1 b - - 0 1", 1, "b2b1"},
		{"two rooks ladder", "6k1/8/8/8/8/8/R7/1R4K1 w - - 0 1", 2, ""},
		{"legall", "r2qkb1r/pp2nppp/3p4/2pNN1B1/2BnP3/3P4/PPP2PPP/R2bK2R w KQkq - 1 8", 2, "d5f6"},
	}
	for _, c := range cases {
		for _, e := range engines(t) {
			t.Run(c.name+"/"+e.Name(), func(t *testing.T) {
				b, err := board.FromFEN(c.fen)
				if err != nil {
					t.Fatal(err)
				}
				if !forcedMate(b, c.mateIn) {
					t.Fatalf("test position is not a mate in %d", c.mateIn)
				}
				m, err := e.SelectMove(context.Background(), engine.Position{StartFEN: c.fen}, engine.Limits{Depth: 2*c.mateIn + 1})
				if err != nil {
					t.Fatal(err)
				}
				if m.Score.Mate != c.mateIn {
					t.Errorf("score %+v, want mate in %d", m.Score, c.mateIn)
				}
				mv, err := b.ParseUCI(m.UCI)
				if err != nil {
					t.Fatal(err)
				}
				b.Make(mv)
				if c.mateIn == 1 && !b.IsCheckmate() {
					t.Errorf("%s does not mate", m.UCI)
				}
				if c.want != "" && m.UCI != c.want {
					t.Errorf("move %s, want %s", m.UCI, c.want)
				}
			})
		}
	}
}

func TestTactics(t *testing.T) {
	cases := []struct {
		name, fen string
		want      string
		avoid     bool // want is the move to avoid
	}{
		{"hanging queen", "4k3/8/8/3q4/8/8/8/3RK3 w - - 0 1", "d1d5", false},
		{"knight fork", "r3k3/8/8/1N6/8/8/8/4K3 w - - 0 1", "b5c7", false},
		{"promotion", "8/P7/8/8/8/8/k7/4K3 w - - 0 1", "a7a8q", false},
		{"poisoned pawn", "4k3/8/4p3/3p4/8/8/8/3QK3 w - - 0 1", "d1d5", true},
		{"capture the bigger piece", "4k3/8/8/2r1q3/3P4/8/8/4K3 w - - 0 1", "d4e5", false},
	}
	for _, c := range cases {
		for _, e := range engines(t) {
			t.Run(c.name+"/"+e.Name(), func(t *testing.T) {
				m, err := e.SelectMove(context.Background(), engine.Position{StartFEN: c.fen}, engine.Limits{Depth: 5})
				if err != nil {
					t.Fatal(err)
				}
				if (m.UCI == c.want) == c.avoid {
					t.Errorf("played %s (score %+v, pv %v); want %s%s", m.UCI, m.Score, m.PV, map[bool]string{true: "anything but ", false: ""}[c.avoid], c.want)
				}
			})
		}
	}
}

func TestSingleLegalMoveIsImmediate(t *testing.T) {
	for _, e := range engines(t) {
		m, err := e.SelectMove(context.Background(), engine.Position{StartFEN: "k7/2K5/8/8/8/8/8/1R6 b - - 0 1"}, engine.Limits{Infinite: true})
		if err != nil || m.UCI != "a8a7" || m.Nodes != 0 {
			t.Errorf("%s: %+v, %v; want a8a7 without search", e.Name(), m, err)
		}
	}
}

func TestLimits(t *testing.T) {
	pos := engine.Position{Moves: []string{"e2e4", "e7e5", "g1f3", "b8c6"}}
	for _, e := range engines(t) {
		m, err := e.SelectMove(context.Background(), pos, engine.Limits{Depth: 4})
		if err != nil || m.Depth != 4 {
			t.Errorf("%s depth 4: depth %d err %v", e.Name(), m.Depth, err)
		}
		m, err = e.SelectMove(context.Background(), pos, engine.Limits{Nodes: 3000})
		if err != nil || m.Nodes > 3000 || m.Nodes < 2000 {
			t.Errorf("%s 3000 nodes: searched %d, err %v", e.Name(), m.Nodes, err)
		}
		checkLegal(t, pos, m.UCI)
	}
}

func checkLegal(t *testing.T, pos engine.Position, uci string) {
	t.Helper()
	b, err := pos.Board()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := b.ParseUCI(uci); err != nil {
		t.Errorf("engine returned illegal move: %v", err)
	}
}

// TestCancelReturnsBestSoFar: an infinite search stops promptly when its
// context is cancelled and still returns a legal move from a completed
// iteration.
func TestCancelReturnsBestSoFar(t *testing.T) {
	pos := engine.Position{StartFEN: "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10"}
	for _, newEngine := range []func(...Option) (*Engine, error){NewMedium, NewHard} {
		// The engine logs each completed iteration: the test cancels on
		// that event, not after a fixed time a busy machine may not reach
		// depth 1 in.
		iter := &iterationSignal{done: make(chan struct{})}
		e, err := newEngine(WithHashMB(8), WithLogger(zerolog.New(iter).Level(zerolog.DebugLevel)))
		if err != nil {
			t.Fatal(err)
		}
		ctx, cancel := context.WithCancel(context.Background())
		done := make(chan struct{})
		var m engine.Move
		go func() {
			m, err = e.SelectMove(ctx, pos, engine.Limits{Infinite: true})
			close(done)
		}()
		select {
		case <-iter.done:
		case <-done:
			t.Fatalf("%s: an infinite search returned before it was cancelled", e.Name())
		}
		cancel()
		select {
		case <-done:
		case <-time.After(5 * time.Second):
			t.Fatalf("%s ignored cancellation", e.Name())
		}
		if err != nil || m.Depth < 1 {
			t.Errorf("%s: %+v, %v", e.Name(), m, err)
		}
		checkLegal(t, pos, m.UCI)
	}
	// Cancelled before starting: an error, not a move.
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := engines(t)[1].SelectMove(ctx, pos, engine.Limits{}); !errors.Is(err, context.Canceled) {
		t.Errorf("pre-cancelled search: err = %v", err)
	}
}

func TestPlanTime(t *testing.T) {
	ms := time.Millisecond
	cases := []struct {
		name      string
		lim       engine.Limits
		side      board.Color
		soft, hrd time.Duration
		limited   bool
	}{
		{"movetime", engine.Limits{MoveTime: 500 * ms, MoveOverhead: 50 * ms}, board.White, 900 * ms, 450 * ms, true},
		{"sudden death", engine.Limits{WTime: 60_000 * ms, BTime: 1000 * ms}, board.White, 59_990 * ms / 30, 3 * (59_990 * ms / 30), true},
		{"black clock with inc", engine.Limits{WTime: 60_000 * ms, BTime: 30_010 * ms, BInc: 2000 * ms}, board.Black, 2500 * ms, 7500 * ms, true},
		{"moves to go 1", engine.Limits{WTime: 1010 * ms, MovesToGo: 1}, board.White, 500 * ms, 750 * ms, true},
		{"almost flagging", engine.Limits{WTime: 30 * ms, MoveOverhead: 100 * ms}, board.White, ms, ms, true},
		{"clock and movetime", engine.Limits{WTime: 60_000 * ms, MoveTime: 100 * ms}, board.White, 200 * ms, 100 * ms, true},
		{"depth only", engine.Limits{Depth: 5}, board.White, 0, 0, false},
		{"infinite", engine.Limits{Infinite: true, WTime: ms}, board.White, 0, 0, false},
		{"nothing", engine.Limits{}, board.White, 2 * time.Second, time.Second, true},
		{"depth under a deadline", engine.Limits{Depth: 40, Deadline: 300 * ms}, board.White, 300 * ms, 300 * ms, true},
		{"rapid first move", engine.Limits{WTime: 900_000 * ms, FirstMoveTotal: 30_000 * ms}, board.White, 10_000 * ms, 10_000 * ms, true},
	}
	for _, c := range cases {
		got := planTime(c.lim, c.side, time.Second)
		if got.limited != c.limited || got.soft != c.soft || got.hard != c.hrd {
			t.Errorf("%s: got %+v, want soft %v hard %v limited %v", c.name, got, c.soft, c.hrd, c.limited)
		}
		if c.lim.HasClock() && !c.lim.Infinite {
			ours := c.lim.WTime
			if c.side == board.Black {
				ours = c.lim.BTime
			}
			if ours > c.lim.MoveOverhead+timeman.SafetyMargin && got.hard > ours-c.lim.MoveOverhead-timeman.SafetyMargin {
				t.Errorf("%s: hard limit %v exceeds the usable clock", c.name, got.hard)
			}
		}
	}
}

// TestClockSearchStopsWithinBudget checks, through the node count and the
// reported depth rather than the wall clock, that a tiny clock yields a
// shallow search that still returns a legal move.
func TestClockSearchStopsWithinBudget(t *testing.T) {
	pos := engine.Position{}
	for _, e := range engines(t) {
		m, err := e.SelectMove(context.Background(), pos, engine.Limits{WTime: 40 * time.Millisecond, BTime: time.Minute, MoveOverhead: 20 * time.Millisecond})
		if err != nil {
			t.Fatal(err)
		}
		checkLegal(t, pos, m.UCI)
		if m.Depth > 12 || m.Nodes > 2_000_000 {
			t.Errorf("%s searched depth %d / %d nodes on a 40 ms clock", e.Name(), m.Depth, m.Nodes)
		}
	}
}

// TestRepetitionFromGameHistory: Black is a queen down, and h8h7 repeats a
// position already seen in the game; with repetition detection hard takes
// the draw (score 0), without it the move is just a king shuffle.
func TestRepetitionFromGameHistory(t *testing.T) {
	pos := engine.Position{StartFEN: "7k/8/8/8/8/8/Q7/K7 b - - 0 1", Moves: []string{"h8h7", "a1b1", "h7h8", "b1a1"}}
	h, _ := NewHard(WithHashMB(4))
	m, err := h.SelectMove(context.Background(), pos, engine.Limits{Depth: 6})
	if err != nil {
		t.Fatal(err)
	}
	if m.UCI != "h8h7" || m.Score.CP != 0 || m.Score.Mate != 0 {
		t.Errorf("with repetition: %s %+v, want h8h7 scored 0", m.UCI, m.Score)
	}
	noRep, _ := NewHard(WithHashMB(4), WithoutFeatures("repetition"))
	m, err = noRep.SelectMove(context.Background(), pos, engine.Limits{Depth: 6})
	if err != nil {
		t.Fatal(err)
	}
	if m.Score.CP > -500 && m.Score.Mate == 0 {
		t.Errorf("without repetition: %s %+v, want a losing score", m.UCI, m.Score)
	}
}

// TestTTConsistency: a second search of the same position with a warm
// table returns the same move and mate score; NewGame clears the table.
func TestTTConsistency(t *testing.T) {
	h, _ := NewHard(WithHashMB(4))
	pos := engine.Position{StartFEN: "r2qkb1r/pp2nppp/3p4/2pNN1B1/2BnP3/3P4/PPP2PPP/R2bK2R w KQkq - 1 8"}
	first, _ := h.SelectMove(context.Background(), pos, engine.Limits{Depth: 5})
	second, _ := h.SelectMove(context.Background(), pos, engine.Limits{Depth: 5})
	if first.UCI != second.UCI || first.Score != second.Score {
		t.Errorf("cold %s %+v, warm %s %+v", first.UCI, first.Score, second.UCI, second.Score)
	}
	if second.Nodes >= first.Nodes {
		t.Errorf("warm table did not save work: %d then %d nodes", first.Nodes, second.Nodes)
	}
	if err := h.NewGame(context.Background()); err != nil {
		t.Fatal(err)
	}
	third, _ := h.SelectMove(context.Background(), pos, engine.Limits{Depth: 5})
	if third.Nodes != first.Nodes {
		t.Errorf("after NewGame %d nodes, first search %d", third.Nodes, first.Nodes)
	}
	for _, s := range []int{mateScore - 3, -mateScore + 7, 123, -45} {
		if got := scoreFromTT(scoreToTT(s, 5), 5); got != s {
			t.Errorf("TT mate adjustment of %d round-trips to %d", s, got)
		}
	}
}

func TestOptionsAndConfigure(t *testing.T) {
	if _, err := NewHard(WithHashMB(0)); err == nil {
		t.Error("hash 0 accepted")
	}
	if _, err := NewHard(WithoutFeatures("warp")); err == nil || !strings.Contains(err.Error(), "warp") {
		t.Errorf("unknown feature: %v", err)
	}
	if _, err := NewMedium(WithMaxDepth(99)); err == nil {
		t.Error("depth 99 accepted")
	}
	h, _ := NewHard(WithoutFeatures("lmr", "nullmove"))
	if f := h.Features(); f&FeatLMR != 0 || f&FeatNullMove != 0 || f&FeatTT == 0 {
		t.Errorf("features %s", f)
	}
	if err := h.Configure(map[string]string{"Hash": "2", "Disable": "tt"}); err != nil {
		t.Fatal(err)
	}
	if h.Features()&FeatTT != 0 || h.Info().Features["tt"] {
		t.Error("Disable=tt ignored")
	}
	if err := h.Configure(map[string]string{"Colour": "blue"}); err == nil {
		t.Error("unknown option accepted")
	}
	if err := h.Configure(map[string]string{"Hash": "lots"}); err == nil {
		t.Error("bad hash accepted")
	}
	f, err := ParseFeatures(AllFeatures.String())
	if err != nil || f != AllFeatures {
		t.Errorf("features round trip: %v %v", f, err)
	}
	if f, err := ParseFeatures(" iir+qtt, lmr "); err != nil || f != FeatIIR|FeatQTT|FeatLMR {
		t.Errorf(`"iir+qtt, lmr": %s %v`, f, err)
	}
	m, _ := NewMedium()
	if m.Name() != "medium" || h.Name() != "hard" || m.Info().Kind != engine.KindBuiltin {
		t.Error("names")
	}
	_ = m.Close()
	_ = m.Close()
	if _, err := m.SelectMove(context.Background(), engine.Position{}, engine.Limits{Depth: 1}); !errors.Is(err, ErrClosed) {
		t.Errorf("closed engine: %v", err)
	}
	if _, err := h.SelectMove(context.Background(), engine.Position{StartFEN: "7k/5QQ1/8/8/8/8/8/K7 b - - 0 1"}, engine.Limits{}); err == nil {
		t.Error("checkmated position: no error")
	}
	if _, err := h.SelectMove(context.Background(), engine.Position{StartFEN: "nonsense"}, engine.Limits{}); err == nil {
		t.Error("bad FEN: no error")
	}
}

// TestHistoryMalus: a quiet move's cut-off raises its history score by
// depth² and lowers by as much every quiet move searched before it at that
// node; the table is halved once a score's size reaches historyMax. Medium
// (no history feature) records nothing.
func TestHistoryMalus(t *testing.T) {
	b := board.New()
	mv := func(s string) board.Move {
		m, err := b.ParseUCI(s)
		if err != nil {
			t.Fatal(err)
		}
		return m
	}
	cut, a, c := mv("g1f3"), mv("a2a3"), mv("h2h4")
	s := &searcher{feat: AllFeatures, history: new([2][64][64]int32)}
	s.rememberCutoff(board.White, cut, 3, 2, []board.Move{a, c})
	s.rememberCutoff(board.White, a, 2, 2, nil)
	h := func(m board.Move) int32 { return s.history[board.White][m.From()][m.To()] }
	if h(cut) != 9 || h(a) != -9+4 || h(c) != -9 || s.killers[2][0] != a || s.killers[2][1] != cut {
		t.Errorf("history %d %d %d, killers %v; want 9 -5 -9, [a2a3 g1f3]", h(cut), h(a), h(c), s.killers[2])
	}
	s.history[board.White][c.From()][c.To()] = -historyMax + 8
	s.rememberCutoff(board.White, cut, 3, 2, []board.Move{c})
	if h(c) != (-historyMax-1)/2 || h(cut) != 9 {
		t.Errorf("after reaching -historyMax: %d, %d; want %d, 9 (halved)", h(c), h(cut), (-historyMax-1)/2)
	}
	m := &searcher{feat: 0, history: new([2][64][64]int32)}
	m.rememberCutoff(board.White, cut, 3, 2, []board.Move{a})
	if *m.history != ([2][64][64]int32{}) || m.killers[2][0] != board.NullMove {
		t.Error("medium recorded history or killers")
	}
}

// TestSearchesAnyMaterial: the engines search positions Lichess makes
// games from whatever their material (board.FromFENPlayable): ten pawns, three
// queens and every pawn, triple check, promotions everywhere, and 259
// legal moves (more than a move list held before), and answer a legal
// move.
func TestSearchesAnyMaterial(t *testing.T) {
	es := engines(t)
	for _, fen := range []string{
		"4k3/8/8/8/8/PP6/PPPPPPPP/4K3 w - - 0 1",
		"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNQQKQNR w KQkq - 0 1",
		"4k3/8/3N4/1B6/8/8/4R3/6K1 b - - 0 1",
		"4k3/PPP1P1PP/8/8/8/8/ppp1p1pp/4K3 w - - 0 1",
		"knQQQQQQ/pp5Q/Q6Q/Q6Q/Q6Q/Q6Q/Q6Q/QQQQQQQK b - - 0 1",
		"kn1QQQQQ/pp5Q/Q6Q/Q6Q/Q6Q/Q6Q/Q6Q/QQQQQQQK w - - 0 1",
		"knQQQQQQ/pp5Q/Q6Q/Q6Q/Q6Q/Q6Q/Q6Q/QQQQQQQK w - - 0 1",
	} {
		b, err := board.FromFENPlayable(fen, false)
		if err != nil {
			t.Fatalf("%s: %v", fen, err)
		}
		pos := engine.Position{StartFEN: b.FEN(), Chess960: b.Chess960()}
		for _, e := range es {
			m, err := e.SelectMove(context.Background(), pos, engine.Limits{Depth: 3, Nodes: 20000})
			if err != nil {
				t.Fatalf("%s %s: %v", e.Name(), fen, err)
			}
			checkLegal(t, pos, m.UCI)
		}
	}
}
