package uci

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/rs/zerolog"
)

// ID is what the engine said about itself in the handshake.
type ID struct {
	Name   string
	Author string
}

// Engine is a running UCI engine.
//
// Concurrency: an Engine runs one command sequence at a time. Analyse,
// SetOption, IsReady, NewGame and Restart may be called from several
// goroutines but are serialised by a mutex, so a second Analyse waits for
// the first to finish. Close may be called at any time: it interrupts a
// running search (which then returns ErrClosed) and stops the process.
type Engine struct {
	cfg Config
	log zerolog.Logger

	op sync.Mutex // serialises command sequences

	mu      sync.Mutex // guards the fields below
	proc    *process
	closed  bool
	closing chan struct{}
	id      ID
	specs   []OptionSpec
	applied map[string]string // canonical option name → value, for Restart
	multiPV int               // the MultiPV value the engine currently has
}

// Start launches the engine, performs the handshake (uci → id, option… →
// uciok), applies cfg.Options and waits for readyok. On failure the process
// is stopped and the error says which step failed.
func Start(ctx context.Context, cfg Config) (*Engine, error) {
	e := &Engine{
		cfg:     cfg,
		log:     cfg.Logger.With().Str("engine", cfg.Path).Logger(),
		closing: make(chan struct{}),
		applied: map[string]string{},
		multiPV: 1,
	}
	if err := e.launch(ctx); err != nil {
		return nil, err
	}
	names := make([]string, 0, len(cfg.Options))
	for n := range cfg.Options {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		if err := e.setOption(ctx, n, cfg.Options[n]); err != nil {
			e.proc.kill()
			return nil, err
		}
	}
	if err := e.isReady(ctx); err != nil {
		e.proc.kill()
		return nil, err
	}
	return e, nil
}

// launch starts a process and performs the handshake, installing the
// process, identity and option list on success.
func (e *Engine) launch(ctx context.Context) error {
	p, err := startProcess(e.cfg)
	if err != nil {
		return err
	}
	id, specs, err := handshake(ctx, p, e.cfg.handshakeTimeout(), e.closing)
	if err != nil {
		p.kill()
		return err
	}
	e.mu.Lock()
	e.proc, e.id, e.specs, e.multiPV = p, id, specs, 1
	e.mu.Unlock()
	e.log.Debug().Str("name", id.Name).Int("options", len(specs)).Msg("uci engine started")
	return nil
}

// handshake sends "uci" and reads the engine's id and options up to uciok.
func handshake(ctx context.Context, p *process, timeout time.Duration, closing <-chan struct{}) (ID, []OptionSpec, error) {
	if err := p.send("uci"); err != nil {
		return ID{}, nil, p.crash("handshake", err)
	}
	t := time.NewTimer(timeout)
	defer t.Stop()
	var id ID
	var specs []OptionSpec
	for {
		line, err := p.next(ctx, t.C, closing, "handshake (waiting for uciok)")
		if err != nil {
			return ID{}, nil, fmt.Errorf("uci: start %s: %w", p.path, err)
		}
		line = strings.TrimSpace(line)
		switch {
		case line == "uciok":
			return id, specs, nil
		case strings.HasPrefix(line, "id name "):
			id.Name = strings.TrimSpace(strings.TrimPrefix(line, "id name "))
		case strings.HasPrefix(line, "id author "):
			id.Author = strings.TrimSpace(strings.TrimPrefix(line, "id author "))
		case strings.HasPrefix(line, "option "):
			spec, err := ParseOption(line)
			if err != nil {
				p.log.Warn().Err(err).Msg("uci: ignoring malformed option")
				continue
			}
			specs = append(specs, spec)
		}
	}
}

// current returns the live process or the reason there is none.
func (e *Engine) current() (*process, error) {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.closed {
		return nil, ErrClosed
	}
	if !e.proc.alive() {
		return nil, e.proc.crash("idle", nil)
	}
	return e.proc, nil
}

// ID returns the engine's self-description from the handshake.
func (e *Engine) ID() ID {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.id
}

// Options returns the options the engine declared, in its order.
func (e *Engine) Options() []OptionSpec {
	e.mu.Lock()
	defer e.mu.Unlock()
	return append([]OptionSpec(nil), e.specs...)
}

// Option looks up a declared option by name (case-insensitive).
func (e *Engine) Option(name string) (OptionSpec, bool) {
	e.mu.Lock()
	defer e.mu.Unlock()
	return findOption(e.specs, name)
}

