package postgame

import (
	"context"
	"errors"
	"os/exec"
	"strconv"
	"sync"

	"github.com/rs/zerolog"

	"github.com/outpostchess/outpost/analysis/ewr"
	"github.com/outpostchess/outpost/bots/uci"
)

// Phases is what the summary's engines need to know of the daemon's games:
// the gate (how many of them may search now) and whether a game is on the
// clock. The daemon's game gate is one.
type Phases interface {
	ewr.Gate
	// OnClock reports whether a game is on the clock now, and a channel
	// closed when that may have changed.
	OnClock() (bool, <-chan struct{})
}

// The summary's engines run at one of two priorities, chosen by the phase
// of the daemon's games when each search starts:
//
//   - idleNice, normal priority, while no game is on the clock: nothing of
//     ours needs the CPU then, and at the lowest priority a summary starves
//     beside any busy process of normal priority (a nice-19 process weighs
//     15 against 1024 for each nice-0 one: six busy loops left it under 1 %
//     of a core, and a summary took hours);
//   - inGameNice, the lowest, while a game is on the clock, for the engines
//     the gate still lets search ([summary] ewr_engines_in_game): they then
//     use only CPU time the game leaves.
//
// A process may raise its niceness but not lower it again (RLIMIT_NICE is
// 0 for ordinary users), so an engine changes priority by being restarted
// under the other one; a search whose phase changes (a game starts, or the
// last one ends: a niced search beside a busy machine would otherwise crawl
// on long after the game) is stopped at once (UCI stop) and searched again.
const (
	idleNice   = 0
	inGameNice = 19
)

// searcher is one UCI engine as the post-game analysis pool and the
// expected-winrate evaluator use it; *uci.Engine is one.
type searcher interface {
	Analyse(ctx context.Context, pos uci.Position, lim uci.Limits) (*uci.Result, error)
	Restart(ctx context.Context) error
	Close() error
}

// startFunc starts one engine at a niceness (idleNice or inGameNice).
type startFunc func(ctx context.Context, nice int) (searcher, error)

// phasedEngine is one of the summary's engines: engine number idx for the
// gate, restarted at the priority of the games' phase (see idleNice). It
// satisfies analysis.Searcher and ewr.Searcher.
type phasedEngine struct {
	idx    int
	phases Phases
	start  startFunc
	log    zerolog.Logger

	mu   sync.Mutex // one search at a time; guards cur and nice
	cur  searcher
	nice int
}

// newPhasedEngine starts engine idx at the priority of the current phase.
func newPhasedEngine(ctx context.Context, idx int, phases Phases, start startFunc, log zerolog.Logger) (*phasedEngine, error) {
	e := &phasedEngine{idx: idx, phases: phases, start: start, log: log}
	on, _ := phases.OnClock()
	if err := e.use(ctx, niceFor(on)); err != nil {
		return nil, err
	}
	return e, nil
}

func niceFor(onClock bool) int {
	if onClock {
		return inGameNice
	}
	return idleNice
}

// Analyse searches pos once the gate lets this engine search: at normal
// priority while no game is on the clock, else at the lowest. A search
// whose phase changes meanwhile (a game starts, or the last one ends) is
// stopped and searched again at the new phase's priority.
func (e *phasedEngine) Analyse(ctx context.Context, pos uci.Position, lim uci.Limits) (*uci.Result, error) {
	e.mu.Lock()
	defer e.mu.Unlock()
	for {
		if err := e.waitAllowed(ctx); err != nil {
			return nil, err
		}
		on, changed := e.phases.OnClock()
		if err := e.use(ctx, niceFor(on)); err != nil {
			return nil, err
		}
		res, err, interrupted := e.searchInPhase(ctx, on, changed, pos, lim)
		if !interrupted {
			return res, err
		}
		e.log.Debug().Int("engine", e.idx).Bool("game_on_clock", !on).
			Msg("the games' phase changed: the summary's search stopped, to go on at the other priority")
	}
}

// waitAllowed returns once the gate lets engine idx search.
func (e *phasedEngine) waitAllowed(ctx context.Context) error {
	for {
		n, changed := e.phases.Allowed()
		if e.idx < n {
			return nil
		}
		select {
		case <-changed:
		case <-ctx.Done():
			return ctx.Err()
		}
	}
}

// searchInPhase runs one search and stops it when the phase changes from
// on (changed is the phase's channel read with it); interrupted says it
// was stopped for that.
func (e *phasedEngine) searchInPhase(ctx context.Context, on bool, changed <-chan struct{}, pos uci.Position, lim uci.Limits) (*uci.Result, error, bool) {
	sctx, cancel := context.WithCancel(ctx)
	defer cancel()
	done := make(chan struct{})
	watched := make(chan bool, 1)
	go func() {
		for ch := changed; ; {
			select {
			case <-ch:
				var now bool
				if now, ch = e.phases.OnClock(); now != on {
					cancel()
					watched <- true
					return
				}
			case <-done:
				watched <- false
				return
			}
		}
	}()
	res, err := e.cur.Analyse(sctx, pos, lim)
	close(done)
	if <-watched && ctx.Err() == nil {
		return nil, nil, true
	}
	return res, err, false
}

// use makes cur an engine at niceness nice, restarting it under that
// priority when it runs under the other.
func (e *phasedEngine) use(ctx context.Context, nice int) error {
	if e.cur != nil && e.nice == nice {
		return nil
	}
	if e.cur != nil {
		if err := e.cur.Close(); err != nil {
			e.log.Debug().Err(err).Int("engine", e.idx).Msg("close the summary engine before its restart")
		}
		e.cur = nil
	}
	s, err := e.start(ctx, nice)
	if err != nil {
		return err
	}
	e.cur, e.nice = s, nice
	e.log.Debug().Int("engine", e.idx).Int("nice", nice).Msg("summary engine started")
	return nil
}

// NewGame clears the running engine's hash (a restarted one starts clear).
func (e *phasedEngine) NewGame(ctx context.Context) error {
	e.mu.Lock()
	defer e.mu.Unlock()
	if ng, ok := e.cur.(interface{ NewGame(context.Context) error }); ok {
		return ng.NewGame(ctx)
	}
	return nil
}

// Restart restarts the engine (after a crash) at its current priority.
func (e *phasedEngine) Restart(ctx context.Context) error {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.cur == nil {
		return e.use(ctx, e.nice)
	}
	return e.cur.Restart(ctx)
}

// ID is the engine's identification (the pool names its analyses by it).
func (e *phasedEngine) ID() uci.ID {
	e.mu.Lock()
	defer e.mu.Unlock()
	if ider, ok := e.cur.(interface{ ID() uci.ID }); ok {
		return ider.ID()
	}
	return uci.ID{}
}

// Close stops the engine.
func (e *phasedEngine) Close() error {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.cur == nil {
		return nil
	}
	err := e.cur.Close()
	e.cur = nil
	return err
}

// niced returns cmd run through `nice -n N` for N > 0 (nice execs the
// engine, so the process the client manages is the engine itself), or cmd
// itself at normal priority or without a nice program (warned once by the
// caller).
func niced(cmd []string, nice int) ([]string, error) {
	if nice <= 0 {
		return cmd, nil
	}
	path, err := exec.LookPath("nice")
	if err != nil {
		return cmd, errors.New("no nice command: the summary's engines run at normal priority also while a game is on the clock")
	}
	return append([]string{path, "-n", strconv.Itoa(nice)}, cmd...), nil
}
