package store

import (
	"context"
	"database/sql"
	"fmt"
)

// scanner is a row to scan: *sql.Row or *sql.Rows.
type scanner interface{ Scan(dest ...any) error }

// queryAll runs q and returns every row scanned with scan; each error is
// wrapped as "store: what: …".
func queryAll[T any](ctx context.Context, db *sql.DB, what string, scan func(scanner) (T, error), q string, args ...any) ([]T, error) {
	rows, err := db.QueryContext(ctx, q, args...)
	if err != nil {
		return nil, fmt.Errorf("store: %s: %w", what, err)
	}
	defer rows.Close()
	var out []T
	for rows.Next() {
		v, err := scan(rows)
		if err != nil {
			return nil, fmt.Errorf("store: %s: %w", what, err)
		}
		out = append(out, v)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("store: %s: %w", what, err)
	}
	return out, nil
}
