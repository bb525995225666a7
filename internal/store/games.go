package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"
)

// Game is one game the daemon played or is playing.
type Game struct {
	ID             string
	Opponent       string
	OpponentRating int
	OpponentBot    bool
	Color          string // "white" or "black"
	Engine         string // the engine chosen for this game
	Speed          string
	Variant        string
	Rated          bool
	InitialFEN     string
	Moves          string // all moves so far, UCI, space-separated
	Status         string // Lichess status name; "started" while in progress
	Winner         string // "white", "black" or "" (draw / unfinished)
	PGN            string
	StartedAt      time.Time
	UpdatedAt      time.Time
	FinishedAt     time.Time
}

// StatusGone is the status of a game the server no longer knows (its
// export answers 404): closed once, never retried, never analysed.
const StatusGone = "gone"

// Finished reports whether the game is over.
func (g Game) Finished() bool { return !g.FinishedAt.IsZero() }

const gameColumns = `id, opponent, opponent_rating, opponent_bot, color, engine, speed, variant, rated,
	initial_fen, moves, status, winner, pgn, started_at, updated_at, finished_at`

// StartGame records a game that started, or refreshes its descriptive fields
// if it is already known (a restart replays gameStart). It never clears moves,
// results, the start time, nor the speed, variant and start position of a
// known game (a restart's gameStart carries the current position, not the
// initial one, so the daemon records none then).
func (s *Store) StartGame(ctx context.Context, g Game) error {
	if err := s.archiveFinished(ctx, g.ID); err != nil {
		return err
	}
	now := time.Now()
	if g.StartedAt.IsZero() {
		g.StartedAt = now
	}
	_, err := s.db.ExecContext(ctx, `INSERT INTO games (id, opponent, opponent_rating, opponent_bot, color, engine,
		speed, variant, rated, initial_fen, moves, status, started_at, updated_at)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 'started', ?, ?)
		ON CONFLICT(id) DO UPDATE SET opponent = excluded.opponent, opponent_rating = excluded.opponent_rating,
			opponent_bot = excluded.opponent_bot, color = excluded.color,
			engine = CASE WHEN games.engine = '' THEN excluded.engine ELSE games.engine END,
			speed = CASE WHEN excluded.speed = '' THEN games.speed ELSE excluded.speed END,
			variant = CASE WHEN excluded.variant = '' THEN games.variant ELSE excluded.variant END,
			rated = excluded.rated,
			initial_fen = CASE WHEN excluded.initial_fen = '' THEN games.initial_fen ELSE excluded.initial_fen END,
			updated_at = excluded.updated_at`,
		g.ID, g.Opponent, g.OpponentRating, g.OpponentBot, g.Color, g.Engine, g.Speed, g.Variant, g.Rated,
		g.InitialFEN, g.Moves, unixMs(g.StartedAt), unixMs(now))
	if err != nil {
		return fmt.Errorf("store: start game %s: %w", g.ID, err)
	}
	return nil
}

// SetInitialFEN records a game's start position when the record has none
// yet (a game resumed after a restart, whose start was not recorded): the
// position a record already holds is never replaced.
func (s *Store) SetInitialFEN(ctx context.Context, id, fen string) error {
	if fen == "" {
		return nil
	}
	_, err := s.db.ExecContext(ctx, `UPDATE games SET initial_fen = ? WHERE id = ? AND initial_fen = ''`, fen, id)
	if err != nil {
		return fmt.Errorf("store: set the initial position of %s: %w", id, err)
	}
	return nil
}

// UpdateMoves stores the moves of a game in progress.
func (s *Store) UpdateMoves(ctx context.Context, id, moves string) error {
	_, err := s.db.ExecContext(ctx, `UPDATE games SET moves = ?, updated_at = ? WHERE id = ?`, moves, unixMs(time.Now()), id)
	if err != nil {
		return fmt.Errorf("store: update moves of %s: %w", id, err)
	}
	return nil
}

// FinishGame records a game's end. It is idempotent: a second call for a
// finished game changes nothing and reports false.
func (s *Store) FinishGame(ctx context.Context, id, status, winner, moves, pgn string) (bool, error) {
	now := unixMs(time.Now())
	res, err := s.db.ExecContext(ctx, `UPDATE games SET status = ?, winner = ?, moves = ?, pgn = ?, updated_at = ?,
		finished_at = ? WHERE id = ? AND finished_at = 0`, status, winner, moves, pgn, now, now, id)
	if err != nil {
		return false, fmt.Errorf("store: finish game %s: %w", id, err)
	}
	n, err := res.RowsAffected()
	if err != nil {
		return false, fmt.Errorf("store: finish game %s: %w", id, err)
	}
	return n == 1, nil
}

// SetPGN replaces a game's stored PGN (after the server's export is fetched).
func (s *Store) SetPGN(ctx context.Context, id, pgn string) error {
	if _, err := s.db.ExecContext(ctx, `UPDATE games SET pgn = ? WHERE id = ?`, pgn, id); err != nil {
		return fmt.Errorf("store: set pgn of %s: %w", id, err)
	}
	return nil
}

// Game returns one game, or ErrNotFound.
func (s *Store) Game(ctx context.Context, id string) (Game, error) {
	row := s.db.QueryRowContext(ctx, `SELECT `+gameColumns+` FROM games WHERE id = ?`, id)
	g, err := scanGame(row)
	if errors.Is(err, sql.ErrNoRows) {
		return Game{}, fmt.Errorf("store: game %s: %w", id, ErrNotFound)
	}
	if err != nil {
		return Game{}, fmt.Errorf("store: game %s: %w", id, err)
	}
	return g, nil
}

