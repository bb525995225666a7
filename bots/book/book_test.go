package book

import (
	"bufio"
	"context"
	"encoding/binary"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/outpostchess/outpost/bots/board"
	"github.com/outpostchess/outpost/bots/engine"
	"github.com/outpostchess/outpost/bots/movesource"
)

const (
	performanceBin = "../../../shared/books/performance.bin"
	laskerBin      = "../../../shared/books/lasker-trap.bin"
)

func openBook(t testing.TB, path string) *Book {
	t.Helper()
	b, err := Open(path)
	require.NoError(t, err)
	t.Cleanup(func() { require.NoError(t, b.Close()) })
	return b
}

// encodeMove is EncodeMove, failing t on a bad move.
func encodeMove(t testing.TB, uci string) uint16 {
	t.Helper()
	m, err := EncodeMove(uci)
	require.NoError(t, err)
	return m
}

// TestMoveEncoding: EncodeMove writes Polyglot's bits (the e2e4 and
// e1h1 of the format's description, a promotion), DecodeMove reads them
// back, and a bad move is an error naming it.
func TestMoveEncoding(t *testing.T) {
	for uci, want := range map[string]uint16{
		"e2e4":  4<<6 | 1<<9 | 4 | 3<<3,
		"e1h1":  4<<6 | 7,
		"a7a8q": 6<<9 | 7<<3 | 4<<12,
		"b2a1n": 1<<6 | 1<<9 | 1<<12,
	} {
		m, err := EncodeMove(uci)
		require.NoError(t, err)
		require.Equalf(t, want, m, "EncodeMove(%s) = %016b", uci, m)
		back, err := DecodeMove(m)
		require.NoError(t, err)
		require.Equal(t, uci, back)
	}
	for _, bad := range []string{"", "e2e", "e2e4qq", "i2e4", "e2e9", "e7e8k"} {
		_, err := EncodeMove(bad)
		require.ErrorContains(t, err, fmt.Sprintf("%q", bad))
	}
	_, err := DecodeMove(4<<6 | 4)
	require.Error(t, err, "from and to the same square is no move")
}

// FuzzEncodeMove: a move EncodeMove accepts and DecodeMove reads back is
// the move encoded.
func FuzzEncodeMove(f *testing.F) {
	for _, s := range []string{"e2e4", "e1h1", "a7a8q", "a1a1", "h8h1r", "e2"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, uci string) {
		m, err := EncodeMove(uci)
		if err != nil {
			return
		}
		if back, err := DecodeMove(m); err == nil && back != uci {
			t.Fatalf("EncodeMove(%q) = %04x, decoded %q", uci, m, back)
		}
	})
}

// bookBytes builds a book from entries, in the order given.
func bookBytes(entries []Entry) []byte {
	out := make([]byte, 0, len(entries)*EntrySize)
	for _, e := range entries {
		out = binary.BigEndian.AppendUint64(out, e.Key)
		out = binary.BigEndian.AppendUint16(out, e.Move)
		out = binary.BigEndian.AppendUint16(out, e.Weight)
		out = binary.BigEndian.AppendUint32(out, e.Learn)
	}
	return out
}

func TestPolyglotLaskerTrap(t *testing.T) {
	bk := openBook(t, laskerBin)
	require.Equal(t, 7, bk.Len())
	// The book's one line (Black's side of the Lasker trap), ending with
	// the under-promotion fxg1=N+.
	line := []string{"d2d4", "d7d5", "c2c4", "e7e5", "d4e5", "d5d4", "e2e3", "f8b4", "c1d2", "d4e3", "d2b4", "e3f2", "e1e2", "f2g1n"}
	b := board.New()
	for i, mv := range line {
		moves, skipped, err := bk.Moves(b)
		require.NoError(t, err)
		require.Empty(t, skipped)
		if i%2 == 0 {
			require.Emptyf(t, moves, "ply %d: White has no book move", i)
		} else {
			require.Equalf(t, []Candidate{{UCI: mv, Weight: 2}}, moves, "ply %d", i)
		}
		require.NoError(t, b.MakeUCI(mv))
	}
}

var percentRE = regexp.MustCompile(`^(.*)\{(\d+)%\}$`)

