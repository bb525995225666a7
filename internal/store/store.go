// Package store is Outpost's persistent state in one embedded SQLite file
// (modernc.org/sqlite, no server): the daemon's games, the moves it sent, the
// post-game analyses and whether their summaries were posted, comparison runs
// and a key/value cache for expensive evaluations. Everything a crash or a
// restart must not lose goes through here.
package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"os"
	"sync"
	"time"

	_ "modernc.org/sqlite" // registers the "sqlite" driver
)

// Store is an open database. It is safe for concurrent use.
type Store struct {
	db   *sql.DB
	path string // the database file ("" or ":memory:" in memory)

	mu   sync.Mutex
	held []*os.File // the database file as the daemon lock opened it (lockIdentity)
}

// ErrNotFound is returned when a looked-up record does not exist.
var ErrNotFound = errors.New("store: not found")

// Open opens (creating if needed) the database at path and brings its schema
// up to date. Use ":memory:" for a private in-memory database.
func Open(ctx context.Context, path string) (*Store, error) {
	dsn := "file:" + path + "?_pragma=busy_timeout(5000)&_pragma=journal_mode(WAL)&_pragma=foreign_keys(1)&_pragma=synchronous(NORMAL)"
	if path == ":memory:" {
		dsn = "file::memory:?_pragma=foreign_keys(1)"
	}
	db, err := sql.Open("sqlite", dsn)
	if err != nil {
		return nil, fmt.Errorf("store: open %s: %w", path, err)
	}
	// SQLite allows one writer; a single connection also keeps an in-memory
	// database alive and shared.
	db.SetMaxOpenConns(1)
	s := &Store{db: db, path: path}
	if err := s.migrate(ctx); err != nil {
		db.Close()
		return nil, fmt.Errorf("store: open %s: %w", path, err)
	}
	return s, nil
}

// Close closes the database, then the files the daemon lock holds open
// (lockIdentity says why they must outlive it).
func (s *Store) Close() error {
	err := s.db.Close()
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, f := range s.held {
		if cerr := f.Close(); err == nil {
			err = cerr
		}
	}
	s.held = nil
	return err
}

// schema is applied in order; each entry runs once, tracked by user_version.
var schema = []string{
	`CREATE TABLE games (
		id TEXT PRIMARY KEY,
		opponent TEXT NOT NULL DEFAULT '',
		opponent_rating INTEGER NOT NULL DEFAULT 0,
		opponent_bot INTEGER NOT NULL DEFAULT 0,
		color TEXT NOT NULL DEFAULT '',
		engine TEXT NOT NULL DEFAULT '',
		speed TEXT NOT NULL DEFAULT '',
		variant TEXT NOT NULL DEFAULT 'standard',
		rated INTEGER NOT NULL DEFAULT 0,
		initial_fen TEXT NOT NULL DEFAULT '',
		moves TEXT NOT NULL DEFAULT '',
		status TEXT NOT NULL DEFAULT 'started',
		winner TEXT NOT NULL DEFAULT '',
		pgn TEXT NOT NULL DEFAULT '',
		started_at INTEGER NOT NULL,
		updated_at INTEGER NOT NULL,
		finished_at INTEGER NOT NULL DEFAULT 0
	)`,
	`CREATE TABLE sent_moves (
		game_id TEXT NOT NULL,
		ply INTEGER NOT NULL,
		uci TEXT NOT NULL,
		wtime_ms INTEGER NOT NULL DEFAULT 0,
		btime_ms INTEGER NOT NULL DEFAULT 0,
		sent_at INTEGER NOT NULL,
		PRIMARY KEY (game_id, ply)
	)`,
	`CREATE TABLE analyses (
		game_id TEXT PRIMARY KEY,
		state TEXT NOT NULL,
		result TEXT NOT NULL DEFAULT '',
		summary TEXT NOT NULL DEFAULT '',
		error TEXT NOT NULL DEFAULT '',
		updated_at INTEGER NOT NULL
	)`,
	`CREATE TABLE compare_runs (
		id INTEGER PRIMARY KEY AUTOINCREMENT,
		user TEXT NOT NULL,
		params TEXT NOT NULL DEFAULT '',
		state TEXT NOT NULL,
		report TEXT NOT NULL DEFAULT '',
		started_at INTEGER NOT NULL,
		finished_at INTEGER NOT NULL DEFAULT 0
	)`,
	`CREATE TABLE compare_games (
		run_id INTEGER NOT NULL REFERENCES compare_runs(id) ON DELETE CASCADE,
		game_id TEXT NOT NULL,
		result TEXT NOT NULL,
		PRIMARY KEY (run_id, game_id)
	)`,
	`CREATE TABLE cache (
		kind TEXT NOT NULL,
		key TEXT NOT NULL,
		value BLOB NOT NULL,
		created_at INTEGER NOT NULL,
		PRIMARY KEY (kind, key)
	)`,
	`CREATE TABLE declines (
		user TEXT NOT NULL,
		reason TEXT NOT NULL DEFAULT '',
		at INTEGER NOT NULL
	)`,
	verificationsSchema,
	`CREATE TABLE rate_limits (
		server TEXT PRIMARY KEY,
		until INTEGER NOT NULL
	)`,
}

func (s *Store) migrate(ctx context.Context) error {
	var version int
	if err := s.db.QueryRowContext(ctx, "PRAGMA user_version").Scan(&version); err != nil {
		return fmt.Errorf("read schema version: %w", err)
	}
	if version > len(schema) {
		return fmt.Errorf("database schema version %d is newer than this program's %d", version, len(schema))
	}
	for i := version; i < len(schema); i++ {
		tx, err := s.db.BeginTx(ctx, nil)
		if err != nil {
			return fmt.Errorf("migrate to %d: %w", i+1, err)
		}
		if _, err := tx.ExecContext(ctx, schema[i]); err != nil {
			tx.Rollback()
			return fmt.Errorf("migrate to %d: %w", i+1, err)
		}
		if _, err := tx.ExecContext(ctx, fmt.Sprintf("PRAGMA user_version = %d", i+1)); err != nil {
			tx.Rollback()
			return fmt.Errorf("migrate to %d: %w", i+1, err)
		}
		if err := tx.Commit(); err != nil {
			return fmt.Errorf("migrate to %d: %w", i+1, err)
		}
	}
	return nil
}

func unixMs(t time.Time) int64 { return t.UnixMilli() }

func fromMs(ms int64) time.Time {
	if ms == 0 {
		return time.Time{}
	}
	return time.UnixMilli(ms)
}
