package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"
)

// AnalysisState is where a finished game's post-game analysis stands.
type AnalysisState string

// The analysis states, in the order a game goes through them.
const (
	AnalysisPending AnalysisState = "pending" // queued, not analysed yet
	AnalysisDone    AnalysisState = "done"    // analysed; summary not posted
	AnalysisPosting AnalysisState = "posting" // a post of the summary was started
	AnalysisPosted  AnalysisState = "posted"  // the summary is in the chat
	AnalysisFailed  AnalysisState = "failed"  // analysis gave up; Error says why
	// AnalysisPostFailed: the server refused the summary for good (the game
	// is gone, say); Error says why. It is not retried.
	AnalysisPostFailed AnalysisState = "post-failed"
)

// Analysis is the post-game analysis record of one game.
type Analysis struct {
	GameID    string
	State     AnalysisState
	Result    string // the analysis, JSON
	Summary   string // the chat lines, newline-separated
	Error     string
	UpdatedAt time.Time
}

// EnqueueAnalysis queues a finished game for analysis; a game already known
// keeps its state, so that a replayed gameFinish never analyses or posts twice.
func (s *Store) EnqueueAnalysis(ctx context.Context, gameID string) error {
	_, err := s.db.ExecContext(ctx, `INSERT OR IGNORE INTO analyses (game_id, state, updated_at) VALUES (?, ?, ?)`,
		gameID, AnalysisPending, unixMs(time.Now()))
	if err != nil {
		return fmt.Errorf("store: enqueue analysis of %s: %w", gameID, err)
	}
	return nil
}

// SaveAnalysis stores a finished analysis and its summary (state done).
func (s *Store) SaveAnalysis(ctx context.Context, gameID, result, summary string) error {
	_, err := s.db.ExecContext(ctx, `UPDATE analyses SET state = ?, result = ?, summary = ?, error = '', updated_at = ?
		WHERE game_id = ? AND state IN (?, ?)`, AnalysisDone, result, summary, unixMs(time.Now()), gameID,
		AnalysisPending, AnalysisFailed)
	if err != nil {
		return fmt.Errorf("store: save analysis of %s: %w", gameID, err)
	}
	return nil
}

// FailAnalysis records why a game's analysis gave up.
func (s *Store) FailAnalysis(ctx context.Context, gameID, reason string) error {
	return s.fail(ctx, gameID, AnalysisPending, AnalysisFailed, reason)
}

// BeginPost moves a game's analysis from done to posting and reports whether
// this caller won the right to post. A caller that gets false must not post.
func (s *Store) BeginPost(ctx context.Context, gameID string) (bool, error) {
	return s.transition(ctx, gameID, AnalysisDone, AnalysisPosting)
}

// FinishPost marks a summary as posted.
func (s *Store) FinishPost(ctx context.Context, gameID string) error {
	if _, err := s.transition(ctx, gameID, AnalysisPosting, AnalysisPosted); err != nil {
		return err
	}
	return nil
}

// FailPost records that a summary cannot be posted (the server refused a
// line for good) and why; it is never marked posted.
func (s *Store) FailPost(ctx context.Context, gameID, reason string) error {
	return s.fail(ctx, gameID, AnalysisPosting, AnalysisPostFailed, reason)
}

// fail moves a game's analysis from state from to the failed state to,
// recording why.
func (s *Store) fail(ctx context.Context, gameID string, from, to AnalysisState, reason string) error {
	_, err := s.db.ExecContext(ctx, `UPDATE analyses SET state = ?, error = ?, updated_at = ? WHERE game_id = ? AND state = ?`,
		to, reason, unixMs(time.Now()), gameID, from)
	if err != nil {
		return fmt.Errorf("store: analysis of %s %s→%s: %w", gameID, from, to, err)
	}
	return nil
}

// AbandonPost returns a posting that is known not to have reached the chat to
// done, so that it is retried.
func (s *Store) AbandonPost(ctx context.Context, gameID string) error {
	if _, err := s.transition(ctx, gameID, AnalysisPosting, AnalysisDone); err != nil {
		return err
	}
	return nil
}

func (s *Store) transition(ctx context.Context, gameID string, from, to AnalysisState) (bool, error) {
	res, err := s.db.ExecContext(ctx, `UPDATE analyses SET state = ?, updated_at = ? WHERE game_id = ? AND state = ?`,
		to, unixMs(time.Now()), gameID, from)
	if err != nil {
		return false, fmt.Errorf("store: analysis of %s %s→%s: %w", gameID, from, to, err)
	}
	n, err := res.RowsAffected()
	if err != nil {
		return false, fmt.Errorf("store: analysis of %s %s→%s: %w", gameID, from, to, err)
	}
	return n == 1, nil
}

// AnalysisOf returns a game's analysis record, or ErrNotFound.
func (s *Store) AnalysisOf(ctx context.Context, gameID string) (Analysis, error) {
	a, err := scanAnalysis(s.db.QueryRowContext(ctx, `SELECT `+analysisColumns+` FROM analyses WHERE game_id = ?`, gameID))
	if errors.Is(err, sql.ErrNoRows) {
		return Analysis{}, fmt.Errorf("store: analysis of %s: %w", gameID, ErrNotFound)
	}
	if err != nil {
		return Analysis{}, fmt.Errorf("store: analysis of %s: %w", gameID, err)
	}
	return a, nil
}

// analysisColumns are the columns scanAnalysis reads, in its order.
const analysisColumns = `game_id, state, result, summary, error, updated_at`

func scanAnalysis(r scanner) (Analysis, error) {
	var a Analysis
	var at int64
	if err := r.Scan(&a.GameID, &a.State, &a.Result, &a.Summary, &a.Error, &at); err != nil {
		return Analysis{}, err
	}
	a.UpdatedAt = fromMs(at)
	return a, nil
}

// AnalysesIn returns the analyses in any of the given states, oldest first.
func (s *Store) AnalysesIn(ctx context.Context, states ...AnalysisState) ([]Analysis, error) {
	if len(states) == 0 {
		return nil, nil
	}
	q := `SELECT ` + analysisColumns + ` FROM analyses WHERE state IN (?`
	args := []any{states[0]}
	for _, st := range states[1:] {
		q += `, ?`
		args = append(args, st)
	}
	q += `) ORDER BY updated_at`
	return queryAll(ctx, s.db, "list analyses", scanAnalysis, q, args...)
}
