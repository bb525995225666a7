//go:build unix

package store

import (
	"errors"
	"io"
	"os"
	"syscall"

	"golang.org/x/sys/unix"
)

var errWouldBlock = syscall.EWOULDBLOCK

// flock takes an exclusive, non-blocking advisory lock on f.
func flock(f *os.File) error {
	err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
	if errors.Is(err, syscall.EAGAIN) {
		return errWouldBlock
	}
	return err
}

// lockByte takes (lock) or gives back a non-blocking exclusive record lock
// on the byte at off of f (byteLockCmd: an open-file-description lock on
// Linux, held by f whatever else the process opens and closes; a classic
// POSIX lock elsewhere, held by the process). Not flock(2) on the database
// file: on macOS and the BSDs flock and SQLite's record locks meet, and a
// whole-file flock would refuse every other process's SQLite lock.
func lockByte(f *os.File, off int64, lock bool) error {
	lk := unix.Flock_t{Type: unix.F_UNLCK, Whence: io.SeekStart, Start: off, Len: 1}
	if lock {
		lk.Type = unix.F_WRLCK
	}
	err := unix.FcntlFlock(f.Fd(), byteLockCmd, &lk)
	if errors.Is(err, unix.EAGAIN) || errors.Is(err, unix.EACCES) {
		return errWouldBlock
	}
	return err
}
