package store

import (
	"context"
	"fmt"
	"time"

	"github.com/outpostchess/outpost/internal/comparerun"
)

// RunState is the state of a comparison run (the comparerun package's).
type RunState = comparerun.RunState

// The comparison run states.
const (
	RunRunning  = comparerun.RunRunning
	RunFinished = comparerun.RunFinished
	RunFailed   = comparerun.RunFailed
)

// CompareRun is one comparison of our classifications with Lichess's over a
// user's games. Store implements comparerun.RunStore.
type CompareRun = comparerun.StoredRun

var _ comparerun.RunStore = (*Store)(nil)

// StartRun creates a running comparison run and returns its id.
func (s *Store) StartRun(ctx context.Context, user, params string) (int64, error) {
	res, err := s.db.ExecContext(ctx, `INSERT INTO compare_runs (user, params, state, started_at) VALUES (?, ?, ?, ?)`,
		user, params, RunRunning, unixMs(time.Now()))
	if err != nil {
		return 0, fmt.Errorf("store: start run for %s: %w", user, err)
	}
	return res.LastInsertId()
}

// SaveRunGame stores one game's comparison result within a run; saving the
// same game again replaces it.
func (s *Store) SaveRunGame(ctx context.Context, runID int64, gameID, result string) error {
	_, err := s.db.ExecContext(ctx, `INSERT OR REPLACE INTO compare_games (run_id, game_id, result) VALUES (?, ?, ?)`,
		runID, gameID, result)
	if err != nil {
		return fmt.Errorf("store: save game %s of run %d: %w", gameID, runID, err)
	}
	return nil
}

// RunGames returns the per-game results stored for a run, keyed by game id.
func (s *Store) RunGames(ctx context.Context, runID int64) (map[string]string, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT game_id, result FROM compare_games WHERE run_id = ?`, runID)
	if err != nil {
		return nil, fmt.Errorf("store: games of run %d: %w", runID, err)
	}
	defer rows.Close()
	out := map[string]string{}
	for rows.Next() {
		var id, res string
		if err := rows.Scan(&id, &res); err != nil {
			return nil, fmt.Errorf("store: games of run %d: %w", runID, err)
		}
		out[id] = res
	}
	return out, rows.Err()
}

// FinishRun closes a run with its state and aggregated report.
func (s *Store) FinishRun(ctx context.Context, runID int64, state RunState, report string) error {
	_, err := s.db.ExecContext(ctx, `UPDATE compare_runs SET state = ?, report = ?, finished_at = ? WHERE id = ?`,
		state, report, unixMs(time.Now()), runID)
	if err != nil {
		return fmt.Errorf("store: finish run %d: %w", runID, err)
	}
	return nil
}

// Runs returns a user's runs (all users when user is empty), newest first.
func (s *Store) Runs(ctx context.Context, user string, limit int) ([]CompareRun, error) {
	q := `SELECT id, user, params, state, report, started_at, finished_at FROM compare_runs`
	var args []any
	if user != "" {
		q += ` WHERE lower(user) = lower(?)`
		args = append(args, user)
	}
	q += ` ORDER BY id DESC LIMIT ?`
	args = append(args, limit)
	return queryAll(ctx, s.db, "runs", scanRun, q, args...)
}

// scanRun reads the columns id, user, params, state, report, started_at,
// finished_at.
func scanRun(r scanner) (CompareRun, error) {
	var c CompareRun
	var st, fin int64
	if err := r.Scan(&c.ID, &c.User, &c.Params, &c.State, &c.Report, &st, &fin); err != nil {
		return CompareRun{}, err
	}
	c.StartedAt, c.FinishedAt = fromMs(st), fromMs(fin)
	return c, nil
}
