package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"
)

// verificationsSchema is the table of the post-game checks against
// Lichess's own evaluations (internal/verify): one row per game.
const verificationsSchema = `CREATE TABLE verifications (
		game_id TEXT PRIMARY KEY,
		state TEXT NOT NULL,
		cloud_done INTEGER NOT NULL DEFAULT 0,
		cloud_checked INTEGER NOT NULL DEFAULT 0,
		cloud_agree INTEGER NOT NULL DEFAULT 0,
		cloud_missing INTEGER NOT NULL DEFAULT 0,
		cloud_result TEXT NOT NULL DEFAULT '',
		judgements INTEGER NOT NULL DEFAULT 0,
		agree INTEGER NOT NULL DEFAULT 0,
		lichess_result TEXT NOT NULL DEFAULT '',
		attempts INTEGER NOT NULL DEFAULT 0,
		finished_at INTEGER NOT NULL,
		next_at INTEGER NOT NULL,
		error TEXT NOT NULL DEFAULT '',
		updated_at INTEGER NOT NULL
	)`

// VerifyState is where a game's check against Lichess's server analysis
// stands.
type VerifyState string

// The verification states.
const (
	VerifyWaiting VerifyState = "waiting" // polling the export for Lichess's analysis
	VerifyDone    VerifyState = "done"    // Lichess's analysis found and compared
	VerifyExpired VerifyState = "expired" // no analysis appeared within the poll window
	VerifyFailed  VerifyState = "failed"  // cannot be verified; Error says why
)

// Verification is the record of one game's checks against Lichess: the
// cloud evaluations of its critical positions and the comparison with
// Lichess's server analysis.
type Verification struct {
	GameID string
	State  VerifyState
	// CloudDone is set once the critical positions were looked up in the
	// cloud; CloudChecked of them were judged from cloud evals (the others,
	// CloudMissing, were not in the cloud) and CloudAgree agreed with ours.
	CloudDone                              bool
	CloudChecked, CloudAgree, CloudMissing int
	CloudResult                            string // per position, JSON
	// Judgements counts the plies either analysis flagged, Agree those
	// both judged alike (state done).
	Judgements, Agree int
	LichessResult     string // the comparison, JSON
	Attempts          int    // rounds made so far (export polls, failed cloud checks)
	FinishedAt        time.Time
	NextAt            time.Time
	Error             string
	UpdatedAt         time.Time
}

const verificationColumns = `game_id, state, cloud_done, cloud_checked, cloud_agree, cloud_missing, cloud_result,
	judgements, agree, lichess_result, attempts, finished_at, next_at, error, updated_at`

func scanVerification(r scanner) (Verification, error) {
	var v Verification
	var fin, next, upd int64
	err := r.Scan(&v.GameID, &v.State, &v.CloudDone, &v.CloudChecked, &v.CloudAgree, &v.CloudMissing, &v.CloudResult,
		&v.Judgements, &v.Agree, &v.LichessResult, &v.Attempts, &fin, &next, &v.Error, &upd)
	v.FinishedAt, v.NextAt, v.UpdatedAt = fromMs(fin), fromMs(next), fromMs(upd)
	return v, err
}

// EnqueueVerification queues a game for verification, its first check at
// next; a game already queued keeps its record.
func (s *Store) EnqueueVerification(ctx context.Context, gameID string, finishedAt, next time.Time) error {
	_, err := s.db.ExecContext(ctx, `INSERT OR IGNORE INTO verifications (game_id, state, finished_at, next_at, updated_at)
		VALUES (?, ?, ?, ?, ?)`, gameID, VerifyWaiting, unixMs(finishedAt), unixMs(next), unixMs(time.Now()))
	if err != nil {
		return fmt.Errorf("store: enqueue verification of %s: %w", gameID, err)
	}
	return nil
}

// Verification returns a game's verification record, or ErrNotFound.
func (s *Store) Verification(ctx context.Context, gameID string) (Verification, error) {
	v, err := scanVerification(s.db.QueryRowContext(ctx, `SELECT `+verificationColumns+` FROM verifications
		WHERE game_id = ?`, gameID))
	if errors.Is(err, sql.ErrNoRows) {
		return Verification{}, fmt.Errorf("store: verification of %s: %w", gameID, ErrNotFound)
	}
	if err != nil {
		return Verification{}, fmt.Errorf("store: verification of %s: %w", gameID, err)
	}
	return v, nil
}

