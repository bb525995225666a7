package provider

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"sync"
	"time"

	"github.com/rs/zerolog"

	"github.com/outpostchess/outpost/bots/uci"
	"github.com/outpostchess/outpost/lichess"
)

// DefaultIdle is how long a UCI slot keeps its engine process after a job
// before shutting it down: long enough that a user stepping through a game
// on the analysis board (a job per move) never waits for a start, short
// enough that an unused provider holds no Stockfish and its hash.
const DefaultIdle = 5 * time.Minute

// UCIEngine is a slot served by an external UCI engine process (a native
// Stockfish build): started on the first job, given "ucinewgame" when the
// job's session changes, Threads and Hash set from the job within the
// registration's limits, UCI_Chess960 always on (the broker writes castling
// king takes rook) and UCI_AnalyseMode on where the engine has it; shut
// down after Idle without a job.
type UCIEngine struct {
	reg  lichess.EngineRegistration
	cfg  uci.Config
	idle time.Duration
	log  zerolog.Logger
	// onIdleClose, when set, is called after the idle engine was shut down
	// (tests synchronise on it).
	onIdleClose func()

	mu      sync.Mutex // one job at a time; guards what follows
	eng     *uci.Engine
	session string
	threads int
	hash    int
	timer   *time.Timer
	closed  bool
}

// UCIOptions configure a UCIEngine.
type UCIOptions struct {
	// Name is the registration's name ("Stockfish 17.1 (Outpost, native)").
	Name string
	// MaxThreads and MaxHash (MiB) are the registration's limits; a job's
	// threads and hash are capped by them.
	MaxThreads, MaxHash int
	// Idle is how long the process stays up without a job (0: DefaultIdle).
	Idle time.Duration
	// Engine is the process to run.
	Engine uci.Config
	Logger zerolog.Logger
	// OnIdleClose is called after an idle engine was shut down.
	OnIdleClose func()
}

// NewUCIEngine returns a slot for o; the process starts with the first job.
func NewUCIEngine(o UCIOptions) (*UCIEngine, error) {
	reg := lichess.EngineRegistration{Name: o.Name, MaxThreads: o.MaxThreads, MaxHash: o.MaxHash,
		Variants: []string{"chess"}, ProviderSecret: placeholderSecret}
	if err := reg.Validate(); err != nil {
		return nil, fmt.Errorf("provider: %w", err)
	}
	if o.Engine.Path == "" {
		return nil, fmt.Errorf("provider: %s: no engine path", o.Name)
	}
	reg.ProviderSecret = ""
	idle := o.Idle
	if idle <= 0 {
		idle = DefaultIdle
	}
	return &UCIEngine{reg: reg, cfg: o.Engine, idle: idle, log: o.Logger, onIdleClose: o.OnIdleClose}, nil
}

// placeholderSecret passes Validate's secret bound while a slot checks the
// rest of its registration (the provider fills in the real secret).
const placeholderSecret = "0123456789abcdef"

// Registration implements Engine.
func (e *UCIEngine) Registration() lichess.EngineRegistration { return e.reg }

// Analyse implements Engine.
func (e *UCIEngine) Analyse(ctx context.Context, w lichess.EngineWork, out func(string) error) error {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.closed {
		return errors.New("provider: engine closed")
	}
	if e.timer != nil {
		e.timer.Stop()
		e.timer = nil
	}
	defer e.armIdle()
	if err := e.prepare(ctx, w); err != nil {
		return err
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var outErr error
	lim := uci.Limits{MultiPV: w.MultiPV, Depth: w.Depth, Nodes: w.Nodes, MoveTime: time.Duration(w.MoveTime) * time.Millisecond,
		OnInfo: func(in uci.Info) {
			if line := infoLine(in); line != "" && outErr == nil {
				if outErr = out(line); outErr != nil {
					cancel()
				}
			}
		}}
	res, err := e.eng.Analyse(ctx, uci.Position{FEN: w.InitialFEN, Moves: w.Moves, Chess960: true}, lim)
	switch {
	case outErr != nil:
		return outErr
	case errors.Is(err, uci.ErrNoMove):
		return out("bestmove (none)")
	case err != nil:
		return fmt.Errorf("provider: %s: %w", e.reg.Name, err)
	}
	line := "bestmove " + res.BestMove
	if res.Ponder != "" {
		line += " ponder " + res.Ponder
	}
	return out(line)
}

// prepare starts the engine if needed and applies the job's session,
// threads and hash.
func (e *UCIEngine) prepare(ctx context.Context, w lichess.EngineWork) error {
	if e.eng == nil || !e.eng.Alive() {
		if e.eng != nil {
			_ = e.eng.Close()
		}
		eng, err := uci.Start(ctx, e.cfg)
		if err != nil {
			return fmt.Errorf("provider: %s: %w", e.reg.Name, err)
		}
		e.eng, e.session, e.threads, e.hash = eng, "", 0, 0
		if _, ok := eng.Option("UCI_AnalyseMode"); ok {
			if err := eng.SetOption(ctx, "UCI_AnalyseMode", "true"); err != nil {
				return fmt.Errorf("provider: %s: %w", e.reg.Name, err)
			}
		}
	}
	if threads := min(w.Threads, e.reg.MaxThreads); threads != e.threads {
		if err := e.eng.SetOption(ctx, "Threads", strconv.Itoa(threads)); err != nil {
			return fmt.Errorf("provider: %s: %w", e.reg.Name, err)
		}
		e.threads = threads
	}
	if hash := min(w.Hash, e.reg.MaxHash); hash != e.hash {
		if err := e.eng.SetOption(ctx, "Hash", strconv.Itoa(hash)); err != nil {
			return fmt.Errorf("provider: %s: %w", e.reg.Name, err)
		}
		e.hash = hash
	}
	if w.SessionID != e.session {
		if err := e.eng.NewGame(ctx); err != nil {
			return fmt.Errorf("provider: %s: %w", e.reg.Name, err)
		}
		e.session = w.SessionID
	}
	return nil
}

// armIdle starts the idle timer after a job (e.mu held).
func (e *UCIEngine) armIdle() {
	if e.eng == nil || e.closed {
		return
	}
	var t *time.Timer
	t = time.AfterFunc(e.idle, func() {
		e.mu.Lock()
		if e.timer != t || e.eng == nil { // a job came, or the slot closed
			e.mu.Unlock()
			return
		}
		eng := e.eng
		e.eng, e.timer = nil, nil
		e.mu.Unlock()
		err := eng.Close()
		e.log.Debug().Err(err).Str("engine", e.reg.Name).Dur("idle", e.idle).Msg("provider: idle engine shut down")
		if e.onIdleClose != nil {
			e.onIdleClose()
		}
	})
	e.timer = t
}

// Running reports whether the slot's engine process is up.
func (e *UCIEngine) Running() bool {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.eng != nil
}

// Close implements Engine.
func (e *UCIEngine) Close() error {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.closed = true
	if e.timer != nil {
		e.timer.Stop()
		e.timer = nil
	}
	if e.eng == nil {
		return nil
	}
	err := e.eng.Close()
	e.eng = nil
	return err
}
