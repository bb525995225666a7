package bots

import (
	"fmt"

	"github.com/outpostchess/outpost/bots/engine"
	"github.com/outpostchess/outpost/bots/movesource"
	"github.com/outpostchess/outpost/bots/syzygy"
)

// syzygyOptions is what WithSyzygy asks for.
type syzygyOptions struct {
	dirs       []string
	maxPieces  int
	probeDepth int
}

// WithSyzygy gives the medium and hard engines the Syzygy tables in dirs,
// opened once for both uses: the engine is wrapped in the "syzygy" move
// source (the table's move whenever they cover the position) and its
// search probes WDL below the root (search.WithTablebase). maxPieces
// caps the positions probed (0 = all the tables cover); probeDepth is the
// least remaining depth for an in-search probe (0 = 1). Other engines
// ignore it (give them a syzygy.Source instead). The tables are closed
// with the engine.
func WithSyzygy(dirs []string, maxPieces, probeDepth int) Option {
	return func(c *config) error {
		if len(dirs) == 0 {
			return fmt.Errorf("bots: syzygy: no table directory")
		}
		c.syzygy = &syzygyOptions{dirs: dirs, maxPieces: maxPieces, probeDepth: probeDepth}
		return nil
	}
}

// openSyzygy opens the tables WithSyzygy asked for; nil when it was not
// given.
func (c *config) openSyzygy() (*syzygy.Tables, error) {
	if c.syzygy == nil {
		return nil, nil
	}
	t, err := syzygy.Open(c.syzygy.dirs, syzygy.WithMaxPieces(c.syzygy.maxPieces))
	if err != nil {
		return nil, fmt.Errorf("bots: %w", err)
	}
	return t, nil
}

// withSyzygySource wraps e in the syzygy move source over t (which e's
// search owns and closes), logging each answer as the daemon logs its
// move sources.
func (c *config) withSyzygySource(e engine.Engine, t *syzygy.Tables) engine.Engine {
	return movesource.Wrap(e, []movesource.Bounded{{Source: syzygy.NewSource(t), Timeout: movesource.DefaultTimeout}},
		func(ev movesource.Event) {
			l := c.log.Debug()
			if ev.Err != nil && ev.Err != movesource.ErrNoMove {
				l = c.log.Warn().Err(ev.Err)
			}
			l.Str("engine", e.Name()).Str("source", ev.Source).Str("move", ev.Move).Dur("elapsed", ev.Elapsed).Msg("move source")
		})
}
