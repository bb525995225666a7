package uci

import (
	"time"

	"github.com/rs/zerolog"
)

// Default timeouts, used when the corresponding Config field is zero.
const (
	DefaultHandshakeTimeout = 10 * time.Second
	DefaultReadyTimeout     = 30 * time.Second // large Hash tables take a while to allocate
	DefaultStopTimeout      = 2 * time.Second
	DefaultQuitTimeout      = time.Second
)

// Config says how to run an engine.
type Config struct {
	// Path is the engine executable; Args are its arguments.
	Path string
	Args []string
	// Dir is the working directory (empty: the caller's).
	Dir string
	// Env holds extra "KEY=value" environment entries added to ours.
	Env []string
	// Options are set after the handshake (and again after Restart), in
	// name order. Names are matched case-insensitively against the options
	// the engine declared; an unknown name or invalid value fails Start.
	Options map[string]string
	// Logger receives protocol traffic at trace level and problems at warn
	// level. The zero Logger discards everything.
	Logger zerolog.Logger

	// HandshakeTimeout bounds uci → uciok.
	HandshakeTimeout time.Duration
	// ReadyTimeout bounds isready → readyok.
	ReadyTimeout time.Duration
	// StopTimeout bounds stop → bestmove once the caller's context ended;
	// an engine that overruns it is killed.
	StopTimeout time.Duration
	// QuitTimeout bounds quit → process exit in Close before the process is
	// killed.
	QuitTimeout time.Duration
}

func (c Config) handshakeTimeout() time.Duration {
	return orDefault(c.HandshakeTimeout, DefaultHandshakeTimeout)
}
func (c Config) readyTimeout() time.Duration { return orDefault(c.ReadyTimeout, DefaultReadyTimeout) }
func (c Config) stopTimeout() time.Duration  { return orDefault(c.StopTimeout, DefaultStopTimeout) }
func (c Config) quitTimeout() time.Duration  { return orDefault(c.QuitTimeout, DefaultQuitTimeout) }

func orDefault(d, def time.Duration) time.Duration {
	if d > 0 {
		return d
	}
	return def
}
