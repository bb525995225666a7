//go:build unix

package testkit

import (
	"errors"
	"fmt"
	"os"
	"syscall"
)

// sharedLock takes and releases a shared flock on f: at once when nobody
// holds it exclusively, else (calling before first) once the holder has
// released it; waited says whether it had to wait.
func sharedLock(f *os.File, before func()) (waited bool, err error) {
	fd := int(f.Fd())
	err = syscall.Flock(fd, syscall.LOCK_SH|syscall.LOCK_NB)
	if errors.Is(err, syscall.EWOULDBLOCK) {
		before()
		waited = true
		for err = syscall.Flock(fd, syscall.LOCK_SH); errors.Is(err, syscall.EINTR); err = syscall.Flock(fd, syscall.LOCK_SH) {
		}
	}
	if err != nil {
		return waited, fmt.Errorf("flock: %w", err)
	}
	if err := syscall.Flock(fd, syscall.LOCK_UN); err != nil {
		return waited, fmt.Errorf("flock unlock: %w", err)
	}
	return waited, nil
}