// DueVerifications returns the waiting verifications due at now, the
// earliest first, at most limit.
func (s *Store) DueVerifications(ctx context.Context, now time.Time, limit int) ([]Verification, error) {
	return s.queryVerifications(ctx, `SELECT `+verificationColumns+` FROM verifications
		WHERE state = ? AND next_at <= ? ORDER BY next_at LIMIT ?`, VerifyWaiting, unixMs(now), limit)
}

// RecentVerifications returns the verifications of the most recently
// finished games first, at most limit.
func (s *Store) RecentVerifications(ctx context.Context, limit int) ([]Verification, error) {
	return s.queryVerifications(ctx, `SELECT `+verificationColumns+` FROM verifications
		ORDER BY finished_at DESC, game_id LIMIT ?`, limit)
}

func (s *Store) queryVerifications(ctx context.Context, q string, args ...any) ([]Verification, error) {
	return queryAll(ctx, s.db, "list verifications", scanVerification, q, args...)
}

// NextVerificationAt returns when the earliest waiting verification is
// due; ok is false when none waits.
func (s *Store) NextVerificationAt(ctx context.Context) (at time.Time, ok bool, err error) {
	var ms sql.NullInt64
	if err := s.db.QueryRowContext(ctx, `SELECT MIN(next_at) FROM verifications WHERE state = ?`, VerifyWaiting).Scan(&ms); err != nil {
		return time.Time{}, false, fmt.Errorf("store: next verification: %w", err)
	}
	if !ms.Valid {
		return time.Time{}, false, nil
	}
	return time.UnixMilli(ms.Int64), true, nil
}

// SaveCloudCheck stores the outcome of a game's cloud-eval check.
func (s *Store) SaveCloudCheck(ctx context.Context, gameID string, checked, agree, missing int, result string) error {
	return s.updateVerification(ctx, gameID, "save cloud check", `cloud_done = 1, cloud_checked = ?, cloud_agree = ?,
		cloud_missing = ?, cloud_result = ?`, checked, agree, missing, result)
}

// SaveLichessCheck stores the comparison with Lichess's server analysis and
// ends the verification (state done).
func (s *Store) SaveLichessCheck(ctx context.Context, gameID string, judgements, agree int, result string) error {
	return s.updateVerification(ctx, gameID, "save comparison", `state = ?, judgements = ?, agree = ?, lichess_result = ?,
		error = ''`, VerifyDone, judgements, agree, result)
}

// RetryVerification counts one more export poll and schedules the next at
// next; note says why it was not the last ("" when Lichess simply has no
// analysis yet).
func (s *Store) RetryVerification(ctx context.Context, gameID string, attempts int, next time.Time, note string) error {
	return s.updateVerification(ctx, gameID, "schedule verification", `attempts = ?, next_at = ?, error = ?`,
		attempts, unixMs(next), note)
}

// EndVerification ends a waiting verification without a comparison: state
// expired (the poll window passed) or failed (reason says why).
func (s *Store) EndVerification(ctx context.Context, gameID string, state VerifyState, reason string) error {
	return s.updateVerification(ctx, gameID, "end verification", `state = ?, error = ?`, state, reason)
}

func (s *Store) updateVerification(ctx context.Context, gameID, what, set string, args ...any) error {
	args = append(args, unixMs(time.Now()), gameID)
	res, err := s.db.ExecContext(ctx, `UPDATE verifications SET `+set+`, updated_at = ? WHERE game_id = ?`, args...)
	if err != nil {
		return fmt.Errorf("store: %s of %s: %w", what, gameID, err)
	}
	if n, err := res.RowsAffected(); err == nil && n == 0 {
		return fmt.Errorf("store: %s of %s: %w", what, gameID, ErrNotFound)
	}
	return nil
}

// Unverified lists finished games whose post-game analysis is done (posted
// or not) but that have no verification record yet, oldest first.
func (s *Store) Unverified(ctx context.Context, limit int) ([]Game, error) {
	return s.queryGames(ctx, `SELECT `+gameColumns+` FROM games g
		WHERE g.finished_at > 0
		AND EXISTS (SELECT 1 FROM analyses a WHERE a.game_id = g.id AND a.state IN (?, ?, ?))
		AND NOT EXISTS (SELECT 1 FROM verifications v WHERE v.game_id = g.id)
		ORDER BY g.finished_at LIMIT ?`, AnalysisDone, AnalysisPosting, AnalysisPosted, limit)
}
