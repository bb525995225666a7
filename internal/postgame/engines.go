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

// poolConfig is the post-game analysis pool's configuration: with neither
// a cluster nor a test's factory, its engines are phased (see idleNice).
func (s *Summariser) poolConfig() analysis.PoolConfig {
	cfg := s.cfg
	if cfg.Dispatcher != nil || cfg.Factory != nil {
		return cfg
	}
	cmd := cfg.Command
	if len(cmd) == 0 {
		cmd = analysis.DefaultEngineCommand()
	}
	threads, hash := max(cfg.Threads, 1), cfg.HashMB
	if hash <= 0 {
		hash = analysis.DefaultHashMB
	}
	resolved := cmd
	if r, err := enginepath.Resolve(cmd); err == nil {
		resolved = r.Command
	} // else the start fails, naming the engine
	start := func(ctx context.Context, nice int) (searcher, error) {
		if s.engineStart != nil {
			return s.engineStart(ctx, nice)
		}
		return startPoolEngine(ctx, s.nicedCommand(resolved, nice), threads, hash, cfg)
	}
	cfg.Factory = func(ctx context.Context, worker int) (analysis.Searcher, error) {
		return newPhasedEngine(ctx, worker, s.phases, start, s.log)
	}
	return cfg
}

// ewrStarter starts an expected-winrate engine: cmd (an engine name or a
// command line; default sf15) with one thread.
func (s *Summariser) ewrStarter(cmd []string, hashMB int) startFunc {
	if len(cmd) == 0 {
		cmd = []string{enginepath.Stockfish15}
	}
	return func(ctx context.Context, nice int) (searcher, error) {
		r, err := enginepath.Resolve(cmd)
		if err != nil {
			return nil, fmt.Errorf("ewr: %w", err)
		}
		spec := analysis.EngineSpec{Command: s.nicedCommand(r.Command, nice), Threads: 1, HashMB: hashMB}
		return startEngine(ctx, spec, s.ewr.Logger)
	}
}

// startPhased starts n phased engines, numbered from 0 for the gate.
func (s *Summariser) startPhased(ctx context.Context, n int, start startFunc) ([]ewr.Searcher, error) {
	var out []ewr.Searcher
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

// startPoolEngine starts one engine of the post-game analysis as
// analysis.StartEngine does, with the summary engines' long handshake and
// isready bounds: at nice 19 beside a busy machine the default isready
// bound restarted the engine mid-analysis.
func startPoolEngine(ctx context.Context, cmd []string, threads, hash int, cfg analysis.PoolConfig) (searcher, error) {
	return startEngine(ctx, analysis.EngineSpec{Command: cmd, Threads: threads, HashMB: hash, Options: cfg.Options}, cfg.Logger)
}

// startEngine is the one way a summary engine starts, the analysis pool's
// and the expected winrate's alike: analysis.StartResolvedEngine (the
// pool's own start) with the summary engines' long handshake and isready
// bounds.
func startEngine(ctx context.Context, spec analysis.EngineSpec, log zerolog.Logger) (searcher, error) {
	return analysis.StartResolvedEngine(ctx, spec, log, analysis.EngineTimeouts{Handshake: slowEngineTimeout, Ready: slowEngineTimeout})
}
