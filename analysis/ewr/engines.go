package ewr

import (
	"context"
	"errors"
	"fmt"
	"os/exec"
	"strconv"
	"sync/atomic"
	"time"

	"github.com/rs/zerolog"

	"github.com/outpostchess/outpost/analysis"
	"github.com/outpostchess/outpost/bots/enginepath"
	"github.com/outpostchess/outpost/bots/score"
	"github.com/outpostchess/outpost/bots/uci"
)

// Searcher is one UCI engine; *uci.Engine satisfies it.
type Searcher interface {
	Analyse(ctx context.Context, pos uci.Position, lim uci.Limits) (*uci.Result, error)
	Restart(ctx context.Context) error
	Close() error
}

// EngineEvaluator is an Evaluator on its own UCI engines (bots/uci),
// one search at a time per engine. Unlike PoolEvaluator it clears the
// engines' hash tables only when a calculation starts (NewGame), unless
// ClearEach is set: the positions of one calculation are related
// (a move, then its replies), so each engine's hash keeps paying off, and
// every result is reported the moment it is ready. It is a Dispatcher, so
// the calculation chooses which engine searches what.
type EngineEvaluator struct {
	engines []Searcher
	// Retries is how often a position is retried on a restarted engine
	// after a crash or timeout (default 1).
	Retries int
	// Gate, when not nil, decides how many engines may search (set it
	// before the first calculation).
	Gate Gate
	// ClearEach, when set, clears the engine's hash and histories
	// ("ucinewgame") before every search, so that each evaluation is a
	// function of (position, depth) alone, whatever the engine searched
	// before: the same position gives the same score in any calculation,
	// any order and on any engine (see docs/expected-winrate.md).
	ClearEach bool

	nodes, searches atomic.Int64
	// engineNodes are the nodes each engine searched (see EngineNodes).
	engineNodes []atomic.Int64
}

// EngineConfig starts the engines of an EngineEvaluator.
type EngineConfig struct {
	// Command is the engine's command line or an engine name (default
	// sf15: see enginepath.Resolve).
	Command []string
	// Workers is the number of engines (default 1); each uses one thread.
	Workers int
	// HashMB is each engine's hash (default 128).
	HashMB int
	// ClearEach clears the hash before every search (EngineEvaluator.ClearEach).
	ClearEach bool
	// Nice, when above 0, starts the engines at this lower CPU priority
	// (1..19) through the nice command; without one they run at normal
	// priority and the logger says so.
	Nice   int
	Logger zerolog.Logger
}

// nicedTimeout bounds a niced engine's handshake and isready: the demo on
// a machine at load 40 saw a nice-19 Stockfish miss the default bound.
const nicedTimeout = 3 * time.Minute

// StartEngines starts cfg.Workers engines.
func StartEngines(ctx context.Context, cfg EngineConfig) (*EngineEvaluator, error) {
	if len(cfg.Command) == 0 {
		cfg.Command = []string{enginepath.Stockfish15}
	}
	r, err := enginepath.Resolve(cfg.Command)
	if err != nil {
		return nil, fmt.Errorf("ewr: %w", err)
	}
	cfg.Command = r.Command
	cfg.Workers = max(1, cfg.Workers)
	if cfg.HashMB <= 0 {
		cfg.HashMB = 128
	}
	if cfg.Nice > 0 {
		if nice, err := exec.LookPath("nice"); err == nil {
			cfg.Command = append([]string{nice, "-n", strconv.Itoa(min(cfg.Nice, 19))}, cfg.Command...)
		} else {
			cfg.Logger.Warn().Msg("ewr: no nice command: the engines run at normal priority")
		}
	}
	var timeouts analysis.EngineTimeouts
	if cfg.Nice > 0 {
		// At the lowest priority on a busy machine the engine may wait
		// long for the CPU just to load its network and answer.
		timeouts = analysis.EngineTimeouts{Handshake: nicedTimeout, Ready: nicedTimeout}
	}
	spec := analysis.EngineSpec{Command: cfg.Command, Threads: 1, HashMB: cfg.HashMB}
	var engines []Searcher
	for i := 0; i < cfg.Workers; i++ {
		// the analysis pool's own start: Threads and Hash where the
		// engine declares them
		e, err := analysis.StartResolvedEngine(ctx, spec, cfg.Logger.With().Int("worker", i).Logger(), timeouts)
		if err != nil {
			for _, s := range engines {
				_ = s.Close()
			}
			return nil, fmt.Errorf("ewr: start engine %d: %w", i, err)
		}
		engines = append(engines, e)
	}
	ev := NewEngineEvaluator(engines...)
	ev.ClearEach = cfg.ClearEach
	return ev, nil
}

// ClearsEach reports whether the engines clear their hash before every
// search (ClearEach): each evaluation is then a function of the position
// and the depth alone, so any engine may take any position (see
// clearsEach).
func (e *EngineEvaluator) ClearsEach() bool { return e.ClearEach }

// clearsEach reports whether ev's evaluations are order-independent (its
// ClearsEach method says so): the calculation then lets an idle engine
// take another lane's work, which changes no figure — only which engine
// searched what — and shortens the wall time.
func clearsEach(ev Evaluator) bool {
	c, ok := ev.(interface{ ClearsEach() bool })
	return ok && c.ClearsEach()
}

// NewEngineEvaluator returns an evaluator over already started engines
// (tests use fakes). It owns them: Close closes them.
func NewEngineEvaluator(engines ...Searcher) *EngineEvaluator {
	return &EngineEvaluator{engines: engines, Retries: 1, engineNodes: make([]atomic.Int64, len(engines))}
}

