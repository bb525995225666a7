package daemon

import (
	"fmt"
	"strings"

	"github.com/outpostchess/outpost/analysis"
	"github.com/outpostchess/outpost/analysis/replay"
	"github.com/outpostchess/outpost/lichess"
)

// exportedMoves returns the moves of a game exported in JSON as UCI, the
// form the store keeps (the game stream's, which the runner journals, the
// post-game analysis and the records replay). The export writes them in
// SAN (lila's GameApiV2.toJson writes `moves` from the game's sans), so
// they are replayed from the game's start position: Chess960 castling
// comes out as the king taking its rook, as in the game stream.
func exportedMoves(g *lichess.Game) ([]string, error) {
	sans := strings.Fields(g.Moves)
	b, err := replay.NewVariant(g.InitialFEN, analysis.IsChess960(g.Variant.Key))
	if err != nil {
		return nil, fmt.Errorf("game %s: start position: %w", g.ID, err)
	}
	ucis := make([]string, 0, len(sans))
	for i, san := range sans {
		m, err := b.ParseSAN(san)
		if err != nil {
			return nil, fmt.Errorf("game %s: exported move %d %q: %w", g.ID, i+1, san, err)
		}
		ucis = append(ucis, m.UCI)
		b = b.Play(m)
	}
	return ucis, nil
}