// Alive reports whether the engine process is running.
func (e *Engine) Alive() bool {
	e.mu.Lock()
	defer e.mu.Unlock()
	return !e.closed && e.proc.alive()
}

// SetOption validates value against the declared option and sends
// "setoption"; it is remembered and re-applied by Restart. Buttons take no
// value. It does not wait for the engine: call IsReady to synchronise.
func (e *Engine) SetOption(ctx context.Context, name, value string) error {
	e.op.Lock()
	defer e.op.Unlock()
	return e.setOption(ctx, name, value)
}

func (e *Engine) setOption(ctx context.Context, name, value string) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	p, err := e.current()
	if err != nil {
		return err
	}
	spec, ok := e.Option(name)
	if !ok {
		return fmt.Errorf("uci: %s has no option %q (it offers: %s)", e.ID().Name, name, e.optionNames())
	}
	canon, err := spec.Validate(value)
	if err != nil {
		return err
	}
	cmd, err := setOptionCommand(spec.Name, canon, spec.Type == OptionButton)
	if err != nil {
		return err
	}
	if err := p.send(cmd); err != nil {
		return p.crash("setoption", err)
	}
	e.mu.Lock()
	if spec.Type != OptionButton {
		e.applied[spec.Name] = canon
	}
	if strings.EqualFold(spec.Name, "MultiPV") {
		fmt.Sscan(canon, &e.multiPV)
	}
	e.mu.Unlock()
	return nil
}

func (e *Engine) optionNames() string {
	e.mu.Lock()
	defer e.mu.Unlock()
	names := make([]string, len(e.specs))
	for i, s := range e.specs {
		names[i] = s.Name
	}
	if len(names) == 0 {
		return "nothing"
	}
	return strings.Join(names, ", ")
}

// IsReady sends "isready" and waits for "readyok" (Config.ReadyTimeout).
func (e *Engine) IsReady(ctx context.Context) error {
	e.op.Lock()
	defer e.op.Unlock()
	return e.isReady(ctx)
}

func (e *Engine) isReady(ctx context.Context) error {
	p, err := e.current()
	if err != nil {
		return err
	}
	if err := p.send("isready"); err != nil {
		return p.crash("isready", err)
	}
	t := time.NewTimer(e.cfg.readyTimeout())
	defer t.Stop()
	for {
		line, err := p.next(ctx, t.C, e.closing, "isready (waiting for readyok)")
		if err != nil {
			if errors.Is(err, ErrTimeout) {
				p.kill()
			}
			return err
		}
		if strings.TrimSpace(line) == "readyok" {
			return nil
		}
	}
}

// NewGame sends "ucinewgame" and waits until the engine is ready.
func (e *Engine) NewGame(ctx context.Context) error {
	e.op.Lock()
	defer e.op.Unlock()
	p, err := e.current()
	if err != nil {
		return err
	}
	if err := p.send("ucinewgame"); err != nil {
		return p.crash("ucinewgame", err)
	}
	return e.isReady(ctx)
}

// Restart stops the current process (if it still runs), starts a new one,
// repeats the handshake and re-applies every option set so far.
func (e *Engine) Restart(ctx context.Context) error {
	e.op.Lock()
	defer e.op.Unlock()
	e.mu.Lock()
	if e.closed {
		e.mu.Unlock()
		return ErrClosed
	}
	old := e.proc
	applied := make(map[string]string, len(e.applied))
	for k, v := range e.applied {
		applied[k] = v
	}
	e.mu.Unlock()
	old.kill()
	<-old.exited
	if err := e.launch(ctx); err != nil {
		return fmt.Errorf("uci: restart: %w", err)
	}
	names := make([]string, 0, len(applied))
	for n := range applied {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		if err := e.setOption(ctx, n, applied[n]); err != nil {
			return fmt.Errorf("uci: restart: %w", err)
		}
	}
	if err := e.isReady(ctx); err != nil {
		return fmt.Errorf("uci: restart: %w", err)
	}
	e.log.Info().Msg("uci engine restarted")
	return nil
}

// Close asks the engine to quit, kills it after Config.QuitTimeout and waits
// for it to exit. A search in progress returns ErrClosed. Close is
// idempotent.
func (e *Engine) Close() error {
	e.mu.Lock()
	if e.closed {
		e.mu.Unlock()
		return nil
	}
	e.closed = true
	close(e.closing)
	p := e.proc
	e.mu.Unlock()
	// Let a running search notice closing before we talk to the process.
	e.op.Lock()
	defer e.op.Unlock()
	p.quit(e.cfg.quitTimeout())
	return nil
}
