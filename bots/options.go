package bots

import (
	"fmt"
	"maps"
	"slices"

	"github.com/rs/zerolog"

	"github.com/outpostchess/outpost/bots/knobs"
	"github.com/outpostchess/outpost/bots/uci"
)

// Option configures New.
type Option func(*config) error

// config collects the options of one New call.
type config struct {
	log        zerolog.Logger
	knobs      *knobs.Config
	seed       uint64
	seeded     bool
	uciOptions map[string]string
	hashMB     int
	threads    int
	elo        int
	fallback   bool
	name       string
	uciClient  uci.Config
	extra      map[string]Builder // WithEngines
	syzygy     *syzygyOptions     // WithSyzygy
}

// WithLogger sets the logger engines and the fallback report to.
func WithLogger(l zerolog.Logger) Option {
	return func(c *config) error { c.log = l; return nil }
}

// WithKnobs sets the eval-knob engine's configuration (default
// knobs.Defaults()). Other engines ignore it.
func WithKnobs(k knobs.Config) Option {
	return func(c *config) error {
		if err := k.Validate(); err != nil {
			return fmt.Errorf("bots: knobs: %w", err)
		}
		c.knobs = &k
		return nil
	}
}

// WithSeed makes random engines (easy, and the fallback's easy engine)
// reproducible.
func WithSeed(seed uint64) Option {
	return func(c *config) error { c.seed, c.seeded = seed, true; return nil }
}

// WithUCIOptions adds options for external UCI engines (setoption) and for
// configurable built-ins (Configure). Spec options win over these.
func WithUCIOptions(opts map[string]string) Option {
	return func(c *config) error {
		if c.uciOptions == nil {
			c.uciOptions = map[string]string{}
		}
		maps.Copy(c.uciOptions, opts)
		return nil
	}
}

// WithHashMB sets the hash table size of engines that have one (hard, and
// UCI engines with a "Hash" option).
func WithHashMB(mb int) Option {
	return intIn("hash (MB)", mb, 1, 65536, func(c *config) *int { return &c.hashMB })
}

// WithThreads sets a UCI engine's "Threads" option.
func WithThreads(n int) Option {
	return intIn("threads", n, 1, 1024, func(c *config) *int { return &c.threads })
}

// intIn is an option that sets the field of the config that field points
// to to n, or fails naming what when n is outside lo..hi.
func intIn(what string, n, lo, hi int, field func(*config) *int) Option {
	return func(c *config) error {
		if n < lo || n > hi {
			return fmt.Errorf("bots: %s %d out of range %d-%d", what, n, lo, hi)
		}
		*field(c) = n
		return nil
	}
}

// WithElo limits a UCI engine's strength (UCI_LimitStrength/UCI_Elo,
// clamped into the engine's range).
func WithElo(elo int) Option {
	return func(c *config) error {
		if elo <= 0 {
			return fmt.Errorf("bots: Elo %d must be positive", elo)
		}
		c.elo = elo
		return nil
	}
}

// WithFallback wraps the engine in a Fallback whose secondary is the easy
// engine, so that an error, an illegal move or a timeout never loses a game.
func WithFallback() Option {
	return func(c *config) error { c.fallback = true; return nil }
}

// WithName overrides the engine's name.
func WithName(name string) Option {
	return func(c *config) error {
		if name == "" {
			return fmt.Errorf("bots: empty engine name")
		}
		c.name = name
		return nil
	}
}

// WithUCIClient sets how external engines are run: its Args, Env, Dir and
// timeouts are used (Path comes from the spec; Options and Logger from the
// other options).
func WithUCIClient(cfg uci.Config) Option {
	return func(c *config) error { c.uciClient = cfg; return nil }
}

func sortedKeys[V any](m map[string]V) []string {
	return slices.Sorted(maps.Keys(m))
}
