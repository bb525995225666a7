package syzygy

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"github.com/outpostchess/outpost/bots/board"
)

// DefaultLibrary is the file name of Debian's libfathom1 shared library,
// searched for the way dlopen searches (ld.so.cache, LD_LIBRARY_PATH).
const DefaultLibrary = "libfathom.so.1"

// tbResultFailed is fathom's TB_RESULT_FAILED: the probe did not succeed.
const tbResultFailed = 0xFFFFFFFF

// ErrNotCovered reports a position the tables cannot answer: more pieces
// than the largest table, castling rights, or no table for its material.
// It is an answer ("no information"), not a failure of the prober.
var ErrNotCovered = errors.New("syzygy: position not covered by the tables")

// Tables is an opened set of Syzygy tables (WDL .rtbw and DTZ .rtbz files)
// probed through libfathom. It is safe for concurrent use.
type Tables struct {
	lib    *library
	dirs   []string
	pieces int
	closed bool // guarded by lib.mu
}

// library is one loaded libfathom. Fathom keeps its tables in global C
// variables, one set per loaded library per process, so every Tables over
// the same library shares it: they must name the same directories, and
// their probes are serialised (fathom's root probe is not re-entrant).
type library struct {
	mu   sync.Mutex
	fa   *fathom
	path string // the directories fathom was initialised with, ':'-joined
	refs int    // open Tables
}

// loaded holds the libraries loaded so far, by file name. It is the one
// package-level variable: it mirrors state that lives in the C library
// for the life of the process (a library is never unloaded; opening the
// same tables again costs nothing), so it cannot be owned by a value.
var loaded = struct {
	sync.Mutex
	libs map[string]*library
}{libs: map[string]*library{}}

// libraryFor loads lib once per process.
func libraryFor(lib string) (*library, error) {
	loaded.Lock()
	defer loaded.Unlock()
	if l, ok := loaded.libs[lib]; ok {
		return l, nil
	}
	fa, err := loadFathom(lib)
	if err != nil {
		return nil, err
	}
	l := &library{fa: fa}
	loaded.libs[lib] = l
	return l, nil
}

// Option adjusts Open.
type Option func(*openOptions)

type openOptions struct {
	library   string
	maxPieces int
}

// WithLibrary loads libfathom from lib (a path or a file name for dlopen)
// instead of DefaultLibrary.
func WithLibrary(lib string) Option { return func(o *openOptions) { o.library = lib } }

// WithMaxPieces caps the positions probed to n pieces (kings included),
// below what the tables cover; 0 or a larger n means "all the tables".
func WithMaxPieces(n int) Option { return func(o *openOptions) { o.maxPieces = n } }

// Open loads libfathom and the tables in dirs. Each directory must exist
// and hold at least one .rtbw file; the error names the one that does not,
// or says that libfathom is missing (Debian package libfathom1).
func Open(dirs []string, opts ...Option) (*Tables, error) {
	o := openOptions{library: DefaultLibrary}
	for _, opt := range opts {
		opt(&o)
	}
	if len(dirs) == 0 {
		return nil, errors.New("syzygy: no table directory given")
	}
	canon := make([]string, len(dirs))
	for i, d := range dirs {
		if err := checkDir(d); err != nil {
			return nil, err
		}
		c, err := canonicalDir(d)
		if err != nil {
			return nil, err
		}
		canon[i] = c
	}
	l, err := libraryFor(o.library)
	if err != nil {
		return nil, fmt.Errorf("syzygy: %w", err)
	}
	pieces, err := l.acquire(strings.Join(canon, ":"))
	if err != nil {
		return nil, err
	}
	t := &Tables{lib: l, dirs: append([]string(nil), dirs...), pieces: pieces}
	if o.maxPieces > 0 && o.maxPieces < t.pieces {
		t.pieces = o.maxPieces
	}
	return t, nil
}