// Close stops the engines.
func (e *EngineEvaluator) Close() error {
	var errs []error
	for _, s := range e.engines {
		if err := s.Close(); err != nil {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}

// NewGame clears every engine's hash ("ucinewgame"), so that a calculation
// does not depend on what the engines searched before it: with the same
// positions searched in the same order, single-threaded Stockfish gives the
// same scores. Engines without a NewGame method are left alone.
func (e *EngineEvaluator) NewGame(ctx context.Context) error {
	for i, s := range e.engines {
		if ng, ok := s.(interface{ NewGame(context.Context) error }); ok {
			if err := ng.NewGame(ctx); err != nil {
				return fmt.Errorf("ewr: engine %d: new game: %w", i, err)
			}
		}
	}
	return nil
}

// Counts returns the searches run and the nodes they searched so far.
func (e *EngineEvaluator) Counts() (searches, nodes int64) {
	return e.searches.Load(), e.nodes.Load()
}

// EngineNodes returns the nodes each engine has searched so far, by engine
// number. With lanes fixed before the search (for reproducible figures) the
// busiest engine bounds the wall time: the spread between the engines is
// the work one of them could have taken from the other.
func (e *EngineEvaluator) EngineNodes() []int64 {
	out := make([]int64, len(e.engineNodes))
	for i := range e.engineNodes {
		out[i] = e.engineNodes[i].Load()
	}
	return out
}

// search evaluates one position, retrying on a restarted engine after a
// crash or timeout, and returns its score and, when the search ended early
// (see EvalRequest.Settled), the depth it ended at (else 0).
// Long: the retry loop around one search, its hash clear and its early end.
func (e *EngineEvaluator) search(ctx context.Context, w int, r EvalRequest) (score.Score, int, error) {
	eng := e.engines[w]
	var err error
	for attempt := 0; attempt <= e.Retries; attempt++ {
		if attempt > 0 {
			if rerr := eng.Restart(ctx); rerr != nil {
				return score.Score{}, 0, fmt.Errorf("position %s: %w (restart failed: %v)", r.FEN, err, rerr)
			}
		}
		if e.ClearEach {
			if ng, ok := eng.(interface{ NewGame(context.Context) error }); ok {
				if err = ng.NewGame(ctx); err != nil {
					if ctx.Err() != nil {
						return score.Score{}, 0, ctx.Err()
					}
					if errors.Is(err, uci.ErrCrashed) || errors.Is(err, uci.ErrTimeout) {
						continue
					}
					break
				}
			}
		}
		var res *uci.Result
		sctx, stop, early := e.iterations(ctx, r)
		var onInfo func(uci.Info)
		if early.cancel != nil {
			onInfo = early.onInfo
		}
		res, err = eng.Analyse(sctx, uci.Position{FEN: r.FEN, Chess960: r.Chess960}, uci.Limits{Depth: r.Depth, OnInfo: onInfo})
		stop()
		if err == nil {
			if ctx.Err() != nil {
				return score.Score{}, 0, ctx.Err()
			}
			if early.reached > 0 {
				e.engineNodes[w].Add(res.Nodes)
				e.searches.Add(1)
				e.nodes.Add(res.Nodes)
				return early.byDepth[early.reached], early.reached, nil
			}
			if res.Stopped {
				return score.Score{}, 0, ctx.Err()
			}
			e.engineNodes[w].Add(res.Nodes)
			sc, err := e.score(r, res)
			return sc, 0, err
		}
		if ctx.Err() != nil {
			return score.Score{}, 0, ctx.Err()
		}
		if !errors.Is(err, uci.ErrCrashed) && !errors.Is(err, uci.ErrTimeout) {
			break
		}
	}
	return score.Score{}, 0, fmt.Errorf("position %s: %w", r.FEN, err)
}

// earlyStop follows one search's iterations for EvalRequest.Settled.
type earlyStop struct {
	req     EvalRequest
	byDepth map[int]score.Score
	// reached is the depth the search was stopped at (0: not stopped).
	reached int
	cancel  context.CancelFunc
}

// iterations returns the context of r's search, its cancel function, and
// the follower of its iterations (whose onInfo is nil when r does not ask
// for an early end).
func (e *EngineEvaluator) iterations(ctx context.Context, r EvalRequest) (context.Context, context.CancelFunc, *earlyStop) {
	es := &earlyStop{req: r, byDepth: map[int]score.Score{}}
	if r.Shallow <= 0 || r.Shallow >= r.Depth || r.Settled == nil {
		return ctx, func() {}, es
	}
	sctx, cancel := context.WithCancel(ctx)
	es.cancel = cancel
	return sctx, cancel, es
}

// onInfo records each iteration's exact score (a bound is not one; a later
// line of the same depth, such as the one Stockfish prints when stopped,
// does not replace it) and asks Settled at each depth from Shallow below
// Depth; when it answers true the search is stopped there.
func (es *earlyStop) onInfo(in uci.Info) {
	if es.reached > 0 || !in.HasScore || in.LowerBound || in.UpperBound || in.MultiPV > 1 || in.Depth <= 0 {
		return
	}
	if _, ok := es.byDepth[in.Depth]; ok {
		return
	}
	es.byDepth[in.Depth] = in.Score
	if in.Depth >= es.req.Shallow && in.Depth < es.req.Depth && es.req.Settled(in.Depth, es.byDepth) {
		es.reached = in.Depth
		es.cancel()
	}
}

func (e *EngineEvaluator) score(r EvalRequest, res *uci.Result) (score.Score, error) {
	e.searches.Add(1)
	e.nodes.Add(res.Nodes)
	best, ok := res.Best()
	if ok && best.Mated {
		return score.Score{}, fmt.Errorf("position %s: the engine reports the side to move mated", r.FEN)
	}
	if !ok || !best.HasScore {
		return score.Score{}, fmt.Errorf("position %s: the engine gave no score", r.FEN)
	}
	return best.Score, nil
}
