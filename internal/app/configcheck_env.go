package app

import (
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"

	"github.com/outpostchess/outpost/analysis/cluster"
	"github.com/outpostchess/outpost/bots/syzygy"
	"github.com/outpostchess/outpost/config"
)

// EnvironmentErrors reports what `outpost run` on this machine would fail
// on, or misplay, with a valid configuration: a store whose directory is
// missing or not writable, a [log] file that cannot be written, a
// [cluster] creds_file that group or others may read (the cluster's own
// check, cluster.CheckCredsMode: the cluster refuses it), and Syzygy
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
	for _, d := range []struct{ key, dir string }{{"store.pgn_dir", cfg.Store.PGNDir}, {"records.dir", cfg.Records.Dir}} {
		if err := creatableDir(d.dir); err != nil {
			out = append(out, fmt.Sprintf("%s %q: %v", d.key, d.dir, err))
		}
	}
	if err := tokenFileProblem(cfg.Lichess.TokenFile); err != nil {
		out = append(out, fmt.Sprintf("lichess.token_file %q: %v", cfg.Lichess.TokenFile, err))
	}
	if err := clusterCredsProblem(cfg.Cluster.CredsFile); err != nil && !errors.Is(err, fs.ErrNotExist) {
		out = append(out, fmt.Sprintf("cluster.creds_file %q: %v", cfg.Cluster.CredsFile, err))
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

// creatableDir reports a directory the daemon cannot have: one that
// exists but is no directory, or whose nearest existing ancestor is a
// regular file (MkdirAll would fail at the first game). "" is none.
func creatableDir(dir string) error {
	if dir == "" {
		return nil
	}
	for p := filepath.Clean(dir); ; p = filepath.Dir(p) {
		fi, err := os.Stat(p)
		switch {
		case err == nil && fi.IsDir():
			return nil
		case err == nil && p == filepath.Clean(dir):
			return fmt.Errorf("%s is not a directory", p)
		case err == nil:
			return fmt.Errorf("%s is not a directory, so nothing can be created under it", p)
		case !errors.Is(err, os.ErrNotExist) && !errors.Is(err, syscall.ENOTDIR):
			return unwrapPath(err)
		}
		if filepath.Dir(p) == p {
			return nil
		}
	}
}

// clusterCredsProblem is the cluster's own refusal of a credentials file
// (cluster.CheckCredsMode: readable by group or others, or unreadable);
// nil for none. A missing file wraps fs.ErrNotExist: EnvironmentWarnings
// says so, EnvironmentErrors reports the rest.
func clusterCredsProblem(path string) error {
	if path == "" {
		return nil
	}
	return cluster.CheckCredsMode(path)
}

// tokenFileProblem reports a token file that exists and holds no usable
// token: empty, or with a space inside (a token is one word; the file's
// surrounding white space is trimmed). A missing file is a warning
// (EnvironmentWarnings), not this. The token is never shown.
func tokenFileProblem(path string) error {
	if path == "" {
		return nil
	}
	b, err := os.ReadFile(path)
	if err != nil {
		return nil // missing or unreadable: EnvironmentWarnings says so
	}
	tok := strings.TrimSpace(string(b))
	switch {
	case tok == "":
		return errors.New("the file is empty: it must hold the Lichess API token")
	case strings.ContainsFunc(tok, func(r rune) bool { return r <= ' ' || r == 0x7f }):
		return errors.New("the token holds a space or a control character: the file must hold the token alone (one word)")
	}
	return nil
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
// it cannot be created in. Missing directories are no problem as long as
// they can be made (the log's rotator creates them, as MkdirAll would):
// the nearest existing ancestor must be a writable directory.
func writableFile(path string) error {
	fi, err := os.Stat(path)
	switch {
	case errors.Is(err, os.ErrNotExist), errors.Is(err, syscall.ENOTDIR):
		if err := creatableDir(filepath.Dir(path)); err != nil {
			return err
		}
		return writableDir(existingAncestor(filepath.Dir(path)))
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

// existingAncestor is dir itself when it exists, else its nearest
// existing ancestor ("/" at worst).
func existingAncestor(dir string) string {
	p := filepath.Clean(dir)
	for {
		if _, err := os.Stat(p); err == nil || filepath.Dir(p) == p {
			return p
		}
		p = filepath.Dir(p)
	}
}

// unwrapPath drops the *PathError's operation and path, already named.
func unwrapPath(err error) error {
	var pe *os.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}
