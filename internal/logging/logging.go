// Package logging builds Outpost's zerolog loggers: a human console format
// when writing to a terminal, JSON lines otherwise.
package logging

import (
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/mattn/go-isatty"
	"github.com/rs/zerolog"
)

// ParseLevel turns a level name (trace, debug, info, warn, error) into a
// zerolog level, naming the allowed values when the name is unknown.
func ParseLevel(name string) (zerolog.Level, error) {
	switch strings.ToLower(strings.TrimSpace(name)) {
	case "trace":
		return zerolog.TraceLevel, nil
	case "debug":
		return zerolog.DebugLevel, nil
	case "", "info":
		return zerolog.InfoLevel, nil
	case "warn", "warning":
		return zerolog.WarnLevel, nil
	case "error":
		return zerolog.ErrorLevel, nil
	case "disabled", "off":
		return zerolog.Disabled, nil
	}
	return zerolog.NoLevel, fmt.Errorf("log level %q: want one of trace, debug, info, warn, error, off", name)
}

// New returns a logger writing to w at the named level: console format when w
// is a terminal, JSON otherwise. An unknown level falls back to info.
func New(w io.Writer, level string) zerolog.Logger {
	lvl, err := ParseLevel(level)
	if err != nil {
		lvl = zerolog.InfoLevel
	}
	return zerolog.New(consoleWriter(w)).Level(lvl).With().Timestamp().Logger()
}

// consoleWriter is w in the human console format when w is a terminal, w
// itself (JSON lines) otherwise. A writer that is not a file (a buffer,
// a pipe wrapper of an embedding program or a test) may not be safe for
// the daemon's concurrent loggers, so its lines are written one at a time.
func consoleWriter(w io.Writer) io.Writer {
	f, ok := w.(*os.File)
	if !ok {
		return zerolog.SyncWriter(w)
	}
	if isatty.IsTerminal(f.Fd()) || isatty.IsCygwinTerminal(f.Fd()) {
		return zerolog.ConsoleWriter{Out: w, TimeFormat: time.TimeOnly}
	}
	return w
}
