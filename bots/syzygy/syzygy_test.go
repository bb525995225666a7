package syzygy

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/outpostchess/outpost/bots/board"
	"github.com/outpostchess/outpost/bots/engine"
	"github.com/outpostchess/outpost/bots/movesource"
)

func TestSyzygyOpenCoversFourPieces(t *testing.T) {
	tb := openShared(t)
	assert.Equal(t, 4, tb.MaxPieces())
	capped := openShared(t, WithMaxPieces(3))
	assert.Equal(t, 3, capped.MaxPieces())
	_, err := capped.ProbeWDL(mustBoard(t, "8/8/8/8/8/2k5/8/K5qR w - - 0 1"))
	assert.ErrorIs(t, err, ErrNotCovered, "a 4-piece position above the cap")
}

func TestSyzygyOpenErrors(t *testing.T) {
	empty := t.TempDir()
	file := filepath.Join(empty, "x.rtbw.txt")
	require.NoError(t, os.WriteFile(file, []byte("x"), 0o600))
	// Without libfathom's cgo shim, Open says which build it needs.
	libraryMissing := "install Debian's libfathom1"
	if !Available {
		libraryMissing = "cgo (CGO_ENABLED=1)"
	}
	tests := []struct {
		name string
		dirs []string
		opts []Option
		want string
	}{
		{"no directory", nil, nil, "no table directory"},
		{"missing directory", []string{filepath.Join(empty, "nope")}, nil, "nope"},
		{"not a directory", []string{file}, nil, "not a directory"},
		{"no tables", []string{empty}, nil, "no Syzygy WDL table"},
		{"colon in path", []string{"/a:b"}, nil, "fathom's path separator"},
		{"library missing", []string{sharedTables}, []Option{WithLibrary("libfathom-not-here.so.1")}, libraryMissing},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Open(tc.dirs, tc.opts...)
			require.Error(t, err)
			assert.Contains(t, err.Error(), tc.want)
		})
	}
}

// TestSyzygyEPDResults checks every position of endgame-dm-4.epd: the WDL
// and root probes agree with its distance to mate, a win's DTZ is positive
// and the best move keeps the result.
func TestSyzygyEPDResults(t *testing.T) {
	tb := openShared(t)
	positions := readEPD(t, "endgame-dm-4.epd")
	require.GreaterOrEqual(t, len(positions), 40)
	for _, p := range positions {
		b := mustBoard(t, p.fen)
		want := wdlOfDM(p.dm)
		w, err := tb.ProbeWDL(b)
		require.NoError(t, err, p.fen)
		assert.Equal(t, want, w, "WDL of %s (dm %d)", p.fen, p.dm)
		root, err := tb.ProbeRoot(b)
		require.NoError(t, err, p.fen)
		assert.Equal(t, want, root.WDL, "root WDL of %s", p.fen)
		best, ok := root.Best()
		require.True(t, ok)
		assert.Equal(t, want, best.WDL, "best move %s of %s", best.UCI, p.fen)
		switch want {
		case Win:
			assert.Positive(t, root.DTZ, p.fen)
			assert.LessOrEqual(t, root.DTZ, 2*p.dm-1, "DTZ ≤ plies to mate in %s", p.fen)
		case Loss:
			assert.Negative(t, root.DTZ, p.fen)
		}
		// The opponent's view after the best move is the opposite result.
		b.Make(best.Move)
		if b.HasLegalMoves() {
			after, err := tb.ProbeRoot(b)
			require.NoError(t, err)
			assert.Equal(t, -want, after.WDL, "after %s in %s", best.UCI, p.fen)
		}
	}
}

// TestSyzygyTooManyPieces: positions beyond the tables (the 5-piece EPD,
// the start position, castling rights) are "no move", never an error.
func TestSyzygyTooManyPieces(t *testing.T) {
	tb := openShared(t)
	src := NewSource(tb)
	fens := []string{engine.StartFEN, "r3k3/8/8/8/8/8/8/4K3 b q - 0 1"}
	for _, p := range readEPD(t, "endgame-dm-5.epd") {
		fens = append(fens, p.fen)
	}
	for _, fen := range fens {
		_, err := tb.ProbeWDL(mustBoard(t, fen))
		assert.ErrorIs(t, err, ErrNotCovered, fen)
		_, err = tb.ProbeRoot(mustBoard(t, fen))
		assert.ErrorIs(t, err, ErrNotCovered, fen)
		_, err = src.Move(context.Background(), engine.Position{StartFEN: fen}, engine.Limits{})
		assert.ErrorIs(t, err, movesource.ErrNoMove, fen)
	}
}