// TestPolyglotMatchesPolyglotDump replays lines that Polyglot 2.0.4's own
// dump-book printed for performance.bin: every move it marks with a
// percentage must be one of our book moves there, with that share of the
// position's weight. This checks the whole key table on thousands of
// positions against an independent implementation.
func TestPolyglotMatchesPolyglotDump(t *testing.T) {
	bk := openBook(t, performanceBin)
	f, err := os.Open("testdata/performance-lines.txt")
	require.NoError(t, err)
	defer f.Close()
	sc := bufio.NewScanner(f)
	checked := 0
	for sc.Scan() {
		text := sc.Text()
		if strings.HasPrefix(text, "#") {
			continue
		}
		if i := strings.Index(text, " {"); i >= 0 { // {trans: …} or {cycle: …}
			text = text[:i]
		}
		b := board.New()
		for _, tok := range strings.Fields(text)[1:] {
			if strings.HasSuffix(tok, ".") {
				continue // move number
			}
			san, pct := tok, -1
			if m := percentRE.FindStringSubmatch(tok); m != nil {
				san = m[1]
				pct, _ = strconv.Atoi(m[2])
			}
			mv, err := b.ParseSAN(san)
			require.NoErrorf(t, err, "line %q", text)
			if pct >= 0 {
				moves, skipped, err := bk.Moves(b)
				require.NoError(t, err)
				require.Empty(t, skipped)
				total, w := 0, -1
				for _, c := range moves {
					total += int(c.Weight)
					if c.UCI == mv.String() {
						w = int(c.Weight)
					}
				}
				require.GreaterOrEqualf(t, w, 0, "%s not a book move in %s (line %q)", san, b.FEN(), text)
				require.InDeltaf(t, float64(pct), 100*float64(w)/float64(total), 1, "%s in %s", san, b.FEN())
				checked++
			}
			b.Make(mv)
		}
	}
	require.NoError(t, sc.Err())
	require.Greater(t, checked, 1000)
}

func TestPolyglotCastlingConverted(t *testing.T) {
	bk := openBook(t, performanceBin)
	ruy := []string{"e2e4", "e7e5", "g1f3", "b8c6", "f1b5", "a7a6", "b5a4", "g8f6"}
	// Standard chess: the book's e1h1 is played as e1g1.
	b, err := engine.Position{Moves: ruy}.Board()
	require.NoError(t, err)
	moves, _, err := bk.Moves(b)
	require.NoError(t, err)
	require.Contains(t, moves, Candidate{UCI: "e1g1", Weight: 82, Learn: 5120})
	// Chess960 (position 518): the same entry, as king takes rook.
	b960, err := engine.Position{Moves: ruy, Chess960: true}.Board()
	require.NoError(t, err)
	moves, _, err = bk.Moves(b960)
	require.NoError(t, err)
	require.Contains(t, moves, Candidate{UCI: "e1h1", Weight: 82, Learn: 5120})
}

func TestPolyglotCorruptFiles(t *testing.T) {
	start := uint64(0x463b96181691fc9c)
	sorted := bookBytes([]Entry{{Key: 1, Move: 1, Weight: 1}, {Key: 2, Move: 2, Weight: 1}})
	tests := []struct {
		name    string
		data    []byte
		wantErr string
	}{
		{"empty", nil, "empty"},
		{"15 bytes", make([]byte, 15), "size 15 bytes is not a multiple of 16"},
		{"one entry and a byte", append(slices.Clone(sorted[:16]), 0), "size 17 bytes is not a multiple of 16"},
		{"unsorted", bookBytes([]Entry{{Key: start}, {Key: 1}}), "entry 1 (key 0000000000000001) is below entry 0"},
		{"sorted", sorted, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Parse("x.bin", tt.data)
			if tt.wantErr == "" {
				require.NoError(t, err)
				return
			}
			require.ErrorContains(t, err, "x.bin")
			require.ErrorContains(t, err, tt.wantErr)
		})
	}
	// The same checks when opening a file.
	dir := t.TempDir()
	odd := filepath.Join(dir, "odd.bin")
	require.NoError(t, os.WriteFile(odd, make([]byte, 20), 0o600))
	_, err := Open(odd)
	require.ErrorContains(t, err, "size 20 bytes is not a multiple of 16")
	_, err = Open(filepath.Join(dir, "missing.bin"))
	require.ErrorContains(t, err, "missing.bin")
	_, err = Open(dir)
	require.ErrorContains(t, err, "not a regular file")
}

