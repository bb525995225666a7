package book

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"sync"

	"github.com/outpostchess/outpost/bots/engine"
	"github.com/outpostchess/outpost/bots/movesource"
)

// Selection is how a move is chosen among a position's book moves.
type Selection string

// The selections.
const (
	// Best plays the move of highest weight (the first in the file on a tie).
	Best Selection = "best"
	// Weighted plays a move at random with probability proportional to its
	// weight, as Polyglot's own random play does.
	Weighted Selection = "weighted"
	// Uniform plays any of the moves with equal probability.
	Uniform Selection = "uniform"
)

// Selections lists the valid selections.
func Selections() []Selection { return []Selection{Best, Weighted, Uniform} }

// Options tune a Source.
type Options struct {
	// Selection chooses among a position's moves; "" means Best.
	Selection Selection
	// MaxDepth is the last ply of the game (counted from its start, both
	// sides' moves) played from the book; 0 means no limit.
	MaxDepth int
	// MinWeight leaves out moves of lower weight. Moves of weight 0 are
	// always left out: Polyglot reserves 0 for "never play".
	MinWeight int
	// Rand is the random source of Weighted and Uniform; nil means one
	// seeded from the runtime's random generator.
	Rand *rand.Rand
}

// Source plays from one or more books, asked in order: the first book with
// a move for the position decides. It implements movesource.Source and is
// safe for concurrent use.
type Source struct {
	books []*Book
	opt   Options
	mu    sync.Mutex // guards opt.Rand
}

var _ movesource.Source = (*Source)(nil)

// NewSource returns a source over books (at least one), which it owns:
// Close closes them.
func NewSource(books []*Book, opt Options) (*Source, error) {
	if len(books) == 0 {
		return nil, errors.New("book: no book given")
	}
	if opt.Selection == "" {
		opt.Selection = Best
	}
	switch opt.Selection {
	case Best, Weighted, Uniform:
	default:
		return nil, fmt.Errorf("book: unknown selection %q (want best, weighted or uniform)", opt.Selection)
	}
	if opt.MaxDepth < 0 || opt.MinWeight < 0 || opt.MinWeight > 65535 {
		return nil, fmt.Errorf("book: max depth %d and min weight %d must be >= 0 (min weight <= 65535)", opt.MaxDepth, opt.MinWeight)
	}
	if opt.Rand == nil {
		opt.Rand = rand.New(rand.NewPCG(rand.Uint64(), rand.Uint64()))
	}
	return &Source{books: books, opt: opt}, nil
}

// Name implements movesource.Source.
func (s *Source) Name() string { return "book" }

// Close closes the books.
func (s *Source) Close() error {
	var errs []error
	for _, b := range s.books {
		errs = append(errs, b.Close())
	}
	return errors.Join(errs...)
}

// Move implements movesource.Source: the book move for pos, or
// movesource.ErrNoMove past the maximum depth, out of book, or when only
// illegal entries were found (these are reported in the error then).
func (s *Source) Move(ctx context.Context, pos engine.Position, _ engine.Limits) (engine.Move, error) {
	if s.opt.MaxDepth > 0 && len(pos.Moves) >= s.opt.MaxDepth {
		return engine.Move{}, movesource.ErrNoMove
	}
	b, err := pos.Board()
	if err != nil {
		return engine.Move{}, fmt.Errorf("book: %w", err)
	}
	var skipped []error
	for _, bk := range s.books {
		if err := ctx.Err(); err != nil {
			return engine.Move{}, fmt.Errorf("book: %w", err)
		}
		moves, sk, err := bk.Moves(b)
		if errors.Is(err, ErrUnhashable) {
			return engine.Move{}, movesource.ErrNoMove
		}
		skipped = append(skipped, sk...)
		moves = s.eligible(moves)
		if len(moves) == 0 {
			continue
		}
		return engine.Move{UCI: s.pick(moves).UCI, Source: s.Name()}, nil
	}
	if len(skipped) > 0 {
		return engine.Move{}, fmt.Errorf("book: no legal move for this position: %w", errors.Join(skipped...))
	}
	return engine.Move{}, movesource.ErrNoMove
}

// eligible keeps the moves of at least the minimum weight (and above 0).
func (s *Source) eligible(moves []Candidate) []Candidate {
	out := moves[:0]
	for _, m := range moves {
		if m.Weight > 0 && int(m.Weight) >= s.opt.MinWeight {
			out = append(out, m)
		}
	}
	return out
}

// pick chooses among non-empty moves by the source's selection.
func (s *Source) pick(moves []Candidate) Candidate {
	switch s.opt.Selection {
	case Uniform:
		s.mu.Lock()
		defer s.mu.Unlock()
		return moves[s.opt.Rand.IntN(len(moves))]
	case Weighted:
		total := 0
		for _, m := range moves {
			total += int(m.Weight)
		}
		s.mu.Lock()
		r := s.opt.Rand.IntN(total)
		s.mu.Unlock()
		for _, m := range moves {
			if r -= int(m.Weight); r < 0 {
				return m
			}
		}
	}
	best := moves[0]
	for _, m := range moves[1:] {
		if m.Weight > best.Weight {
			best = m
		}
	}
	return best
}
