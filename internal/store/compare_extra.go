package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
)

// Run returns one comparison run by id (ErrNotFound when there is none).
func (s *Store) Run(ctx context.Context, runID int64) (CompareRun, error) {
	var r CompareRun
	var st, fin int64
	err := s.db.QueryRowContext(ctx, `SELECT id, user, params, state, report, started_at, finished_at FROM compare_runs WHERE id = ?`, runID).
		Scan(&r.ID, &r.User, &r.Params, &r.State, &r.Report, &st, &fin)
	if errors.Is(err, sql.ErrNoRows) {
		return CompareRun{}, fmt.Errorf("store: run %d: %w", runID, ErrNotFound)
	}
	if err != nil {
		return CompareRun{}, fmt.Errorf("store: run %d: %w", runID, err)
	}
	r.StartedAt, r.FinishedAt = fromMs(st), fromMs(fin)
	return r, nil
}

// ReopenRun puts a failed (or finished) run back into the running state so
// that it can be resumed; its stored games and start time are kept, its
// report and finish time are cleared. An unknown id gives ErrNotFound.
func (s *Store) ReopenRun(ctx context.Context, runID int64) error {
	res, err := s.db.ExecContext(ctx, `UPDATE compare_runs SET state = ?, report = '', finished_at = 0 WHERE id = ?`, RunRunning, runID)
	if err != nil {
		return fmt.Errorf("store: reopen run %d: %w", runID, err)
	}
	n, err := res.RowsAffected()
	if err != nil {
		return fmt.Errorf("store: reopen run %d: %w", runID, err)
	}
	if n == 0 {
		return fmt.Errorf("store: reopen run %d: %w", runID, ErrNotFound)
	}
	return nil
}
