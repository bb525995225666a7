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

// LockDaemon takes the store's daemon lock, two advisory locks the kernel
// drops when their process dies, so that a daemon killed with -9 leaves no
// stale lock behind:
//
//   - a lock file beside the database (its resolved path + ".lock", see
//     lockPath) holding the owner's PID, which the refusal names; a second
//     daemon opening the database through a symbolic link or a relative
//     path meets it;
//   - a lock on the database file itself (lockIdentity: the file's
//     identity, device and inode), which a second daemon opening it
//     through a hard link, another name with no path in common, meets.
//
// It refuses (ErrLocked) while another daemon holds either. An in-memory
// store needs no lock. release gives both back. On Windows neither is
// taken (lock_other.go).
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
	db := strings.TrimSuffix(name, ".lock")
	unlock, err := s.lockIdentity(db)
	if err != nil {
		f.Close()
		if errors.Is(err, errWouldBlock) {
			return nil, fmt.Errorf("%w: another daemon holds the database file %s under another name (a hard link to it); stop it first (two daemons on one database would fight over the event stream)", ErrLocked, db)
		}
		return nil, fmt.Errorf("store: daemon lock on %s: %w", db, err)
	}
	if err := f.Truncate(0); err == nil {
		_, err = f.WriteAt([]byte(strconv.Itoa(os.Getpid())+"\n"), 0)
		if err != nil {
			_ = unlock()
			f.Close()
			return nil, fmt.Errorf("store: daemon lock %s: write PID: %w", name, err)
		}
	}
	return func() error {
		_ = f.Truncate(0)
		err := unlock()
		if cerr := f.Close(); err == nil { // closing drops the flock
			err = cerr
		}
		return err
	}, nil
}

// lockPath is the lock file of the database at path: beside the file the
// path resolves to (made absolute, symbolic links followed). A hard link
// is another name of the same file, which lockPath cannot see:
// lockIdentity covers it.
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

// lockIdentity locks the database file at path itself (whatever name it
// is opened by) on identityByte, and returns the unlock. The file it opens
// for that stays open until Close, after the database's own: closing any
// descriptor of a file drops its process's POSIX locks on it, SQLite's
// included, so it must not be closed while SQLite runs.
func (s *Store) lockIdentity(path string) (unlock func() error, err error) {
	f, err := os.OpenFile(path, os.O_RDWR, 0)
	if err != nil {
		return nil, fmt.Errorf("open: %w", err)
	}
	s.mu.Lock()
	s.held = append(s.held, f)
	s.mu.Unlock()
	if err := lockByte(f, identityByte, true); err != nil {
		return nil, err
	}
	return func() error { return lockByte(f, identityByte, false) }, nil
}

// identityByte is the byte of the database file lockIdentity locks: past
// any SQLite database (at most 2^48 bytes; a lock may lie past the end of
// a file) and far from SQLite's own lock bytes at 1 GiB (PENDING_BYTE and
// the 511 after it), so that it never meets SQLite's locks.
const identityByte = 1 << 62

func readPID(f *os.File) string {
	b := make([]byte, 32)
	n, _ := f.ReadAt(b, 0)
	if pid := strings.TrimSpace(string(b[:n])); pid != "" {
		return pid
	}
	return "(unknown)"
}