func TestPolyglotIllegalEntriesSkipped(t *testing.T) {
	start := uint64(0x463b96181691fc9c)
	tests := []struct {
		name     string
		moves    []string
		want     string // "" = no move
		skipped  int
		wantFail bool // Source reports an error (not ErrNoMove)
	}{
		{"legal only", []string{"e2e4"}, "e2e4", 0, false},
		{"illegal skipped", []string{"e2e5", "d2d4"}, "d2d4", 1, false},
		{"only illegal", []string{"e1e3", "a1a1"}, "", 2, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var entries []Entry
			for _, m := range tt.moves {
				entries = append(entries, Entry{Key: start, Move: encodeMove(t, m), Weight: 10})
			}
			bk, err := Parse("t.bin", bookBytes(entries))
			require.NoError(t, err)
			moves, skipped, err := bk.Moves(board.New())
			require.NoError(t, err)
			require.Len(t, skipped, tt.skipped)
			for _, e := range skipped {
				require.ErrorContains(t, e, "t.bin")
				require.ErrorContains(t, e, "skipped")
			}
			src, err := NewSource([]*Book{bk}, Options{})
			require.NoError(t, err)
			mv, err := src.Move(context.Background(), engine.Position{}, engine.Limits{})
			switch {
			case tt.want != "":
				require.NoError(t, err)
				require.Equal(t, tt.want, mv.UCI)
				require.Equal(t, "book", mv.Source)
				require.Len(t, moves, 1)
			case tt.wantFail:
				require.Error(t, err)
				require.NotErrorIs(t, err, movesource.ErrNoMove)
				require.ErrorContains(t, err, "skipped")
			}
		})
	}
}

// synthetic returns a book for the start position with the given moves and
// weights.
func synthetic(t *testing.T, weights map[string]uint16) *Book {
	t.Helper()
	var entries []Entry
	for _, m := range slices.Sorted(func(yield func(string) bool) {
		for k := range weights {
			if !yield(k) {
				return
			}
		}
	}) {
		entries = append(entries, Entry{Key: 0x463b96181691fc9c, Move: encodeMove(t, m), Weight: weights[m]})
	}
	bk, err := Parse("synthetic.bin", bookBytes(entries))
	require.NoError(t, err)
	return bk
}

func TestPolyglotSelection(t *testing.T) {
	weights := map[string]uint16{"e2e4": 30, "d2d4": 10, "c2c4": 0, "g1f3": 2}
	const draws = 4000
	tests := []struct {
		name      string
		opt       Options
		wantShare map[string]float64 // expected share of each move
	}{
		{"best", Options{Selection: Best}, map[string]float64{"e2e4": 1}},
		{"weighted", Options{Selection: Weighted}, map[string]float64{"e2e4": 30.0 / 42, "d2d4": 10.0 / 42, "g1f3": 2.0 / 42}},
		{"uniform", Options{Selection: Uniform}, map[string]float64{"e2e4": 1.0 / 3, "d2d4": 1.0 / 3, "g1f3": 1.0 / 3}},
		{"min weight", Options{Selection: Uniform, MinWeight: 10}, map[string]float64{"e2e4": 0.5, "d2d4": 0.5}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tt.opt.Rand = rand.New(rand.NewPCG(1, 2))
			src, err := NewSource([]*Book{synthetic(t, weights)}, tt.opt)
			require.NoError(t, err)
			counts := map[string]int{}
			for range draws {
				mv, err := src.Move(context.Background(), engine.Position{}, engine.Limits{})
				require.NoError(t, err)
				counts[mv.UCI]++
			}
			require.Zero(t, counts["c2c4"], "a move of weight 0 is never played")
			for m, share := range tt.wantShare {
				// 4000 draws: 5 standard deviations are under 0.04.
				require.InDeltaf(t, share, float64(counts[m])/draws, 0.04, "%s: %v", m, counts)
			}
			require.Len(t, counts, len(tt.wantShare))
		})
	}
}