// acquire initialises the library with path unless it already serves it,
// counts one more user and returns the largest table's piece count.
func (l *library) acquire(path string) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.path != path {
		if l.refs > 0 {
			return 0, fmt.Errorf("syzygy: tables in %s are open; libfathom serves one set of directories per process, not also %s",
				strings.ReplaceAll(l.path, ":", ", "), strings.ReplaceAll(path, ":", ", "))
		}
		l.path = ""
		if !l.fa.init(path) {
			return 0, fmt.Errorf("syzygy: libfathom failed to initialise the tables in %s", strings.ReplaceAll(path, ":", ", "))
		}
		l.path = path
	}
	n := l.fa.largest()
	if n == 0 {
		return 0, fmt.Errorf("syzygy: libfathom found no usable table in %s", strings.ReplaceAll(path, ":", ", "))
	}
	l.refs++
	return n, nil
}

// canonicalDir is d as an absolute path without symbolic links, so that
// two spellings of the same directories share the loaded tables.
func canonicalDir(d string) (string, error) {
	abs, err := filepath.Abs(d)
	if err != nil {
		return "", fmt.Errorf("syzygy: table directory %s: %w", d, err)
	}
	resolved, err := filepath.EvalSymlinks(abs)
	if err != nil {
		return "", fmt.Errorf("syzygy: table directory %s: %w", d, err)
	}
	return resolved, nil
}

// checkDir reports a table directory that is missing, is not a directory,
// holds no WDL table, or cannot be passed to fathom (its list separator).
func checkDir(d string) error {
	if strings.Contains(d, ":") {
		return fmt.Errorf("syzygy: table directory %q: contains ':', fathom's path separator", d)
	}
	fi, err := os.Stat(d)
	if err != nil {
		return fmt.Errorf("syzygy: table directory: %w", err)
	}
	if !fi.IsDir() {
		return fmt.Errorf("syzygy: table directory %s: not a directory", d)
	}
	n, err := CountTables(d)
	if err != nil {
		return err
	}
	if n == 0 {
		return fmt.Errorf("syzygy: table directory %s: no Syzygy WDL table (*.rtbw)", d)
	}
	return nil
}

// CountTables returns how many WDL tables (*.rtbw) dir holds.
func CountTables(dir string) (int, error) {
	m, err := filepath.Glob(filepath.Join(filepath.Clean(dir), "*.rtbw"))
	if err != nil {
		return 0, fmt.Errorf("syzygy: listing %s: %w", dir, err)
	}
	return len(m), nil
}

// MaxPieces is the most pieces (kings included) of a position the tables
// are probed for: the largest table loaded, or the WithMaxPieces cap.
func (t *Tables) MaxPieces() int { return t.pieces }

// Dirs returns the table directories, in the order given to Open.
func (t *Tables) Dirs() []string { return append([]string(nil), t.dirs...) }

// Close releases the tables; probing afterwards returns an error. The
// library and its tables stay loaded for the next Open of the same
// directories.
func (t *Tables) Close() error {
	t.lib.mu.Lock()
	defer t.lib.mu.Unlock()
	if !t.closed {
		t.closed = true
		t.lib.refs--
	}
	return nil
}

// Covers reports whether b is small enough and has no castling rights,
// the conditions for probing it (a table for its material must still exist).
func (t *Tables) Covers(b *board.Board) bool {
	return b.CastlingRights() == 0 && board.Count(b.All()) <= t.pieces
}

// ProbeWDL returns the WDL value of b for the side to move as the table
// stores it: as if the halfmove clock were 0 (so right after a capture or
// a pawn move, where search probes). It returns ErrNotCovered for a
// position the tables do not cover.
func (t *Tables) ProbeWDL(b *board.Board) (WDL, error) {
	if !t.Covers(b) {
		return 0, ErrNotCovered
	}
	in := inputOf(b)
	t.lib.mu.Lock()
	defer t.lib.mu.Unlock()
	if t.closed {
		return 0, errors.New("syzygy: probing closed tables")
	}
	r := t.lib.fa.wdl(&in)
	if r == tbResultFailed {
		return 0, fmt.Errorf("%w: no table for %s", ErrNotCovered, Material(b))
	}
	return WDL(int(r&0xF) - 2), nil
}
