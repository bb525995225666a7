//go:build unix && !linux

package store

import "golang.org/x/sys/unix"

// byteLockCmd takes a classic POSIX record lock (macOS and the BSDs have
// no open file description locks): owned by the process, so it keeps two
// daemons, two processes, apart; two stores of one process do not conflict
// on it, and SQLite closing its last descriptor of the database would
// drop it (the store keeps its one connection open).
const byteLockCmd = unix.F_SETLK
