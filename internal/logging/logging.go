// Package logging builds Outpost's zerolog loggers: a human console format
// when writing to a terminal, JSON lines otherwise.
package logging

import (
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/outpostchess/outpost/internal/terminal"
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
	return NewFormat(w, level, FormatAuto)
}

// NewFormat is New in the named console format (Console).
func NewFormat(w io.Writer, level, format string) zerolog.Logger {
	lvl, err := ParseLevel(level)
	if err != nil {
		lvl = zerolog.InfoLevel
	}
	return zerolog.New(Console(w, format)).Level(lvl).With().Timestamp().Logger()
}

// The console formats ([log] format).
const (
	FormatAuto    = "auto"    // the human format on a terminal, JSON lines elsewhere
	FormatConsole = "console" // the human format, without colours off a terminal
	FormatJSON    = "json"    // JSON lines, on a terminal too
)

// Console returns w writing log lines in format (FormatAuto for "" or an
// unknown name: the configuration's validation names those). The result
// keeps its format when passed to NewWithFile as the console.
func Console(w io.Writer, format string) io.Writer {
	switch format {
	case FormatJSON:
		return zerolog.SyncWriter(w) // not an *os.File: stays JSON on a terminal
	case FormatConsole:
		return zerolog.ConsoleWriter{Out: zerolog.SyncWriter(w), TimeFormat: time.TimeOnly, NoColor: !terminal.Is(w)}
	}
	return consoleWriter(w)
}

// consoleWriter is w in the human console format when w is a terminal, w
// itself (JSON lines) otherwise. A writer that is not a file (a buffer,
// a pipe wrapper of an embedding program or a test) may not be safe for
// the daemon's concurrent loggers, so its lines are written one at a time.
func consoleWriter(w io.Writer) io.Writer {
	if _, ok := w.(*os.File); !ok {
		return zerolog.SyncWriter(w)
	}
	if terminal.Is(w) {
		return zerolog.ConsoleWriter{Out: w, TimeFormat: time.TimeOnly}
	}
	return w
}
