package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"
)

// CacheGet returns the cached value of key within kind (for example
// "sfeval" for Stockfish evaluations keyed by position and depth). ok is
// false on a miss.
func (s *Store) CacheGet(ctx context.Context, kind, key string) (value []byte, ok bool, err error) {
	err = s.db.QueryRowContext(ctx, `SELECT value FROM cache WHERE kind = ? AND key = ?`, kind, key).Scan(&value)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, false, nil
	}
	if err != nil {
		return nil, false, fmt.Errorf("store: cache get %s/%s: %w", kind, key, err)
	}
	return value, true, nil
}

// CachePut stores value under key within kind, replacing any older value.
func (s *Store) CachePut(ctx context.Context, kind, key string, value []byte) error {
	_, err := s.db.ExecContext(ctx, `INSERT OR REPLACE INTO cache (kind, key, value, created_at) VALUES (?, ?, ?, ?)`,
		kind, key, value, unixMs(time.Now()))
	if err != nil {
		return fmt.Errorf("store: cache put %s/%s: %w", kind, key, err)
	}
	return nil
}

// CacheKeysWithValue returns the keys of kind whose value is value, in key
// order (chatonce.Resume lists the lines left "sending" with it).
func (s *Store) CacheKeysWithValue(ctx context.Context, kind string, value []byte) ([]string, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT key FROM cache WHERE kind = ? AND value = ? ORDER BY key`, kind, value)
	if err != nil {
		return nil, fmt.Errorf("store: cache keys %s: %w", kind, err)
	}
	defer rows.Close()
	var keys []string
	for rows.Next() {
		var k string
		if err := rows.Scan(&k); err != nil {
			return nil, fmt.Errorf("store: cache keys %s: %w", kind, err)
		}
		keys = append(keys, k)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("store: cache keys %s: %w", kind, err)
	}
	return keys, nil
}

// RecordDecline remembers that user declined one of our challenges.
func (s *Store) RecordDecline(ctx context.Context, user, reason string) error {
	_, err := s.db.ExecContext(ctx, `INSERT INTO declines (user, reason, at) VALUES (lower(?), ?, ?)`,
		user, reason, unixMs(time.Now()))
	if err != nil {
		return fmt.Errorf("store: record decline by %s: %w", user, err)
	}
	return nil
}

// DeclinedSince reports whether user declined one of our challenges at or
// after t.
func (s *Store) DeclinedSince(ctx context.Context, user string, t time.Time) (bool, error) {
	var n int
	err := s.db.QueryRowContext(ctx, `SELECT COUNT(*) FROM declines WHERE user = lower(?) AND at >= ?`,
		user, unixMs(t)).Scan(&n)
	if err != nil {
		return false, fmt.Errorf("store: declines by %s: %w", user, err)
	}
	return n > 0, nil
}
