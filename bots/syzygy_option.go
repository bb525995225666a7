package bots

import (
	"fmt"

	"github.com/outpostchess/outpost/bots/syzygy"
)

// syzygyOptions is what WithSyzygy asks for.
type syzygyOptions struct {
	dirs       []string
	maxPieces  int
	probeDepth int
}

// WithSyzygy makes the medium and hard engines probe the Syzygy tables in
// dirs inside their search (search.WithTablebase): maxPieces caps the
// positions probed (0 = all the tables cover); probeDepth is the least
// remaining depth for a probe (0 = 1). Other engines ignore it. The root
// is left to a syzygy.Source in front of the engine. The tables are
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
