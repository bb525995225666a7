package daemon

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/rs/zerolog"

	"github.com/outpostchess/outpost/bots/book"
	"github.com/outpostchess/outpost/bots/engine"
	"github.com/outpostchess/outpost/bots/movesource"
	"github.com/outpostchess/outpost/config"
)

// bookTimeout bounds a book lookup: a binary search in a mapped file takes
// microseconds, so this only matters when the file sits on a stalled disk.
const bookTimeout = 250 * time.Millisecond

// bookSources builds the Polyglot book source of an engine whose definition
// has [engines.NAME.book] files.
func bookSources(_ context.Context, _ *config.Config, name string, def config.EngineConfig) ([]movesource.Bounded, error) {
	bc := def.Book
	if !bc.Enabled() {
		return nil, nil
	}
	var books []*book.Book
	closeAll := func() error {
		var errs []error
		for _, b := range books {
			errs = append(errs, b.Close())
		}
		return errors.Join(errs...)
	}
	for _, f := range bc.Files {
		b, err := book.Open(f)
		if err != nil {
			return nil, errors.Join(fmt.Errorf("engines.%s.book: %w", name, err), closeAll())
		}
		books = append(books, b)
	}
	src, err := book.NewSource(books, book.Options{
		Selection: book.Selection(bc.Selection), MaxDepth: bc.MaxDepth, MinWeight: bc.MinWeight,
	})
	if err != nil {
		return nil, errors.Join(fmt.Errorf("engines.%s.book: %w", name, err), closeAll())
	}
	return []movesource.Bounded{{Source: src, Timeout: bookTimeout}}, nil
}

// WithMoveSources wraps e in the move sources (books, tablebases, Lichess
// services) that the configuration gives the engine name, as the daemon's
// own engine factory does; for callers that build the engine themselves
// (the demo and its tests).
func WithMoveSources(ctx context.Context, cfg *config.Config, name string, e engine.Engine, log zerolog.Logger) (engine.Engine, error) {
	return withMoveSources(ctx, cfg, name, e, log)
}
