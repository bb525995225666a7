package runner

import (
	"context"
	"encoding/json"
	"strconv"

	"github.com/outpostchess/outpost/bots/score"
)

// NoteKind is the Journal cache kind under which the runner keeps a
// MoveNote per move it played, so that a game record (PGN with our
// evaluations) can be written after a restart too.
const NoteKind = "move-note"

// NoteKey is the Journal cache key of the note of the move at ply (0-based)
// of a game.
func NoteKey(gameID string, ply int) string { return gameID + "/" + strconv.Itoa(ply) }

// MoveNote is what the runner knows about one of its moves beyond the move:
// the engine's evaluation and where the move came from.
type MoveNote struct {
	// Ply is the move's 0-based index in the game.
	Ply int `json:"ply"`
	// UCI is the move played.
	UCI string `json:"uci"`
	// Score is the engine's evaluation from our point of view, in the
	// position before the move, when HasScore.
	Score    score.Score `json:"score"`
	HasScore bool        `json:"has_score,omitempty"`
	// Depth is the search depth, when known.
	Depth int `json:"depth,omitempty"`
	// Source is where the move came from when not from the engine's search
	// ("book", "syzygy", …; see engine.Move.Source); "fallback" when the
	// runner had to choose the move itself.
	Source string `json:"source,omitempty"`
}

// note records the note of the move just sent, in the outcome and the
// journal. A journal failure costs only the record's comment.
func (r *Runner) note(ctx context.Context, n MoveNote) {
	r.out.Notes = append(r.out.Notes, n)
	b, err := json.Marshal(n)
	if err != nil {
		return
	}
	if err := r.journal.CachePut(ctx, NoteKind, NoteKey(r.cfg.GameID, n.Ply), b); err != nil && ctx.Err() == nil {
		r.log.Warn().Err(err).Int("ply", n.Ply).Msg("journal: move note")
	}
}

// LoadNotes reads the notes of a game's plies 0..plies-1 from a journal,
// skipping plies without one (the opponent's moves).
func LoadNotes(ctx context.Context, j Journal, gameID string, plies int) (map[int]MoveNote, error) {
	out := map[int]MoveNote{}
	for p := 0; p < plies; p++ {
		b, ok, err := j.CacheGet(ctx, NoteKind, NoteKey(gameID, p))
		if err != nil {
			return out, err
		}
		if !ok {
			continue
		}
		var n MoveNote
		if err := json.Unmarshal(b, &n); err == nil {
			out[p] = n
		}
	}
	return out, nil
}
