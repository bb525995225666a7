package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"
)

// SetRateLimitedUntil records that server answered 429 and must get no
// request before until (the lichess client's lockout), so that a restarted
// daemon honours it. An earlier end already recorded is kept when later.
func (s *Store) SetRateLimitedUntil(ctx context.Context, server string, until time.Time) error {
	_, err := s.db.ExecContext(ctx, `INSERT INTO rate_limits (server, until) VALUES (?, ?)
		ON CONFLICT (server) DO UPDATE SET until = max(until, excluded.until)`, server, unixMs(until))
	if err != nil {
		return fmt.Errorf("store: record rate limit of %s: %w", server, err)
	}
	return nil
}

// RateLimitedUntil returns the end of server's last recorded lockout (the
// zero time when none was recorded; it may be in the past).
func (s *Store) RateLimitedUntil(ctx context.Context, server string) (time.Time, error) {
	var ms int64
	err := s.db.QueryRowContext(ctx, `SELECT until FROM rate_limits WHERE server = ?`, server).Scan(&ms)
	if errors.Is(err, sql.ErrNoRows) {
		return time.Time{}, nil
	}
	if err != nil {
		return time.Time{}, fmt.Errorf("store: read rate limit of %s: %w", server, err)
	}
	return fromMs(ms), nil
}
