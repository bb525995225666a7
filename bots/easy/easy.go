// Package easy is Outpost's weakest engine, as the bot-opponents spec
// describes it: no search, a weighted random choice that favours captures
// and checks. With probability CaptureShare (0.7) it plays a random capture
// when there is one; otherwise, with probability CheckShare (0.5), a random
// checking move when there is one; otherwise any legal move uniformly
// (so at least 30% of its moves are fully random). It answers instantly.
package easy

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"sync"

	"github.com/outpostchess/outpost/bots/board"
	"github.com/outpostchess/outpost/bots/engine"
)

// The spec's probabilities.
const (
	CaptureShare = 0.7 // chance to pick a capture when one exists
	CheckShare   = 0.5 // chance, after that, to pick a check when one exists
)

// ErrClosed is returned by SelectMove after Close.
var ErrClosed = errors.New("easy: engine closed")

// Engine is the easy engine. It is safe for concurrent use.
type Engine struct {
	mu     sync.Mutex
	rng    *rand.Rand
	name   string
	closed bool
}

var _ engine.Inspectable = (*Engine)(nil)

type config struct {
	seed   uint64
	seeded bool
	name   string
}

// Option configures New.
type Option func(*config) error

// WithSeed makes the engine's choices reproducible.
func WithSeed(seed uint64) Option {
	return func(c *config) error { c.seed, c.seeded = seed, true; return nil }
}

// WithName overrides the engine's name ("easy").
func WithName(name string) Option {
	return func(c *config) error {
		if name == "" {
			return fmt.Errorf("easy: empty engine name")
		}
		c.name = name
		return nil
	}
}

// New returns an easy engine, randomly seeded unless WithSeed is given.
func New(opts ...Option) (*Engine, error) {
	cfg := config{name: "easy"}
	for _, o := range opts {
		if err := o(&cfg); err != nil {
			return nil, err
		}
	}
	seed := cfg.seed
	if !cfg.seeded {
		seed = rand.Uint64()
	}
	return &Engine{rng: rand.New(rand.NewPCG(seed, 0x6561737920626f74)), name: cfg.name}, nil
}

// Name returns "easy" or the WithName value.
func (e *Engine) Name() string { return e.name }

// Close marks the engine closed. It is idempotent.
func (e *Engine) Close() error {
	e.mu.Lock()
	e.closed = true
	e.mu.Unlock()
	return nil
}

// Info describes the engine.
func (e *Engine) Info() engine.Info {
	return engine.Info{Name: e.name, Author: "Outpost", Version: "1", Kind: engine.KindBuiltin,
		Features: map[string]bool{"weighted-random": true}}
}

// SelectMove picks a move as the package comment describes. The limits are
// ignored: the answer is immediate.
func (e *Engine) SelectMove(ctx context.Context, pos engine.Position, _ engine.Limits) (engine.Move, error) {
	if err := ctx.Err(); err != nil {
		return engine.Move{}, fmt.Errorf("easy: %w", err)
	}
	b, err := pos.Board()
	if err != nil {
		return engine.Move{}, fmt.Errorf("easy: %w", err)
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.closed {
		return engine.Move{}, ErrClosed
	}
	m, err := choose(b, e.rng)
	if err != nil {
		return engine.Move{}, err
	}
	return engine.Move{UCI: m.String(), PV: []string{m.String()}}, nil
}

// choose applies the spec's weighted random rule.
func choose(b *board.Board, rng *rand.Rand) (board.Move, error) {
	moves := b.LegalMoves()
	if len(moves) == 0 {
		return board.NullMove, fmt.Errorf("easy: no legal moves in %s (%s)", b.FEN(), b.Status())
	}
	if len(moves) == 1 {
		return moves[0], nil
	}
	var captures, checks []board.Move
	for _, m := range moves {
		if m.IsCapture() {
			captures = append(captures, m)
		}
		b.Make(m)
		if b.InCheck() {
			checks = append(checks, m)
		}
		b.Unmake()
	}
	if rng.Float64() < CaptureShare && len(captures) > 0 {
		return captures[rng.IntN(len(captures))], nil
	}
	if rng.Float64() < CheckShare && len(checks) > 0 {
		return checks[rng.IntN(len(checks))], nil
	}
	return moves[rng.IntN(len(moves))], nil
}
