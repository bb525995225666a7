// Package match plays engines against each other: concurrent games from a
// fixed list of openings with colours swapped per opening, refereed by
// bots/board with draw adjudication and a time tolerance, summarised as a
// score, an Elo difference with its 95% error margin and a likelihood of
// superiority. It also runs the Stockfish ladder (Ladder) that estimates an
// engine's Elo.
package match

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/rs/zerolog"

	"github.com/outpostchess/outpost/bots/engine"
)

// Factory makes a fresh engine; each concurrent game slot gets its own.
type Factory func(ctx context.Context) (engine.Engine, error)

// Defaults for Config's zero fields.
const (
	DefaultMaxPlies    = 200
	DefaultConcurrency = 2
	minTolerance       = 100 * time.Millisecond
	// nodesTolerance is the default Tolerance of a node-limited match
	// without a move time: a node limit bounds the search, so only a
	// broken engine needs this long (even 100k nodes at a loaded
	// machine's 20k nodes/s take 5 s).
	nodesTolerance = 30 * time.Second
)

// Config describes a match between engines A and B.
type Config struct {
	A, B  Factory
	Games int // total games; colours alternate within each opening pair
	// MoveTime is the fixed time per move each engine is given.
	MoveTime time.Duration
	// Nodes, when positive, limits every move to this many nodes (with
	// MoveTime too when that is set, else alone). A fixed-node match does
	// not depend on the machine's load: the same engines play the same
	// games on a busy machine as on an idle one.
	Nodes int64
	// SPRT, when set, makes Games a cap: the match stops as soon as the
	// test decides after a complete pair of games (the pair in flight when
	// it decides is abandoned), and Summary.SPRT holds the result.
	SPRT *SPRT
	// OnSPRT, when set with SPRT, is called after each complete pair with
	// the test's state (serialised like OnGame).
	OnSPRT func(SPRTResult)
	// Tolerance is how much a move may overrun MoveTime before the engine
	// forfeits; zero means max(100 ms, MoveTime/2).
	Tolerance time.Duration
	// Concurrency is the number of games played at once (default 2).
	Concurrency int
	// Openings are used in order, each for two games (A white, then B
	// white), cycling when there are more games; default ECOOpenings().
	Openings []Opening
	// MaxPlies adjudicates a draw after this many plies including the
	// opening (default 200).
	MaxPlies int
	// Logger receives one line per game at info level.
	Logger zerolog.Logger
	// OnGame, when set, is called after each game (from the game's
	// goroutine; calls are serialised).
	OnGame func(Game)
	// Clock, when set, is the clock the referee charges each move's time
	// to, instead of the wall clock; the engine's context then carries no
	// wall-clock deadline either, so that forfeits on time depend on this
	// clock alone (tests inject one: a busy machine's pauses are no
	// engine's thinking).
	Clock func() time.Time
}

// Summary is a finished match.
type Summary struct {
	Stats
	NameA, NameB string
	Games        []Game // in index order
	// Pentanomial counts the complete game pairs (both colours of one
	// opening) by A's points in the pair.
	Pentanomial Pentanomial
	// SPRT is the test's state at the end when Config.SPRT was set.
	SPRT *SPRTResult
}

// Run plays the match. It returns the games played so far and ctx's error
// when ctx ends early, and an error when an engine cannot be created or an
// opening is invalid.
// Long: the workers (each with its pair of engines) and the feeder share the
// games, the first error and one lock; kept together so the locking reads in one place.
func Run(ctx context.Context, cfg Config) (Summary, error) {
	if err := cfg.check(); err != nil {
		return Summary{}, err
	}
	ref := referee{moveTime: cfg.MoveTime, nodes: cfg.Nodes, tolerance: cfg.Tolerance, maxPlies: cfg.MaxPlies, clock: cfg.Clock}

	parent := ctx
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	jobs := make(chan int)
	games := make([]Game, cfg.Games)
	played := make([]bool, cfg.Games)
	var (
		mu       sync.Mutex
		firstErr error
		names    [2]string
		sprt     sprtState
	)
	fail := func(err error) {
		mu.Lock()
		defer mu.Unlock()
		if firstErr == nil {
			firstErr = err
			cancel()
		}
	}
	var wg sync.WaitGroup
	for range min(cfg.Concurrency, cfg.Games) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			a, err := cfg.A(ctx)
			if err != nil {
				fail(fmt.Errorf("match: engine A: %w", err))
				return
			}
			defer a.Close()
			b, err := cfg.B(ctx)
			if err != nil {
				fail(fmt.Errorf("match: engine B: %w", err))
				return
			}
			defer b.Close()
			mu.Lock()
			names = [2]string{a.Name(), b.Name()}
			mu.Unlock()
			for i := range jobs {
				op := cfg.Openings[(i/2)%len(cfg.Openings)]
				white, black := a, b
				if i%2 == 1 {
					white, black = b, a
				}
				g, err := ref.play(ctx, white, black, op.Position())
				if err != nil {
					if ctx.Err() == nil {
						fail(err)
					}
					continue
				}
				g.Index, g.Opening, g.AIsWhite = i, op.Name, i%2 == 0
				mu.Lock()
				games[i], played[i] = g, true
				if cfg.OnGame != nil {
					cfg.OnGame(g)
				}
				if cfg.SPRT != nil && sprt.record(*cfg.SPRT, games, played, i, cfg.OnSPRT) {
					cancel() // decided: the games in flight are not needed
				}
				mu.Unlock()
				cfg.Logger.Info().Int("game", i+1).Str("white", g.White).Str("black", g.Black).
					Str("opening", g.Opening).Str("result", string(g.Result)).Str("reason", g.Reason).
					Int("plies", g.Plies).Msg("match: game over")
			}
		}()
	}
