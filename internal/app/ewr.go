package app

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/rs/zerolog"

	"github.com/outpostchess/outpost/analysis/ewr"
	"github.com/outpostchess/outpost/internal/store"
	"github.com/outpostchess/outpost/internal/web"
	"github.com/outpostchess/outpost/models"
)

// EWROptions say how OpenEWR builds a calculator.
type EWROptions struct {
	// Engines is the Stockfish pool's configuration (its Logger is set
	// from Logger).
	Engines ewr.EngineConfig
	// StorePath is the SQLite cache file ("" for none, ":memory:" for a
	// fresh in-memory one); its directory is created when missing.
	StorePath string
	// Logger receives the engines' log.
	Logger zerolog.Logger
	// Warn receives the errors of closing the parts, prefixed by
	// "outpost ewr: closing: "; nil drops them.
	Warn io.Writer
}

// DefaultEWRStore is the expected-winrate cache file under the user cache
// directory ("" when there is none).
func DefaultEWRStore() string {
	dir, err := os.UserCacheDir()
	if err != nil {
		return ""
	}
	return filepath.Join(dir, "outpost", "ewr.db")
}

// OpenEWR starts Maia (models' configuration and environment), the
// Stockfish pool and the cache, and returns the calculator with a
// function that closes them in reverse order.
func OpenEWR(ctx context.Context, o EWROptions) (*ewr.Calculator, func(), error) {
	var closers []func() error
	closeAll := func() {
		for i := len(closers) - 1; i >= 0; i-- {
			if err := closers[i](); err != nil && o.Warn != nil {
				fmt.Fprintf(o.Warn, "outpost ewr: closing: %v\n", err)
			}
		}
	}
	cfg, err := models.LoadConfig()
	if err != nil {
		return nil, nil, err
	}
	pred, err := models.NewPredictor(cfg)
	if err != nil {
		return nil, nil, err
	}
	closers = append(closers, pred.Close)
	ecfg := o.Engines
	ecfg.Logger = o.Logger
	ev, err := ewr.StartEngines(ctx, ecfg)
	if err != nil {
		closeAll()
		return nil, nil, err
	}
	closers = append(closers, ev.Close)
	var cache ewr.Cache
	if o.StorePath != "" {
		st, err := OpenCache(ctx, o.StorePath)
		if err != nil {
			closeAll()
			return nil, nil, err
		}
		closers = append(closers, st.Close)
		cache = st
	}
	return ewr.New(pred, ev, cache), closeAll, nil
}

// OpenCache opens the expected-winrate cache (a SQLite store) at path;
// ":memory:" is a fresh in-memory one. Only the default cache
// (DefaultEWRStore) has its directory made: a path given by the user must
// name an existing directory (`ewr --store /missing/dir/x.db` made
// directories anywhere a typo pointed).
func OpenCache(ctx context.Context, path string) (*store.Store, error) {
	if path != ":memory:" {
		dir := filepath.Dir(path)
		if def := DefaultEWRStore(); def != "" && filepath.Clean(path) == filepath.Clean(def) {
			if err := os.MkdirAll(dir, 0o755); err != nil {
				return nil, fmt.Errorf("cache directory: %w", err)
			}
		} else if fi, err := os.Stat(dir); err != nil || !fi.IsDir() {
			return nil, fmt.Errorf("cache directory %s: not an existing directory (create it first; only the default cache %s is made for you)", dir, def)
		}
	}
	return store.Open(ctx, path)
}

// LazyEWR returns the web console's calculator, which starts Maia and
// Stockfish (cmdline, workers engines clearing their 16 MB hash before
// every search, as the explorer's default mode, the settle mode, needs;
// its exact calculation is then the reference) on first use, cached in
// storePath.
func LazyEWR(ctx context.Context, cmdline []string, workers int, storePath string, log zerolog.Logger, warn io.Writer) *web.LazyEWR {
	return web.NewLazyEWR(func() (*ewr.Calculator, func(), error) {
		return OpenEWR(ctx, EWROptions{Engines: ewr.EngineConfig{Command: cmdline, Workers: workers, HashMB: ewr.ClearHashMB, ClearEach: true},
			StorePath: storePath, Logger: log, Warn: warn})
	})
}