func TestSyzygyGameOver(t *testing.T) {
	tb := openShared(t)
	for _, fen := range []string{"k7/1Q6/1K6/8/8/8/8/8 b - - 0 1", "k7/2Q5/1K6/8/8/8/8/8 b - - 0 1"} {
		_, err := tb.ProbeRoot(mustBoard(t, fen))
		assert.ErrorIs(t, err, ErrGameOver, fen)
		_, err = NewSource(tb).Move(context.Background(), engine.Position{StartFEN: fen}, engine.Limits{})
		assert.ErrorIs(t, err, movesource.ErrNoMove, fen)
	}
}

// TestSyzygySourcePlaysOut lets the source play both sides from won
// positions to the end: every move is legal, the winner mates, and never
// later than the 50-move rule allows.
func TestSyzygySourcePlaysOut(t *testing.T) {
	tb := openShared(t)
	src := NewSource(tb)
	tests := []struct{ name, fen string }{
		{"KQK", "8/8/8/3k4/8/8/8/KQ6 w - - 0 1"},
		{"KRK", "8/8/8/4k3/8/8/8/K6R w - - 0 1"},
		{"KPK", "7k/8/8/8/8/8/P7/K7 w - - 0 1"}, // the pawn queens first
		{"KBNK", "7k/8/8/8/8/8/8/KBN5 w - - 0 1"},
		{"KQKR", "8/8/3r4/4k3/8/8/8/KQ6 w - - 0 1"},
		{"black wins KRK", "k6r/8/8/8/8/4K3/8/8 b - - 0 1"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			pos := engine.Position{StartFEN: tc.fen}
			b := mustBoard(t, tc.fen)
			winner := b.SideToMove()
			start, err := tb.ProbeRoot(b)
			require.NoError(t, err)
			require.Equal(t, Win, start.WDL, "the test starts from a win")
			for ply := 0; ply < 400; ply++ {
				if b.IsCheckmate() {
					assert.Equal(t, winner.Other(), b.SideToMove(), "the winner mates")
					return
				}
				require.False(t, b.IsStalemate(), "stalemate after %v", pos.Moves)
				require.Less(t, b.HalfmoveClock(), 100, "50-move rule after %v", pos.Moves)
				mv, err := src.Move(context.Background(), pos, engine.Limits{})
				require.NoError(t, err, "after %v", pos.Moves)
				assert.Equal(t, SourceName, mv.Source)
				require.NoError(t, b.MakeUCI(mv.UCI), "illegal %s after %v", mv.UCI, pos.Moves)
				pos.Moves = append(pos.Moves, mv.UCI)
			}
			t.Fatalf("no mate after %d plies: %v", len(pos.Moves), pos.Moves)
		})
	}
}

// TestSyzygyBestOrder checks the choice rule on made-up results.
func TestSyzygyBestOrder(t *testing.T) {
	m := func(uci string, w WDL, dtz int) MoveResult { return MoveResult{UCI: uci, WDL: w, DTZ: dtz} }
	tests := []struct {
		name  string
		moves []MoveResult
		want  string
	}{
		{"win beats cursed win", []MoveResult{m("a", CursedWin, 1), m("b", Win, 30)}, "b"},
		{"shortest win", []MoveResult{m("a", Win, 9), m("b", Win, 3), m("c", Win, 5)}, "b"},
		{"draw beats loss", []MoveResult{m("a", Loss, -90), m("b", Draw, 0)}, "b"},
		{"longest loss", []MoveResult{m("a", Loss, -3), m("b", Loss, -40), m("c", Loss, -7)}, "b"},
		{"blessed loss beats loss", []MoveResult{m("a", Loss, -80), m("b", BlessedLoss, -2)}, "b"},
		{"first of equal draws", []MoveResult{m("a", Draw, 0), m("b", Draw, 0)}, "a"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			best, ok := Root{Moves: tc.moves}.Best()
			require.True(t, ok)
			assert.Equal(t, tc.want, best.UCI)
		})
	}
	_, ok := Root{}.Best()
	assert.False(t, ok)
}

