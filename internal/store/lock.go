package store

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// ErrLocked is returned by LockDaemon when another daemon holds the store.
var ErrLocked = errors.New("store: in use by another daemon")

// LockDaemon takes the store's daemon lock, a lock file beside the
// database (path + ".lock") holding the owner's PID. It refuses, naming
// the first daemon's PID, while another process holds it. The lock is an
// advisory flock: the kernel drops it when its process dies, so a daemon
// killed with -9 leaves no stale lock behind. An in-memory store needs no
// lock. The lock file is named after the database's resolved path
// (lockPath), so that a second daemon opening the same database through a
// symbolic link (to the file or to a directory above it) or a relative
// path still meets the lock.
// release gives the lock back.
func (s *Store) LockDaemon() (release func() error, err error) {
	if s.path == "" || s.path == ":memory:" {
		return func() error { return nil }, nil
	}
	name, err := lockPath(s.path)
	if err != nil {
		return nil, err
	}
	f, err := os.OpenFile(name, os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return nil, fmt.Errorf("store: daemon lock %s: %w", name, err)
	}
	if err := flock(f); err != nil {
		pid := readPID(f)
		f.Close()
		if errors.Is(err, errWouldBlock) {
			return nil, fmt.Errorf("%w: PID %s holds %s; stop it first (two daemons on one database would fight over the event stream)", ErrLocked, pid, name)
		}
		return nil, fmt.Errorf("store: daemon lock %s: %w", name, err)
	}
	if err := f.Truncate(0); err == nil {
		_, err = f.WriteAt([]byte(strconv.Itoa(os.Getpid())+"\n"), 0)
		if err != nil {
			f.Close()
			return nil, fmt.Errorf("store: daemon lock %s: write PID: %w", name, err)
		}
	}
	return func() error {
		_ = f.Truncate(0)
		return f.Close() // closing drops the flock
	}, nil
}

// lockPath is the lock file of the database at path: beside the file the
// path resolves to (made absolute, symbolic links followed). Hard links
// are not followed: SQLite itself names its -wal and -shm files after the
// path opened, so two names of one database are unsafe whatever the lock.
func lockPath(path string) (string, error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return "", fmt.Errorf("store: daemon lock %s: %w", path, err)
	}
	real, err := filepath.EvalSymlinks(abs)
	if err != nil {
		return "", fmt.Errorf("store: daemon lock %s: resolve the path: %w", path, err)
	}
	return real + ".lock", nil
}

func readPID(f *os.File) string {
	b := make([]byte, 32)
	n, _ := f.ReadAt(b, 0)
	if pid := strings.TrimSpace(string(b[:n])); pid != "" {
		return pid
	}
	return "(unknown)"
}
