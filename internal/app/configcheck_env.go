package app

import (
	"errors"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"

	"github.com/outpostchess/outpost/bots/syzygy"
	"github.com/outpostchess/outpost/config"
)

// EnvironmentErrors reports what `outpost run` on this machine would fail
// on, or misplay, with a valid configuration: a store whose directory is
// missing or not writable, a [log] file that cannot be written, and Syzygy
// tables that libfathom cannot load (an engine whose tables do not load
// falls back to easy in a game). Unlike EnvironmentWarnings they fail
// `outpost config check`, each naming its key.
func EnvironmentErrors(cfg *config.Config) []string {
	var out []string
	if p := cfg.Store.Path; p != "" {
		if err := writableDir(filepath.Dir(p)); err != nil {
			out = append(out, fmt.Sprintf("store.path %q: %v", p, err))
		}
	}
	if f := cfg.Log.File; f != "" {
		if err := writableFile(f); err != nil {
			out = append(out, fmt.Sprintf("log.file %q: %v", f, err))
		}
	}
	for _, name := range slices.Sorted(maps.Keys(cfg.Engines.Defs)) {
		def := cfg.Engines.Defs[name]
		if def.Syzygy == nil || !def.Syzygy.Enabled {
			continue
		}
		t, err := syzygy.Open(def.Syzygy.Path, syzygy.WithMaxPieces(def.Syzygy.MaxPieces))
		if err != nil {
			out = append(out, fmt.Sprintf("engines.%s.syzygy.path: %v (in a game the engine would not be built and easy would play instead)", name, err))
			continue
		}
		if err := t.Close(); err != nil {
			out = append(out, fmt.Sprintf("engines.%s.syzygy.path: closing the tables: %v", name, err))
		}
	}
	return out
}

// writableDir reports a directory that is missing, is not a directory, or
// that this process cannot create files in (tried with a temporary file,
// removed at once: permission bits say nothing to root or on a read-only
// file system).
func writableDir(dir string) error {
	fi, err := os.Stat(dir)
	switch {
	case err != nil:
		return fmt.Errorf("directory %s: %w", dir, unwrapPath(err))
	case !fi.IsDir():
		return fmt.Errorf("%s is not a directory", dir)
	}
	f, err := os.CreateTemp(dir, ".outpost-config-check-*")
	if err != nil {
		return fmt.Errorf("directory %s is not writable: %w", dir, unwrapPath(err))
	}
	name := f.Name()
	f.Close()
	return os.Remove(name)
}

// writableFile reports a file that is a directory or cannot be opened for
// appending (nothing is written), or, when it does not exist, a directory
// it cannot be created in.
func writableFile(path string) error {
	fi, err := os.Stat(path)
	switch {
	case errors.Is(err, os.ErrNotExist):
		return writableDir(filepath.Dir(path))
	case err != nil:
		return unwrapPath(err)
	case fi.IsDir():
		return errors.New("is a directory")
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		return fmt.Errorf("not writable: %w", unwrapPath(err))
	}
	return f.Close()
}

// unwrapPath drops the *PathError's operation and path, already named.
func unwrapPath(err error) error {
	var pe *os.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}
