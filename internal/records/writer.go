package records

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sync"
)

// Per values: how records are grouped into files.
const (
	PerGame = "game" // one file per game: GAMEID.pgn
	PerDay  = "day"  // one file per UTC day of the game's end: YYYY-MM-DD.pgn
)

// MarkKind is the cache kind of the "record written" markers.
const MarkKind = "record-written"

// Marks remembers which games' records were written (the daemon's store
// implements it through its cache).
type Marks interface {
	CacheGet(ctx context.Context, kind, key string) ([]byte, bool, error)
	CachePut(ctx context.Context, kind, key string, value []byte) error
}

// Writer writes records into a directory, each game exactly once: a marker
// is kept in Marks once the file is written, and a file that already holds
// the game (a crash between writing and marking) is not written again.
type Writer struct {
	// Warn, when not nil (set it before the first Write), receives each
	// warning of the Lichess export a record is made from (the PGN reader
	// kept the game: a missing result token, a control character in a
	// tag), as the game's id and its analysis.Game.WarningLines line.
	Warn func(gameID, line string)

	dir   string
	per   string
	marks Marks
	mu    sync.Mutex // one write at a time: per-day files are appended to
}

// NewWriter returns a writer into dir grouping per game or per day.
func NewWriter(dir, per string, marks Marks) (*Writer, error) {
	if dir == "" {
		return nil, errors.New("records: no directory")
	}
	if per != PerGame && per != PerDay {
		return nil, fmt.Errorf("records: per %q: want %s or %s", per, PerGame, PerDay)
	}
	return &Writer{dir: dir, per: per, marks: marks}, nil
}

// Written reports whether the game's record was written.
func (w *Writer) Written(ctx context.Context, id string) (bool, error) {
	_, ok, err := w.marks.CacheGet(ctx, MarkKind, id)
	if err != nil {
		return false, fmt.Errorf("records: marker of %s: %w", id, err)
	}
	return ok, nil
}

// Write writes g's record unless it was written before. It returns the
// file written ("" when there was nothing to do).
func (w *Writer) Write(ctx context.Context, g Game) (string, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if done, err := w.Written(ctx, g.ID); err != nil || done {
		return "", err
	}
	text, warnings, err := render(g)
	if err != nil {
		return "", err
	}
	if w.Warn != nil {
		for _, l := range warnings {
			w.Warn(g.ID, l)
		}
	}
	if err := os.MkdirAll(w.dir, 0o755); err != nil {
		return "", fmt.Errorf("records: directory %s: %w", w.dir, err)
	}
	path, err := w.write(g, text)
	if err != nil {
		return "", err
	}
	if err := w.marks.CachePut(ctx, MarkKind, g.ID, []byte(filepath.Base(path))); err != nil {
		return path, fmt.Errorf("records: mark %s written: %w", g.ID, err)
	}
	return path, nil
}

// write puts text into the game's file, unless the file already holds it.
func (w *Writer) write(g Game, text string) (string, error) {
	if w.per == PerGame {
		path := filepath.Join(w.dir, g.ID+".pgn")
		if _, err := os.Stat(path); err == nil {
			return path, nil
		}
		tmp := path + ".tmp"
		if err := os.WriteFile(tmp, []byte(text), 0o644); err != nil {
			return "", fmt.Errorf("records: write %s: %w", tmp, err)
		}
		if err := os.Rename(tmp, path); err != nil {
			return "", fmt.Errorf("records: rename %s: %w", tmp, err)
		}
		return path, nil
	}
	path := filepath.Join(w.dir, g.Ended.UTC().Format("2006-01-02")+".pgn")
	old, err := os.ReadFile(path)
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		return "", fmt.Errorf("records: read %s: %w", path, err)
	}
	if bytes.Contains(old, []byte(`[GameId "`+g.ID+`"]`)) {
		return path, nil
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o644)
	if err != nil {
		return "", fmt.Errorf("records: open %s: %w", path, err)
	}
	if len(old) > 0 {
		text = "\n" + text
	}
	_, werr := f.WriteString(text)
	if cerr := f.Close(); werr == nil {
		werr = cerr
	}
	if werr != nil {
		return "", fmt.Errorf("records: append to %s: %w", path, werr)
	}
	return path, nil
}
