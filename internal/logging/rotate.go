package logging

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"sync"
)

// Rotator is an io.WriteCloser appending to a file that it rotates by size:
// before a write would take the file past MaxBytes, FILE becomes FILE.1,
// FILE.1 becomes FILE.2 and so on, FILE.Keep being deleted, and a new FILE
// is started. Writes are whole (a log line is never split across files) and
// safe for concurrent use. It starts no goroutine.
//
// Outpost rotates with this small type rather than a library: the rule is a
// few lines, and the well-known gopkg.in/natefinch/lumberjack.v2 (v2.2.1)
// starts a clean-up goroutine on its first rotation that Close does not
// stop, which Outpost's no-goroutine-leak rule forbids.
type Rotator struct {
	path     string
	maxBytes int64
	keep     int

	mu   sync.Mutex
	f    *os.File
	size int64
}

// OpenRotator opens (creating it and its directory if needed) the file at
// path for appending, rotated past maxBytes keeping keep old files.
func OpenRotator(path string, maxBytes int64, keep int) (*Rotator, error) {
	if maxBytes < 1 || keep < 1 {
		return nil, fmt.Errorf("logging: rotate %s: max size %d bytes and %d files kept must be at least 1", path, maxBytes, keep)
	}
	r := &Rotator{path: path, maxBytes: maxBytes, keep: keep}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return nil, fmt.Errorf("logging: log directory of %s: %w", path, err)
	}
	if err := r.open(); err != nil {
		return nil, err
	}
	return r, nil
}

func (r *Rotator) open() error {
	f, err := os.OpenFile(r.path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o600)
	if err != nil {
		return fmt.Errorf("logging: open %s: %w", r.path, err)
	}
	st, err := f.Stat()
	if err != nil {
		_ = f.Close()
		return fmt.Errorf("logging: stat %s: %w", r.path, err)
	}
	r.f, r.size = f, st.Size()
	return nil
}

// Write implements io.Writer.
func (r *Rotator) Write(p []byte) (int, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.f == nil {
		return 0, errors.New("logging: log file closed")
	}
	if r.size > 0 && r.size+int64(len(p)) > r.maxBytes {
		if err := r.rotate(); err != nil {
			return 0, err
		}
	}
	n, err := r.f.Write(p)
	r.size += int64(n)
	return n, err
}

// rotate shifts the old files up by one and starts a new file.
func (r *Rotator) rotate() error {
	if err := r.f.Close(); err != nil {
		return fmt.Errorf("logging: close %s: %w", r.path, err)
	}
	r.f = nil
	old := func(i int) string { return r.path + "." + strconv.Itoa(i) }
	if err := os.Remove(old(r.keep)); err != nil && !errors.Is(err, os.ErrNotExist) {
		return fmt.Errorf("logging: remove %s: %w", old(r.keep), err)
	}
	for i := r.keep - 1; i >= 1; i-- {
		if err := os.Rename(old(i), old(i+1)); err != nil && !errors.Is(err, os.ErrNotExist) {
			return fmt.Errorf("logging: rotate %s: %w", old(i), err)
		}
	}
	if err := os.Rename(r.path, old(1)); err != nil && !errors.Is(err, os.ErrNotExist) {
		return fmt.Errorf("logging: rotate %s: %w", r.path, err)
	}
	return r.open()
}

// Close closes the file. It is idempotent.
func (r *Rotator) Close() error {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.f == nil {
		return nil
	}
	err := r.f.Close()
	r.f = nil
	return err
}
