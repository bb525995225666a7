package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"github.com/outpostchess/outpost/lichess/runner"
)

// SentMove is a move the daemon sent (or was about to send) in a game. The
// runner owns the type; the store persists it (Store implements
// runner.Journal).
type SentMove = runner.SentMove

var _ runner.Journal = (*Store)(nil)

// ReserveMove records, before the request goes out, that the daemon is
// sending uci at ply in a game. It reports false (and the move stored
// earlier) when a move was already reserved at that ply: the caller must not
// send another one but check the game state instead. This is what keeps a
// restarted or reconnected daemon from moving twice.
func (s *Store) ReserveMove(ctx context.Context, m SentMove) (bool, SentMove, error) {
	if m.SentAt.IsZero() {
		m.SentAt = time.Now()
	}
	res, err := s.db.ExecContext(ctx, `INSERT OR IGNORE INTO sent_moves (game_id, ply, uci, wtime_ms, btime_ms, sent_at)
		VALUES (?, ?, ?, ?, ?, ?)`, m.GameID, m.Ply, m.UCI, m.WTime.Milliseconds(), m.BTime.Milliseconds(), unixMs(m.SentAt))
	if err != nil {
		return false, SentMove{}, fmt.Errorf("store: reserve move %s ply %d: %w", m.GameID, m.Ply, err)
	}
	if n, _ := res.RowsAffected(); n == 1 {
		return true, m, nil
	}
	prev, err := s.SentMoveAt(ctx, m.GameID, m.Ply)
	if err != nil {
		return false, SentMove{}, err
	}
	return false, prev, nil
}

// ReleaseMove forgets a reservation whose request the server definitely
// rejected (for example "Not your turn"), so that a new move can be chosen.
func (s *Store) ReleaseMove(ctx context.Context, gameID string, ply int) error {
	if _, err := s.db.ExecContext(ctx, `DELETE FROM sent_moves WHERE game_id = ? AND ply = ?`, gameID, ply); err != nil {
		return fmt.Errorf("store: release move %s ply %d: %w", gameID, ply, err)
	}
	return nil
}

// SentMoveAt returns the move reserved at ply, or ErrNotFound.
func (s *Store) SentMoveAt(ctx context.Context, gameID string, ply int) (SentMove, error) {
	m, err := scanSentMove(s.db.QueryRowContext(ctx, `SELECT `+sentMoveColumns+` FROM sent_moves
		WHERE game_id = ? AND ply = ?`, gameID, ply))
	if errors.Is(err, sql.ErrNoRows) {
		return SentMove{}, fmt.Errorf("store: move %s ply %d: %w", gameID, ply, ErrNotFound)
	}
	if err != nil {
		return SentMove{}, fmt.Errorf("store: move %s ply %d: %w", gameID, ply, err)
	}
	return m, nil
}

// SentMoves returns every move reserved in a game, by ply.
func (s *Store) SentMoves(ctx context.Context, gameID string) ([]SentMove, error) {
	return queryAll(ctx, s.db, "moves of "+gameID, scanSentMove, `SELECT `+sentMoveColumns+` FROM sent_moves
		WHERE game_id = ? ORDER BY ply`, gameID)
}

// sentMoveColumns are the columns scanSentMove reads, in its order.
const sentMoveColumns = `game_id, ply, uci, wtime_ms, btime_ms, sent_at`

func scanSentMove(r scanner) (SentMove, error) {
	var m SentMove
	var w, b, at int64
	if err := r.Scan(&m.GameID, &m.Ply, &m.UCI, &w, &b, &at); err != nil {
		return SentMove{}, err
	}
	m.WTime, m.BTime, m.SentAt = time.Duration(w)*time.Millisecond, time.Duration(b)*time.Millisecond, fromMs(at)
	return m, nil
}