// ActiveGames returns the games not yet finished, oldest first.
func (s *Store) ActiveGames(ctx context.Context) ([]Game, error) {
	return s.queryGames(ctx, `SELECT `+gameColumns+` FROM games WHERE finished_at = 0 ORDER BY started_at`)
}

// RecentGames returns up to limit games, most recently started first.
func (s *Store) RecentGames(ctx context.Context, limit int) ([]Game, error) {
	return s.queryGames(ctx, `SELECT `+gameColumns+` FROM games ORDER BY started_at DESC LIMIT ?`, limit)
}

// CountGamesSince counts games started at or after t, against bots only when
// botsOnly is set, and against one opponent when opponent is not empty.
func (s *Store) CountGamesSince(ctx context.Context, t time.Time, botsOnly bool, opponent string) (int, error) {
	q := `SELECT COUNT(*) FROM games WHERE started_at >= ?`
	args := []any{unixMs(t)}
	if botsOnly {
		q += ` AND opponent_bot = 1`
	}
	if opponent != "" {
		q += ` AND lower(opponent) = lower(?)`
		args = append(args, opponent)
	}
	var n int
	if err := s.db.QueryRowContext(ctx, q, args...).Scan(&n); err != nil {
		return 0, fmt.Errorf("store: count games: %w", err)
	}
	return n, nil
}

// FirstGameSince returns when the first game started at or after t began
// (against bots only when botsOnly), or the zero time when there was none.
func (s *Store) FirstGameSince(ctx context.Context, t time.Time, botsOnly bool) (time.Time, error) {
	q := `SELECT COALESCE(MIN(started_at), 0) FROM games WHERE started_at >= ?`
	if botsOnly {
		q += ` AND opponent_bot = 1`
	}
	var ms int64
	if err := s.db.QueryRowContext(ctx, q, unixMs(t)).Scan(&ms); err != nil {
		return time.Time{}, fmt.Errorf("store: first game since %s: %w", t.Format(time.RFC3339), err)
	}
	if ms == 0 {
		return time.Time{}, nil
	}
	return fromMs(ms), nil
}

// LastGameWith returns when the latest game against opponent started, or
// the zero time when there was none.
func (s *Store) LastGameWith(ctx context.Context, opponent string) (time.Time, error) {
	var ms int64
	err := s.db.QueryRowContext(ctx, `SELECT COALESCE(MAX(started_at), 0) FROM games WHERE lower(opponent) = lower(?)`,
		opponent).Scan(&ms)
	if err != nil {
		return time.Time{}, fmt.Errorf("store: last game with %s: %w", opponent, err)
	}
	if ms == 0 {
		return time.Time{}, nil
	}
	return fromMs(ms), nil
}

func (s *Store) queryGames(ctx context.Context, q string, args ...any) ([]Game, error) {
	return queryAll(ctx, s.db, "list games", scanGame, q, args...)
}

func scanGame(r scanner) (Game, error) {
	var g Game
	var started, updated, finished int64
	err := r.Scan(&g.ID, &g.Opponent, &g.OpponentRating, &g.OpponentBot, &g.Color, &g.Engine, &g.Speed, &g.Variant,
		&g.Rated, &g.InitialFEN, &g.Moves, &g.Status, &g.Winner, &g.PGN, &started, &updated, &finished)
	g.StartedAt, g.UpdatedAt, g.FinishedAt = fromMs(started), fromMs(updated), fromMs(finished)
	return g, err
}

// archiveFinished moves a finished game recorded under id (and its
// analysis, sent moves and chat flags) to the id "ID~FINISHED_AT_MS", so
// that a server reusing the id for a new game (a sandbox restarted with the
// same seed, say) neither overwrites the finished game nor inherits its
// one-time flags: the new game gets its own record, moves and chat.
func (s *Store) archiveFinished(ctx context.Context, id string) error {
	var finished int64
	err := s.db.QueryRowContext(ctx, `SELECT finished_at FROM games WHERE id = ?`, id).Scan(&finished)
	if errors.Is(err, sql.ErrNoRows) || (err == nil && finished == 0) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("store: start game %s: %w", id, err)
	}
	archived := fmt.Sprintf("%s~%d", id, finished)
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("store: archive game %s: %w", id, err)
	}
	defer tx.Rollback()
	for _, q := range []string{
		`UPDATE games SET id = ? WHERE id = ?`,
		`UPDATE analyses SET game_id = ? WHERE game_id = ?`,
		`UPDATE sent_moves SET game_id = ? WHERE game_id = ?`,
	} {
		if _, err := tx.ExecContext(ctx, q, archived, id); err != nil {
			return fmt.Errorf("store: archive game %s: %w", id, err)
		}
	}
	// one-time chat flags are keyed "ID:…"
	if _, err := tx.ExecContext(ctx, `UPDATE cache SET key = ? || substr(key, ?) WHERE kind IN ('chat-line', 'chat-sent') AND substr(key, 1, ?) = ?`,
		archived, len(id)+1, len(id)+1, id+":"); err != nil {
		return fmt.Errorf("store: archive game %s: %w", id, err)
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("store: archive game %s: %w", id, err)
	}
	return nil
}
