package records

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/outpostchess/outpost/bots/score"
	"github.com/outpostchess/outpost/lichess/runner"
)

func cp(ply int, uci string, v int) runner.MoveNote {
	return runner.MoveNote{Ply: ply, UCI: uci, Score: score.CP(v), HasScore: true, Depth: 10}
}

func TestRecordsRender(t *testing.T) {
	ended := time.Date(2026, 11, 26, 3, 0, 0, 0, time.UTC)
	serverPGN := `[Event "Rated blitz game"]
[Site "https://lichess.org/abcdefgh"]
[White "outpost"]
[Black "Alice"]
[Result "1-0"]
[GameId "abcdefgh"]

1. e4 { [%clk 0:03:00] } 1... e5 { [%clk 0:02:59] } 2. Qh5 { [%clk 0:02:58] } 2... Nc6 { [%clk 0:02:57] } 3. Bc4 { [%clk 0:02:56] } 3... Nf6 { [%clk 0:02:50] } 4. Qxf7# { [%clk 0:02:55] } 1-0
`
	tests := []struct {
		name string
		g    Game
		want []string // substrings of the record
		not  []string
	}{
		{
			name: "standard, our evals, a book move and a mate",
			g: Game{ID: "abcdefgh", White: "outpost", Black: "Alice", Result: "1-0", Ended: ended, Engine: "hard",
				Moves: []string{"e2e4", "e7e5", "d1h5", "b8c6", "f1c4", "g8f6", "h5f7"},
				Notes: map[int]runner.MoveNote{
					0: {Ply: 0, UCI: "e2e4", Source: "book"},
					2: cp(2, "d1h5", 25),
					4: {Ply: 4, UCI: "f1c4", Score: score.Mate(2), HasScore: true},
					6: {Ply: 6, UCI: "h5f7", Score: score.Mate(1), HasScore: true},
				}},
			want: []string{`[White "outpost"]`, `[Date "2026.11.26"]`, `[GameId "abcdefgh"]`, `[Annotator "Outpost (hard)"]`,
				"1. e4 { book }", "2. Qh5 { [%eval 0.25] }", "3. Bc4 { [%eval #1] }", "4. Qxf7#", "1-0"},
			not: []string{"[%clk", "[%eval #0]"},
		},
		{
			name: "server export: its tags and clocks, our evals",
			g: Game{ID: "abcdefgh", ServerPGN: serverPGN, Result: "1-0", Ended: ended,
				Moves: []string{"e2e4", "e7e5", "d1h5", "b8c6", "f1c4", "g8f6", "h5f7"},
				Notes: map[int]runner.MoveNote{2: cp(2, "d1h5", -40)}},
			want: []string{`[Site "https://lichess.org/abcdefgh"]`, `[Event "Rated blitz game"]`,
				"2. Qh5 { [%eval -0.4] [%clk 0:02:58] }", "{ [%clk 0:02:59] }"},
		},
		{
			name: "black's eval is from White's point of view; a note for another move is dropped",
			g: Game{ID: "g2", White: "Alice", Black: "outpost", Result: "0-1", Ended: ended,
				Moves: []string{"e2e4", "e7e5", "g1f3"},
				Notes: map[int]runner.MoveNote{1: cp(1, "e7e5", 30), 2: cp(2, "d2d4", 99),
					3: {Ply: 3, UCI: "b8c6", Score: score.Mate(-3), HasScore: true}}},
			want: []string{"1. e4 e5 { [%eval -0.3] }", "2. Nf3 { Black wins. } 0-1"},
			not:  []string{"0.99"},
		},
		{
			name: "chess960 start: variant, FEN and SetUp tags, castling",
			g: Game{ID: "g960", White: "outpost", Black: "Bob", Result: "*", Variant: "chess960", Ended: ended,
				InitialFEN: "rknnbbqr/pppppppp/8/8/8/8/PPPPPPPP/RKNNBBQR w KQkq - 0 1",
				Moves:      []string{"c1b3", "a7a6", "d1e3", "a6a5", "b1a1"}},
			want: []string{`[Variant "Chess960"]`, `[FEN "rknnbbqr/pppppppp/8/8/8/8/PPPPPPPP/RKNNBBQR w KQkq - 0 1"]`, `[SetUp "1"]`, "3. O-O-O"},
		},
		{
			name: "from position with black to move",
			g: Game{ID: "gfp", White: "Bob", Black: "outpost", Result: "*", Variant: "fromPosition", Ended: ended,
				InitialFEN: "4k3/8/8/8/8/8/4P3/4K3 b - - 0 40", Moves: []string{"e8d7", "e2e4"},
				Notes: map[int]runner.MoveNote{0: cp(0, "e8d7", -500)}},
			want: []string{`[Variant "From Position"]`, "40... Kd7 { [%eval 5.0] }", "41. e4"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Render(tt.g)
			require.NoError(t, err)
			for _, w := range tt.want {
				assert.Contains(t, got, w)
			}
			for _, n := range tt.not {
				assert.NotContains(t, got, n)
			}
		})
	}
}

