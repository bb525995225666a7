package postgame

import (
	"context"
	"fmt"
	"time"

	"github.com/outpostchess/outpost/analysis"
	"github.com/outpostchess/outpost/analysis/ewr"
	"github.com/outpostchess/outpost/bots/enginepath"
	"github.com/rs/zerolog"
)

// slowEngineTimeout bounds a summary engine's handshake and isready: at
// the lowest priority on a busy machine an engine may wait long for the CPU
// just to load its network and answer (the demo at load 40 saw a nice-19
// Stockfish miss the default bound).
const slowEngineTimeout = 3 * time.Minute

// ewrHashMB is each expected-winrate engine's hash in the modes that keep
// it across a calculation (exact, fast): its searches are to depth 15,
// where 64 MiB is not the limit. The settle mode's engines clear a 16 MB
// hash before every search (ewr.ClearHashMB).
const ewrHashMB = 64

// newPool starts the post-game analysis pool: with neither a cluster nor
// a test's factory, on engines this summariser starts itself, phased (see
// idleNice), and hands to the pool (analysis.NewPoolOf), which calls
// nothing back.
func (s *Summariser) newPool(ctx context.Context) (*analysis.Pool, error) {
	cfg := s.cfg
	if cfg.Dispatcher != nil || cfg.Factory != nil {
		return analysis.NewPool(ctx, cfg)
	}
	if len(cfg.Command) == 0 {
		cfg.Command = analysis.DefaultEngineCommand()
	}
	spec := analysis.EngineSpec{Command: cfg.Command, Threads: max(cfg.Threads, 1), HashMB: cfg.HashMB, Options: cfg.Options}
	if spec.HashMB <= 0 {
		spec.HashMB = analysis.DefaultHashMB
	}
	if r, err := enginepath.Resolve(cfg.Command); err == nil {
		spec.Command = r.Command
	} // else the start fails, naming the engine
	engines, err := s.startPhased(ctx, max(cfg.Workers, 1), s.starter(spec, cfg.Logger))
	if err != nil {
		return nil, err
	}
	searchers := make([]analysis.Searcher, len(engines))
	for i, e := range engines {
		searchers[i] = e
	}
	return analysis.NewPoolOf(cfg, searchers)
}

// ewrEngines starts the expected winrate's n engines: cmd (an engine name
// or a command line; default sf15), one thread and hashMB each, phased.
func (s *Summariser) ewrEngines(ctx context.Context, n int, cmd []string, hashMB int) ([]ewr.Searcher, error) {
	if len(cmd) == 0 {
		cmd = []string{enginepath.Stockfish15}
	}
	r, err := enginepath.Resolve(cmd)
	if err != nil {
		return nil, fmt.Errorf("ewr: %w", err)
	}
	spec := analysis.EngineSpec{Command: r.Command, Threads: 1, HashMB: hashMB}
	engines, err := s.startPhased(ctx, n, s.starter(spec, s.ewr.Logger))
	if err != nil {
		return nil, err
	}
	out := make([]ewr.Searcher, len(engines))
	for i, e := range engines {
		out[i] = e
	}
	return out, nil
}

// starter is the one way a summary engine starts, the analysis pool's and
// the expected winrate's alike: spec (its command resolved) at a niceness,
// through analysis.StartResolvedEngine (the pool's own start) with the
// summary engines' long handshake and isready bounds — at nice 19 beside a
// busy machine the default isready bound restarted the engine
// mid-analysis — or through the test's start (SetEngineStart).
func (s *Summariser) starter(spec analysis.EngineSpec, log zerolog.Logger) startFunc {
	return func(ctx context.Context, nice int) (searcher, error) {
		if s.engineStart != nil {
			return s.engineStart(ctx, spec, nice)
		}
		sp := spec
		sp.Command = s.nicedCommand(spec.Command, nice)
		return analysis.StartResolvedEngine(ctx, sp, log, analysis.EngineTimeouts{Handshake: slowEngineTimeout, Ready: slowEngineTimeout})
	}
}

// startPhased starts n phased engines, numbered from 0 for the gate.
func (s *Summariser) startPhased(ctx context.Context, n int, start startFunc) ([]*phasedEngine, error) {
	var out []*phasedEngine
	for i := 0; i < n; i++ {
		e, err := newPhasedEngine(ctx, i, s.phases, start, s.log)
		if err != nil {
			for _, o := range out {
				_ = o.Close()
			}
			return nil, fmt.Errorf("start engine %d: %w", i, err)
		}
		out = append(out, e)
	}
	return out, nil
}

// nicedCommand is cmd at niceness nice; without a nice program it runs at
// normal priority, and the log says so.
func (s *Summariser) nicedCommand(cmd []string, nice int) []string {
	c, err := niced(cmd, nice)
	if err != nil {
		s.log.Warn().Err(err).Msg("summary engines")
	}
	return c
}