feed:
	for i := range cfg.Games {
		select {
		case jobs <- i:
		case <-ctx.Done():
			break feed
		}
	}
	close(jobs)
	wg.Wait()

	s := summarise(names, games, played)
	if cfg.SPRT != nil {
		r := sprt.result
		if r == nil {
			c := cfg.SPRT.Check(s.Pentanomial)
			r = &c
		}
		s.SPRT = r
	}
	if firstErr != nil {
		return s, firstErr
	}
	return s, parent.Err()
}

// sprtState follows an SPRT while the games come in.
type sprtState struct {
	penta  Pentanomial
	result *SPRTResult // set once the test has decided
}

// record counts game i's pair when both of its games are in, tells
// onPair (when set) and reports whether the test has just decided.
func (st *sprtState) record(t SPRT, games []Game, played []bool, i int, onPair func(SPRTResult)) bool {
	j := i ^ 1 // the pair's other game
	if st.result != nil || j >= len(games) || !played[j] {
		return false
	}
	st.penta.add(games[i].ScoreA() + games[j].ScoreA())
	r := t.Check(st.penta)
	if onPair != nil {
		onPair(r)
	}
	if r.Decision == "" {
		return false
	}
	st.result = &r
	return true
}

// check validates cfg and fills its defaults.
func (cfg *Config) check() error {
	if cfg.A == nil || cfg.B == nil {
		return errors.New("match: both engines are needed")
	}
	if cfg.Games < 1 {
		return fmt.Errorf("match: %d games: want at least 1", cfg.Games)
	}
	if cfg.Nodes < 0 || (cfg.MoveTime <= 0 && cfg.Nodes == 0) {
		return fmt.Errorf("match: move time %v must be positive (or a node limit given; nodes %d)", cfg.MoveTime, cfg.Nodes)
	}
	if cfg.MoveTime < 0 {
		return fmt.Errorf("match: move time %v must not be negative", cfg.MoveTime)
	}
	if cfg.SPRT != nil {
		if err := cfg.SPRT.check(); err != nil {
			return fmt.Errorf("match: %w", err)
		}
		cfg.Games += cfg.Games % 2 // whole pairs
	}
	if cfg.Tolerance <= 0 {
		cfg.Tolerance = max(minTolerance, cfg.MoveTime/2)
		if cfg.MoveTime == 0 {
			cfg.Tolerance = nodesTolerance
		}
	}
	if cfg.Concurrency < 1 {
		cfg.Concurrency = DefaultConcurrency
	}
	if cfg.MaxPlies < 1 {
		cfg.MaxPlies = DefaultMaxPlies
	}
	if len(cfg.Openings) == 0 {
		cfg.Openings = ECOOpenings()
	}
	for _, o := range cfg.Openings {
		if _, err := o.Position().Board(); err != nil {
			return fmt.Errorf("match: opening %s: %w", o.Name, err)
		}
	}
	return nil
}

// summarise scores the games played, from A's side.
func summarise(names [2]string, games []Game, played []bool) Summary {
	s := Summary{NameA: names[0], NameB: names[1]}
	var w, l, d int
	for i, g := range games {
		if !played[i] {
			continue
		}
		s.Games = append(s.Games, g)
		switch g.ScoreA() {
		case 1:
			w++
		case 0:
			l++
		default:
			d++
		}
	}
	s.Stats = ComputeStats(w, l, d)
	for i := 0; i+1 < len(games); i += 2 {
		if played[i] && played[i+1] {
			s.Pentanomial.add(games[i].ScoreA() + games[i+1].ScoreA())
		}
	}
	return s
}