func TestRecordsRenderRejectsBadMoves(t *testing.T) {
	_, err := Render(Game{ID: "bad", Moves: []string{"e2e5"}})
	require.Error(t, err)
	assert.Contains(t, err.Error(), `move 1 "e2e5"`)
}

// memMarks is an in-memory Marks.
type memMarks struct {
	mu sync.Mutex
	m  map[string][]byte
}

func (m *memMarks) CacheGet(_ context.Context, kind, key string) ([]byte, bool, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	v, ok := m.m[kind+"/"+key]
	return v, ok, nil
}

func (m *memMarks) CachePut(_ context.Context, kind, key string, v []byte) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.m == nil {
		m.m = map[string][]byte{}
	}
	m.m[kind+"/"+key] = v
	return nil
}

func TestRecordsWrittenExactlyOnce(t *testing.T) {
	ctx := context.Background()
	day := time.Date(2026, 11, 26, 23, 59, 0, 0, time.UTC)
	game := func(id string) Game {
		return Game{ID: id, White: "a", Black: "b", Result: "1-0", Ended: day, Moves: []string{"e2e4", "e7e5"}}
	}
	for _, per := range []string{PerGame, PerDay} {
		t.Run(per, func(t *testing.T) {
			dir := t.TempDir()
			w, err := NewWriter(dir, per, &memMarks{})
			require.NoError(t, err)
			p1, err := w.Write(ctx, game("g1"))
			require.NoError(t, err)
			require.NotEmpty(t, p1)
			again, err := w.Write(ctx, game("g1"))
			require.NoError(t, err)
			assert.Empty(t, again, "a second write of the same game does nothing")
			_, err = w.Write(ctx, game("g2"))
			require.NoError(t, err)
			// A restart that lost the marker (a crash between the file and
			// the marker) finds the game in its file.
			w2, err := NewWriter(dir, per, &memMarks{})
			require.NoError(t, err)
			_, err = w2.Write(ctx, game("g1"))
			require.NoError(t, err)
			var all string
			files, _ := filepath.Glob(filepath.Join(dir, "*"))
			for _, f := range files {
				b, err := os.ReadFile(f)
				require.NoError(t, err)
				all += string(b)
			}
			assert.Equal(t, 1, strings.Count(all, `[GameId "g1"]`))
			assert.Equal(t, 1, strings.Count(all, `[GameId "g2"]`))
			if per == PerDay {
				assert.Equal(t, []string{filepath.Join(dir, "2026-11-26.pgn")}, files)
			} else {
				assert.Len(t, files, 2)
			}
		})
	}
}

func TestRecordsWriterRejectsBadSettings(t *testing.T) {
	_, err := NewWriter("", PerGame, &memMarks{})
	assert.ErrorContains(t, err, "no directory")
	_, err = NewWriter("x", "week", &memMarks{})
	assert.ErrorContains(t, err, `per "week"`)
}
