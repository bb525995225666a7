package comparerun

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/outpostchess/outpost/analysis"
	"github.com/outpostchess/outpost/analysis/input"
	"github.com/outpostchess/outpost/analysis/replay"
	"github.com/outpostchess/outpost/lichess"
)

// TestConvertGameAsItsJSON: a game the client fetched converts, field by
// field, to the same analysis game as its JSON export decodes to (the
// conversion no longer goes through JSON), Lichess's analysis and stated
// figures included; read on the boards of the same moves it is the same
// again and not replayed.
func TestConvertGameAsItsJSON(t *testing.T) {
	files, err := filepath.Glob(filepath.Join(sharedDir(t), "json", "*.json"))
	require.NoError(t, err)
	require.NotEmpty(t, files)
	for _, f := range files {
		t.Run(filepath.Base(f), func(t *testing.T) {
			raw, err := os.ReadFile(f)
			require.NoError(t, err)
			want, err := input.DecodeJSONGame(raw, "src", 3)
			require.NoError(t, err)
			require.NotNil(t, want.Lichess, "a Lichess-analysed game")
			var lg lichess.Game
			require.NoError(t, json.Unmarshal(raw, &lg))

			var replayed, onBoards analysis.Counts
			got, err := ConvertGame(analysis.WithCounts(context.Background(), &replayed), &lg, "src", 3, nil)
			require.NoError(t, err)
			assert.Equal(t, want, got)
			assert.Equal(t, int64(1), replayed.Replays.Load(), "without boards: the export's moves replayed")

			boards := boardsOf(t, want)
			got, err = ConvertGame(analysis.WithCounts(context.Background(), &onBoards), &lg, "src", 3, boards)
			require.NoError(t, err)
			assert.Equal(t, want, got)
			assert.Equal(t, int64(0), onBoards.Replays.Load(), "on the boards of the same moves: no replay")

			_, err = ConvertGame(context.Background(), &lg, "src", 3, boards[:len(boards)-1])
			require.NoError(t, err, "boards that do not fit are not used")
		})
	}
}

// boardsOf replays g's moves: the position before each and after the last.
func boardsOf(t *testing.T, g *analysis.Game) []*replay.Board {
	t.Helper()
	b, err := replay.NewVariant(g.StartFEN, g.Chess960())
	require.NoError(t, err)
	boards := []*replay.Board{b}
	for _, m := range g.Moves {
		mv, err := b.ParseUCI(m.UCI)
		require.NoError(t, err)
		b = b.Play(mv)
		boards = append(boards, b)
	}
	return boards
}
