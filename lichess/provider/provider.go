package provider

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/rs/zerolog"

	"github.com/outpostchess/outpost/lichess"
)

// Options configure a Provider.
type Options struct {
	// Client registers the engines (its token needs engine:read and
	// engine:write); Broker serves their jobs.
	Client *lichess.Client
	Broker *lichess.Broker
	// Engines are the slots, one registration each (names must differ).
	Engines []Engine
	// Secrets holds each registration's provider secret.
	Secrets *Secrets
	// JobLog, when set, is a JSON file rewritten after each job with the
	// registrations and the most recent jobs (the web console's Engines
	// page reads it).
	JobLog string
	Logger zerolog.Logger
	// OnJob is called after each job (tests synchronise on it).
	OnJob func(JobRecord)
}

// JobRecord is what the provider did with one job.
type JobRecord struct {
	Time    time.Time     `json:"time"`
	Engine  string        `json:"engine"`
	ID      string        `json:"id"`
	Session string        `json:"session"`
	Moves   int           `json:"moves"`
	MultiPV int           `json:"multiPv"`
	Limit   string        `json:"limit"`
	Lines   int           `json:"lines"`
	Took    time.Duration `json:"took"`
	// Outcome is "done", "requester left", "refused: …" or "failed: …".
	Outcome string `json:"outcome"`
}

// Status is the JobLog's content.
type Status struct {
	Engines []lichess.ExternalEngine `json:"engines"`
	Jobs    []JobRecord              `json:"jobs"` // newest first
}

// maxJobRecords is how many jobs the log keeps.
const maxJobRecords = 100

// Provider serves external-engine jobs; see the package doc.
type Provider struct {
	o Options

	mu     sync.Mutex
	status Status
}

// New checks o and returns a provider.
func New(o Options) (*Provider, error) {
	if o.Client == nil || o.Broker == nil || o.Secrets == nil {
		return nil, errors.New("provider: a client, a broker and secrets are required")
	}
	if len(o.Engines) == 0 {
		return nil, errors.New("provider: no engine to serve")
	}
	seen := map[string]bool{}
	for _, e := range o.Engines {
		n := e.Registration().Name
		if seen[n] {
			return nil, fmt.Errorf("provider: two engines named %q", n)
		}
		seen[n] = true
	}
	return &Provider{o: o}, nil
}

// Register registers each slot for the token's user, updating the
// registration of the same name when there is one (as Lichess's example
// provider does), and returns the registrations in slot order.
func (p *Provider) Register(ctx context.Context) ([]lichess.ExternalEngine, error) {
	have, err := p.o.Client.ExternalEngines(ctx)
	if err != nil {
		return nil, fmt.Errorf("provider: listing registered engines: %w", err)
	}
	byName := map[string]lichess.ExternalEngine{}
	for _, e := range have {
		byName[e.Name] = e
	}
	var out []lichess.ExternalEngine
	for _, slot := range p.o.Engines {
		reg := slot.Registration()
		if reg.ProviderSecret, err = p.o.Secrets.For(reg.Name); err != nil {
			return nil, err
		}
		var got *lichess.ExternalEngine
		if old, ok := byName[reg.Name]; ok {
			got, err = p.o.Client.UpdateExternalEngine(ctx, old.ID, reg)
		} else {
			got, err = p.o.Client.CreateExternalEngine(ctx, reg)
		}
		if err != nil {
			return nil, fmt.Errorf("provider: registering %q: %w", reg.Name, err)
		}
		p.o.Logger.Info().Str("engine", got.Name).Str("id", got.ID).Int("max_threads", got.MaxThreads).
			Int("max_hash", got.MaxHash).Msg("provider: engine registered")
		out = append(out, *got)
	}
	p.mu.Lock()
	p.status.Engines = out
	p.mu.Unlock()
	p.writeLog()
	return out, nil
}

// Serve registers the engines (unless Register already did), then serves
// their jobs until ctx ends; it closes the slots before returning. A failed
// registration is returned.
func (p *Provider) Serve(ctx context.Context) error {
	defer p.closeSlots()
	p.mu.Lock()
	registered := len(p.status.Engines) == len(p.o.Engines)
	p.mu.Unlock()
	if !registered {
		if _, err := p.Register(ctx); err != nil {
			return err
		}
	}
	var wg sync.WaitGroup
	for _, slot := range p.o.Engines {
		secret, err := p.o.Secrets.For(slot.Registration().Name)
		if err != nil {
			return err
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			p.serveSlot(ctx, slot, secret)
		}()
	}
	wg.Wait()
	return nil
}

func (p *Provider) closeSlots() {
	for _, slot := range p.o.Engines {
		if err := slot.Close(); err != nil {
			p.o.Logger.Warn().Err(err).Str("engine", slot.Registration().Name).Msg("provider: closing engine")
		}
	}
}

// Back-off of a slot whose long poll fails (broker down, network): from
// retryMin doubling to retryMax, reset by any answer.
const (
	retryMin = time.Second
	retryMax = time.Minute
)

// serveSlot long-polls the broker for one slot and handles its jobs one at
// a time until ctx ends.
func (p *Provider) serveSlot(ctx context.Context, slot Engine, secret string) {
	name := slot.Registration().Name
	wait := retryMin
	for ctx.Err() == nil {
		job, err := p.o.Broker.Acquire(ctx, secret)
		if err != nil {
			if ctx.Err() != nil {
				return
			}
			p.o.Logger.Warn().Err(err).Str("engine", name).Dur("retry_in", wait).Msg("provider: waiting for work failed")
			t := time.NewTimer(wait)
			select {
			case <-ctx.Done():
				t.Stop()
				return
			case <-t.C:
			}
			wait = min(2*wait, retryMax)
			continue
		}
		wait = retryMin
		if job != nil {
			p.record(p.handle(ctx, slot, job))
		}
	}
}