// TestSyzygyFiftyMoveRule: the halfmove clock turns a win into a cursed
// win at the root when the zeroing move comes too late.
func TestSyzygyFiftyMoveRule(t *testing.T) {
	tb := openShared(t)
	fresh, err := tb.ProbeRoot(mustBoard(t, "7k/8/8/8/8/8/8/KBN5 w - - 0 1"))
	require.NoError(t, err)
	require.Equal(t, Win, fresh.WDL)
	late := mustBoard(t, "7k/8/8/8/8/8/8/KBN5 w - - 99 80")
	root, err := tb.ProbeRoot(late)
	require.NoError(t, err)
	assert.Equal(t, CursedWin, root.WDL, "DTZ %d with 99 plies already played", fresh.DTZ)
	w, err := tb.ProbeWDL(late)
	require.NoError(t, err)
	assert.Equal(t, Win, w, "the WDL table ignores the clock")
}

func TestSyzygyMaterial(t *testing.T) {
	tests := []struct{ fen, want string }{
		{"8/8/8/8/8/2k5/8/K6R w - - 0 1", "KRvK"},
		{"8/8/8/8/8/2k5/8/K5qR w - - 0 1", "KQvKR"},
		{"k6r/8/8/8/8/4K3/8/8 b - - 0 1", "KRvK"},
		{"1k1K4/8/8/pP6/8/8/8/8 w - a6 0 1", "KPvKP"},
		{"7k/8/8/8/8/8/8/KBN5 w - - 0 1", "KBNvK"},
		{"7k/7n/8/8/8/8/P7/K7 w - - 0 1", "KNvKP"},
	}
	for _, tc := range tests {
		assert.Equal(t, tc.want, Material(mustBoard(t, tc.fen)), tc.fen)
	}
}

func TestSyzygyClosed(t *testing.T) {
	needFathom(t)
	tb, err := Open([]string{sharedTables})
	require.NoError(t, err)
	src := OwnedSource(tb)
	require.NoError(t, src.Close())
	_, err = tb.ProbeWDL(mustBoard(t, "8/8/8/8/8/2k5/8/K6R w - - 0 1"))
	require.Error(t, err)
	assert.False(t, errors.Is(err, ErrNotCovered))
	assert.True(t, strings.Contains(err.Error(), "closed"))
}

func TestSyzygySourceContextCancelled(t *testing.T) {
	src := NewSource(openShared(t))
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := src.Move(ctx, engine.Position{StartFEN: "8/8/8/8/8/2k5/8/K6R w - - 0 1"}, engine.Limits{})
	assert.ErrorIs(t, err, context.Canceled)
}

// FuzzSyzygyFEN feeds arbitrary FENs through the board parser into the
// probes: no crash, covered positions give legal moves with consistent
// results, others ErrNotCovered.
func FuzzSyzygyFEN(f *testing.F) {
	for _, s := range []string{"8/8/8/8/8/2k5/8/K6R w - - 0 1", "1k1K4/8/8/pP6/8/8/8/8 w - a6 0 1",
		"7K/k7/8/Pp6/8/8/8/8 w - b6 0 1", engine.StartFEN, "8/8/8/8/8/8/8/8 w - - 0 1", "k7/1Q6/1K6/8/8/8/8/8 b - - 0 1",
		"7k/8/8/8/8/8/8/KBN5 w - - 120 80", "8/P7/8/8/8/8/8/k1K5 w - - 0 1"} {
		f.Add(s)
	}
	tb := openShared(f)
	f.Fuzz(func(t *testing.T, fen string) {
		b, err := board.FromFEN(fen)
		if err != nil {
			return
		}
		w, werr := tb.ProbeWDL(b)
		root, rerr := tb.ProbeRoot(b)
		if !tb.Covers(b) {
			if !errors.Is(werr, ErrNotCovered) || !errors.Is(rerr, ErrNotCovered) {
				t.Fatalf("%s: uncovered position gave %v / %v", fen, werr, rerr)
			}
			return
		}
		if werr != nil {
			t.Fatalf("%s: WDL probe of a covered position: %v", fen, werr)
		}
		if w < Loss || w > Win {
			t.Fatalf("%s: WDL %d out of range", fen, w)
		}
		if errors.Is(rerr, ErrGameOver) {
			if b.HasLegalMoves() {
				t.Fatalf("%s: game over with legal moves", fen)
			}
			return
		}
		if rerr != nil {
			t.Fatalf("%s: root probe: %v", fen, rerr)
		}
		if len(root.Moves) != len(b.LegalMoves()) {
			t.Fatalf("%s: %d move results for %d legal moves", fen, len(root.Moves), len(b.LegalMoves()))
		}
		best, _ := root.Best()
		if best.WDL != root.WDL {
			t.Fatalf("%s: best move %s has %s, position %s", fen, best.UCI, best.WDL, root.WDL)
		}
	})
}