func TestPolyglotSourceDepthAndOrder(t *testing.T) {
	lasker, err := Open(laskerBin)
	require.NoError(t, err)
	perf, err := Open(performanceBin)
	require.NoError(t, err)
	src, err := NewSource([]*Book{lasker, perf}, Options{MaxDepth: 3})
	require.NoError(t, err)
	defer func() { require.NoError(t, src.Close()) }()
	ctx := context.Background()
	// Ply 0: the Lasker book has nothing for White; performance.bin has
	// three moves of weight 1: best takes the first.
	mv, err := src.Move(ctx, engine.Position{}, engine.Limits{})
	require.NoError(t, err)
	require.Equal(t, "e2e4", mv.UCI)
	// After 1.d4 the first book answers.
	mv, err = src.Move(ctx, engine.Position{Moves: []string{"d2d4"}}, engine.Limits{})
	require.NoError(t, err)
	require.Equal(t, "d7d5", mv.UCI)
	// Ply 3 is past max depth 3 (plies 0, 1, 2 are in book).
	_, err = src.Move(ctx, engine.Position{Moves: []string{"d2d4", "d7d5", "c2c4"}}, engine.Limits{})
	require.ErrorIs(t, err, movesource.ErrNoMove)
	// Out of book.
	_, err = src.Move(ctx, engine.Position{Moves: []string{"h2h4", "a7a5"}}, engine.Limits{})
	require.ErrorIs(t, err, movesource.ErrNoMove)
}

func TestPolyglotNewSourceErrors(t *testing.T) {
	bk := synthetic(t, map[string]uint16{"e2e4": 1})
	_, err := NewSource(nil, Options{})
	require.ErrorContains(t, err, "no book")
	_, err = NewSource([]*Book{bk}, Options{Selection: "random"})
	require.ErrorContains(t, err, `"random"`)
	_, err = NewSource([]*Book{bk}, Options{MinWeight: math.MaxUint16 + 1})
	require.Error(t, err)
}

func FuzzPolyglotParse(f *testing.F) {
	lasker, err := os.ReadFile(laskerBin)
	require.NoError(f, err)
	f.Add(lasker)
	f.Add(lasker[:37])
	f.Add(bookBytes([]Entry{{Key: 0x463b96181691fc9c, Move: 0xffff, Weight: 1}}))
	f.Add(bookBytes([]Entry{{Key: 0x463b96181691fc9c, Move: 0x031c, Weight: 5}, {Key: 1}}))
	f.Fuzz(func(t *testing.T, data []byte) {
		bk, err := Parse("fuzz.bin", data)
		if err != nil {
			require.ErrorContains(t, err, "fuzz.bin")
			return
		}
		require.Zero(t, len(data)%EntrySize)
		for i := 1; i < bk.Len(); i++ {
			require.LessOrEqual(t, bk.entry(i-1).Key, bk.entry(i).Key)
		}
		// Every move returned is legal; the rest are reported.
		src, err := NewSource([]*Book{bk}, Options{Selection: Weighted, Rand: rand.New(rand.NewPCG(3, 4))})
		require.NoError(t, err)
		for _, moves := range [][]string{nil, {"e2e4"}, {"d2d4"}} {
			b, err := engine.Position{Moves: moves}.Board()
			require.NoError(t, err)
			cands, skipped, err := bk.Moves(b)
			require.NoError(t, err)
			for _, c := range cands {
				_, err := b.ParseUCI(c.UCI)
				require.NoError(t, err)
			}
			for _, e := range skipped {
				require.ErrorContains(t, e, "skipped")
			}
			mv, err := src.Move(context.Background(), engine.Position{Moves: moves}, engine.Limits{})
			if err == nil {
				_, err := b.ParseUCI(mv.UCI)
				require.NoError(t, err)
			}
		}
	})
}

// BenchmarkPolyglotSourceMove: one book move from performance.bin after
// 1.e4 e5 2.Nf3 (board set-up from the moves, key, binary search, legality
// checks, selection).
func BenchmarkPolyglotSourceMove(b *testing.B) {
	bk := openBook(b, performanceBin)
	src, err := NewSource([]*Book{bk}, Options{Selection: Weighted, Rand: rand.New(rand.NewPCG(1, 1))})
	require.NoError(b, err)
	pos := engine.Position{Moves: []string{"e2e4", "e7e5", "g1f3"}}
	ctx := context.Background()
	for b.Loop() {
		if _, err := src.Move(ctx, pos, engine.Limits{}); err != nil {
			b.Fatal(err)
		}
	}
}
