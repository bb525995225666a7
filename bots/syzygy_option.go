package bots

import (
	"fmt"

	"github.com/outpostchess/outpost/bots/search"
	"github.com/outpostchess/outpost/bots/syzygy"
)

// syzygyOptions is what WithSyzygy asks for.
type syzygyOptions struct {
	dirs       []string
	maxPieces  int
	probeDepth int
}

// WithSyzygy makes the medium and hard engines probe the Syzygy tables in
// dirs inside their search (see search.WithTablebase), for positions of at
// most maxPieces pieces (0 = all the tables cover) from probeDepth plies
// of remaining depth on (0 = 1). Other engines ignore it. The tables are
// opened when the engine is built and closed with it.
func WithSyzygy(dirs []string, maxPieces, probeDepth int) Option {
	return func(c *config) error {
		if len(dirs) == 0 {
			return fmt.Errorf("bots: syzygy: no table directory")
		}
		c.syzygy = &syzygyOptions{dirs: dirs, maxPieces: maxPieces, probeDepth: probeDepth}
		return nil
	}
}

// searchTablebase opens the tables WithSyzygy asked for as a search option;
// none when it was not given. The caller closes the tables when building
// the engine fails (closeTB).
func (c *config) searchTablebase() ([]search.Option, func(), error) {
	if c.syzygy == nil {
		return nil, func() {}, nil
	}
	t, err := syzygy.Open(c.syzygy.dirs, syzygy.WithMaxPieces(c.syzygy.maxPieces))
	if err != nil {
		return nil, nil, fmt.Errorf("bots: %w", err)
	}
	return []search.Option{search.WithTablebase(t, c.syzygy.probeDepth)}, func() { _ = t.Close() }, nil
}
