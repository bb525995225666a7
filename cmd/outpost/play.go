package main

import (
	"context"
	"flag"
	"fmt"
	"math"
	"strings"
	"sync/atomic"
	"time"

	"github.com/rs/zerolog"

	"github.com/outpostchess/outpost/bots"
	"github.com/outpostchess/outpost/bots/engine"
	"github.com/outpostchess/outpost/bots/match"
	"github.com/outpostchess/outpost/models/maiaengine"
)

// engineSpecUsage is the usage of a flag naming one of our engines or an
// external UCI engine; what says which engine it is.
func engineSpecUsage(what string) string {
	return what + ": " + strings.Join(bots.Names(maiaengine.Register(nil)), ", ") + ", or uci:/path/to/engine[,Option=Value…]"
}

// playFlags are the flags of the commands that play engine games (match,
// ladder): the time per move, how far a move may overrun it, the games
// played at once and the seed of random engines.
type playFlags struct {
	tc, tolerance *float64
	concurrency   *int
	seed          *uint64
}

// addPlayFlags registers the play flags on fs; tcUsage and seedUsage are
// the command's words for --tc and --seed.
func addPlayFlags(fs *flag.FlagSet, tcUsage, seedUsage string) *playFlags {
	return &playFlags{
		tc:          fs.Float64("tc", 0.1, tcUsage),
		tolerance:   fs.Float64("tolerance", 0, "seconds a move may overrun --tc before forfeiting (0 = max(0.1, tc/2))"),
		concurrency: fs.Int("concurrency", 2, "games played at once"),
		seed:        fs.Uint64("seed", 1, seedUsage),
	}
}

// check refuses a time per move that is not a positive number, a
// negative tolerance and a concurrency outside 1..maxEngines.
func (f *playFlags) check() error {
	if *f.tc <= 0 || math.IsInf(*f.tc, 0) || math.IsNaN(*f.tc) || *f.tolerance < 0 {
		return fmt.Errorf("--tc must be positive and --tolerance non-negative")
	}
	if *f.concurrency < 1 || *f.concurrency > maxEngines {
		return fmt.Errorf("--concurrency %d: want 1..%d games at once", *f.concurrency, maxEngines)
	}
	return nil
}

// moveTime and overrun are --tc and --tolerance as durations.
func (f *playFlags) moveTime() time.Duration { return seconds(*f.tc) }
func (f *playFlags) overrun() time.Duration  { return seconds(*f.tolerance) }

// engines returns the factory of engine spec: each instance built (of any
// spec) gets the next seed after --seed.
func (f *playFlags) engines(log zerolog.Logger) func(spec string) match.Factory {
	var instance atomic.Uint64
	return func(spec string) match.Factory {
		return func(ctx context.Context) (engine.Engine, error) {
			return bots.New(ctx, spec, maiaengine.Register(nil), bots.WithLogger(log), bots.WithSeed(*f.seed+instance.Add(1)))
		}
	}
}

// seconds converts a flag's seconds to a duration.
func seconds(s float64) time.Duration { return time.Duration(s * float64(time.Second)) }
