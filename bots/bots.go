// Package bots builds Outpost's engines by name: the built-in easy, medium,
// hard and eval-knob engines, and any external UCI engine
// ("uci:/path/to/engine"). It also provides Fallback, the wrapper that makes
// sure an engine never loses a game by itself.
package bots

import (
	"context"
	"fmt"
	"maps"
	"sort"
	"strconv"
	"strings"

	"github.com/outpostchess/outpost/bots/easy"
	"github.com/outpostchess/outpost/bots/engine"
	"github.com/outpostchess/outpost/bots/enginepath"
	"github.com/outpostchess/outpost/bots/knobs"
	"github.com/outpostchess/outpost/bots/search"
	"github.com/outpostchess/outpost/bots/uciengine"
)

// builder makes one kind of engine from a parsed spec and the options.
type builder func(ctx context.Context, s Spec, c *config) (engine.Engine, error)

// builders lists the engine names New knows. It is rebuilt on each call so
// that there is no package-level mutable state.
func builders() map[string]builder {
	b := map[string]builder{
		"easy":      buildEasy,
		"medium":    buildSearch(search.NewMedium),
		"hard":      buildSearch(search.NewHard),
		"knobs":     buildKnobs,
		"stockfish": buildStockfish,
		"sf15":      buildStockfish,
		"sf18":      buildStockfish,
		"uci":       buildUCI,
	}
	return b
}

// Builder builds an engine that New does not know itself, registered with
// WithEngines (the Maia engines, which live beside the models the app
// loads: package models/maiaengine). New applies the spec's options
// (Configure) and the fallback to what it returns.
type Builder func(ctx context.Context, s Spec, seed Seed) (engine.Engine, error)

// Seed is WithSeed's value, for a Builder: Set is false without WithSeed.
type Seed struct {
	Value uint64
	Set   bool
}

// WithEngines registers more engine names for New (and Names). A name New
// knows itself cannot be replaced.
func WithEngines(b map[string]Builder) Option {
	return func(c *config) error {
		own := builders()
		for name := range b {
			if _, ok := own[name]; ok {
				return fmt.Errorf("bots: engine %q is built in and cannot be registered again", name)
			}
		}
		if c.extra == nil {
			c.extra = map[string]Builder{}
		}
		maps.Copy(c.extra, b)
		return nil
	}
}

