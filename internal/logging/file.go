package logging

import (
	"bytes"
	"fmt"
	"io"
	"path/filepath"

	"github.com/rs/zerolog"
)

// File describes a log file beside the console: JSON lines at Level,
// rotated (see Rotator) when the file would pass MaxSizeMB, keeping MaxFiles
// rotated files FILE.1 (the newest) … FILE.MaxFiles.
type File struct {
	Path      string
	MaxSizeMB int
	MaxFiles  int
	Level     string
}

// NewWithFile returns a logger writing to the console at consoleLevel (as
// New does) and to the file f at f.Level, and the closer of the file. Every
// occurrence of a secret (the API token) is replaced by "(hidden)" before a
// line reaches the file or the console: Outpost never logs the token, and
// this guard keeps it so should a library ever echo it.
func NewWithFile(console io.Writer, consoleLevel string, f File, secrets ...string) (zerolog.Logger, io.Closer, error) {
	clvl, err := ParseLevel(consoleLevel)
	if err != nil {
		return zerolog.Logger{}, nil, err
	}
	flvl, err := ParseLevel(f.Level)
	if err != nil {
		return zerolog.Logger{}, nil, fmt.Errorf("log.level: %w", err)
	}
	if f.Path == "" {
		return zerolog.Logger{}, nil, fmt.Errorf("logging: no log file")
	}
	if f.MaxSizeMB < 1 || f.MaxFiles < 1 {
		return zerolog.Logger{}, nil, fmt.Errorf("logging: log file %s: max_size_mb %d and max_files %d must be at least 1", f.Path, f.MaxSizeMB, f.MaxFiles)
	}
	rot, err := OpenRotator(filepath.Clean(f.Path), int64(f.MaxSizeMB)<<20, f.MaxFiles)
	if err != nil {
		return zerolog.Logger{}, nil, err
	}
	cw := consoleWriter(console)
	out := zerolog.MultiLevelWriter(
		&zerolog.FilteredLevelWriter{Writer: zerolog.LevelWriterAdapter{Writer: Redact(cw, secrets...)}, Level: clvl},
		&zerolog.FilteredLevelWriter{Writer: zerolog.LevelWriterAdapter{Writer: Redact(rot, secrets...)}, Level: flvl},
	)
	return zerolog.New(out).Level(min(clvl, flvl)).With().Timestamp().Logger(), rot, nil
}

// Redact returns a writer replacing every secret in each write by
// "(hidden)" (zerolog writes one whole line per call). Empty secrets are
// ignored; with none, w is returned as is.
func Redact(w io.Writer, secrets ...string) io.Writer {
	var s [][]byte
	for _, x := range secrets {
		if x != "" {
			s = append(s, []byte(x))
		}
	}
	if len(s) == 0 {
		return w
	}
	return &redactor{w: w, secrets: s}
}

type redactor struct {
	w       io.Writer
	secrets [][]byte
}

// Write implements io.Writer; it reports len(p) written when the redacted
// line was written whole.
func (r *redactor) Write(p []byte) (int, error) {
	q := p
	for _, s := range r.secrets {
		if bytes.Contains(q, s) {
			q = bytes.ReplaceAll(q, s, []byte("(hidden)"))
		}
	}
	if _, err := r.w.Write(q); err != nil {
		return 0, err
	}
	return len(p), nil
}
