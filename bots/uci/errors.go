package uci

import (
	"errors"
	"fmt"
	"strings"
)

// Sentinel errors; test with errors.Is.
var (
	// ErrCrashed means the engine process exited or its pipes broke. Restart
	// brings it back.
	ErrCrashed = errors.New("uci: engine crashed")
	// ErrClosed means Close was called.
	ErrClosed = errors.New("uci: engine closed")
	// ErrTimeout means the engine did not answer in time (uciok, readyok, or
	// bestmove after stop). An engine that ignored "stop" has been killed.
	ErrTimeout = errors.New("uci: engine timed out")
	// ErrNoMove means the engine answered "bestmove (none)" or "0000": the
	// position has no legal move.
	ErrNoMove = errors.New("uci: engine has no move")
)

// CrashError describes a crashed engine: what we were doing, how the
// process ended and the last lines it wrote to stderr. It matches
// ErrCrashed with errors.Is.
type CrashError struct {
	Path   string // the engine binary
	Stage  string // what the client was doing ("handshake", "search", …)
	Cause  error  // the exit status or pipe error, if known
	Stderr string // the tail of the engine's stderr
}

// Error implements error.
func (e *CrashError) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "uci: engine %s crashed during %s", e.Path, e.Stage)
	if e.Cause != nil {
		fmt.Fprintf(&b, ": %v", e.Cause)
	}
	if s := strings.TrimSpace(e.Stderr); s != "" {
		fmt.Fprintf(&b, " (stderr: %s)", clip(strings.ReplaceAll(s, "\n", " | ")))
	}
	return b.String()
}

// Is makes errors.Is(err, ErrCrashed) true.
func (e *CrashError) Is(target error) bool { return target == ErrCrashed }

// Unwrap returns the underlying cause.
func (e *CrashError) Unwrap() error { return e.Cause }
