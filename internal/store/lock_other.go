//go:build !unix

package store

import (
	"errors"
	"os"
)

var errWouldBlock = errors.New("lock held")

// flock is not available here: the daemon lock is not enforced.
func flock(*os.File) error { return nil }

// lockByte is not available here either: neither lock is enforced on
// Windows (docs/operations.md).
func lockByte(*os.File, int64, bool) error { return nil }