// Names returns the engine names New accepts with opts (besides
// "uci:PATH"), sorted: the built-in ones and those WithEngines registers.
func Names(opts ...Option) []string {
	c := &config{}
	for _, o := range opts {
		_ = o(c)
	}
	names := []string{}
	for n := range builders() {
		if n != "uci" {
			names = append(names, n)
		}
	}
	for n := range c.extra {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// New builds the engine named by spec (see ParseSpec): "easy", "medium",
// "hard", "knobs", any name WithEngines registers (the app registers
// "maia-1100" … "maia-1900" through models/maiaengine), "stockfish" or "sf15" (Stockfish 15.1: the
// native build, else Debian's), "sf18" (the native Stockfish 18 build) or
// "uci:/path/to/engine", each optionally followed by ",Key=Value" options
// that are passed to the engine's Configure (UCI setoption for external
// engines). The caller must Close the engine.
func New(ctx context.Context, spec string, opts ...Option) (engine.Engine, error) {
	s, err := ParseSpec(spec)
	if err != nil {
		return nil, err
	}
	c := &config{}
	for _, o := range opts {
		if err := o(c); err != nil {
			return nil, err
		}
	}
	e, err := c.build(ctx, s, opts)
	if err != nil {
		return nil, err
	}
	if c.fallback {
		opts := []easy.Option{}
		if c.seeded {
			opts = append(opts, easy.WithSeed(c.seed^0x5eed))
		}
		sec, err := easy.New(opts...)
		if err != nil {
			_ = e.Close()
			return nil, fmt.Errorf("bots: fallback engine: %w", err)
		}
		return NewFallback(e, sec, WithFallbackLogger(c.log)), nil
	}
	return e, nil
}

// build runs the builder of s.Name: a built-in one, or one WithEngines
// registered (its engine configured with the spec's options).
func (c *config) build(ctx context.Context, s Spec, opts []Option) (engine.Engine, error) {
	if b, ok := builders()[s.Name]; ok {
		return b(ctx, s, c)
	}
	b, ok := c.extra[s.Name]
	if !ok {
		return nil, fmt.Errorf("bots: unknown engine %q (want one of %s, or uci:/path/to/engine)", s.Name, strings.Join(Names(opts...), ", "))
	}
	e, err := b(ctx, s, Seed{Value: c.seed, Set: c.seeded})
	if err != nil {
		return nil, fmt.Errorf("bots: %w", err)
	}
	return configure(e, c.options(s))
}

// options merges WithUCIOptions with the spec's options (the spec wins).
func (c *config) options(s Spec) map[string]string {
	m := map[string]string{}
	maps.Copy(m, c.uciOptions)
	maps.Copy(m, s.Options)
	return m
}

// configure applies options to a built-in engine, closing it on failure.
func configure(e engine.Engine, opts map[string]string) (engine.Engine, error) {
	if len(opts) == 0 {
		return e, nil
	}
	ce, ok := e.(engine.Configurable)
	if !ok {
		_ = e.Close()
		return nil, fmt.Errorf("bots: engine %s takes no options (got %s)", e.Name(), strings.Join(sortedKeys(opts), ", "))
	}
	if err := ce.Configure(opts); err != nil {
		_ = e.Close()
		return nil, fmt.Errorf("bots: configure %s: %w", e.Name(), err)
	}
	return e, nil
}

func buildEasy(_ context.Context, s Spec, c *config) (engine.Engine, error) {
	var opts []easy.Option
	if c.seeded {
		opts = append(opts, easy.WithSeed(c.seed))
	}
	if c.name != "" {
		opts = append(opts, easy.WithName(c.name))
	}
	e, err := easy.New(opts...)
	if err != nil {
		return nil, fmt.Errorf("bots: easy: %w", err)
	}
	return configure(e, c.options(s))
}

func buildSearch(newEngine func(...search.Option) (*search.Engine, error)) builder {
	return func(_ context.Context, s Spec, c *config) (engine.Engine, error) {
		opts := []search.Option{search.WithLogger(c.log)}
		if c.hashMB > 0 {
			opts = append(opts, search.WithHashMB(min(c.hashMB, 4096)))
		}
		if c.name != "" {
			opts = append(opts, search.WithName(c.name))
		}
		tb, err := c.openSyzygy()
		if err != nil {
			return nil, fmt.Errorf("bots: %s: %w", s.Name, err)
		}
		if tb != nil {
			opts = append(opts, search.WithTablebase(tb, c.syzygy.probeDepth))
		}
		e, err := newEngine(opts...)
		if err != nil {
			if tb != nil {
				_ = tb.Close()
			}
			return nil, fmt.Errorf("bots: %s: %w", s.Name, err)
		}
		return configure(e, c.options(s))
	}
}

func buildKnobs(_ context.Context, s Spec, c *config) (engine.Engine, error) {
	cfg := knobs.Defaults()
	if c.knobs != nil {
		cfg = *c.knobs
	}
	var opts []knobs.Option
	if c.name != "" {
		opts = append(opts, knobs.WithName(c.name))
	}
	tb, err := c.openSyzygy()
	if err != nil {
		return nil, fmt.Errorf("bots: knobs: %w", err)
	}
	if tb != nil {
		opts = append(opts, knobs.WithTablebase(tb, c.syzygy.probeDepth))
	}
	e, err := knobs.New(cfg, opts...)
	if err != nil {
		if tb != nil {
			_ = tb.Close() // the engine never owned it; its open error is the one to report
		}
		return nil, fmt.Errorf("bots: knobs: %w", err)
	}
	return configure(e, c.options(s))
}

// buildStockfish builds "stockfish" (Stockfish 15.1), "sf15" or "sf18":
// the engine name resolved by enginepath.
func buildStockfish(ctx context.Context, s Spec, c *config) (engine.Engine, error) {
	r, err := enginepath.Resolve([]string{s.Name})
	if err != nil {
		return nil, fmt.Errorf("bots: %w", err)
	}
	s.Path = r.Command[0]
	return buildUCI(ctx, s, c)
}

func buildUCI(ctx context.Context, s Spec, c *config) (engine.Engine, error) {
	opts := map[string]string{}
	if c.hashMB > 0 {
		opts["Hash"] = strconv.Itoa(c.hashMB)
	}
	if c.threads > 0 {
		opts["Threads"] = strconv.Itoa(c.threads)
	}
	maps.Copy(opts, c.options(s))
	if enginepath.Canonical(s.Path) != "" { // "uci:sf18": an engine name
		r, err := enginepath.Resolve([]string{s.Path})
		if err != nil {
			return nil, fmt.Errorf("bots: %s: %w", s, err)
		}
		s.Path = r.Command[0]
	}
	e, err := uciengine.New(ctx, uciengine.Config{
		Path: s.Path, Args: c.uciClient.Args, Env: c.uciClient.Env,
		Options: opts, Elo: c.elo, Name: c.name, Logger: c.log, Client: c.uciClient,
	})
	if err != nil {
		return nil, fmt.Errorf("bots: %s: %w", s, err)
	}
	return e, nil
}
