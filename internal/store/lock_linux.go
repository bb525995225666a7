package store

import "golang.org/x/sys/unix"

// byteLockCmd takes an open file description lock (Linux 3.15): owned by
// the open file, so that SQLite closing its own descriptors of the
// database does not drop it, and two stores of one process conflict as
// two daemons do.
const byteLockCmd = unix.F_OFD_SETLK
