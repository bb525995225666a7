package cluster

import (
	"context"
	"fmt"
	"sync"
	"time"

	"github.com/nats-io/nats.go/jetstream"
	"github.com/rs/zerolog"
)

// resultResets is how often the library's ordered consumer may try to
// recreate itself (1 s, 2 s, 4 s apart) before its iterator returns the
// error and resultReader opens a new consumer itself. Unbounded (the
// library's default), a reader whose consumer was on a node killed with
// SIGKILL was seen retrying for more than ten minutes while the results
// were all stored.
const resultResets = 3

// reopenWait is the pause between two failed attempts to open a results
// consumer (the cluster electing a new leader).
const reopenWait = time.Second

// resultReader reads one job's results from the start with an ordered
// consumer, and reads them again on a new consumer when the old one is
// lost (a node of the cluster down); the assembler ignores what it has.
type resultReader struct {
	js  jetstream.JetStream
	job string
	log zerolog.Logger

	mu      sync.Mutex
	it      jetstream.MessagesContext
	stopped bool
}

// openResults starts reading job's results.
func openResults(ctx context.Context, js jetstream.JetStream, job string, log zerolog.Logger) (*resultReader, error) {
	r := &resultReader{js: js, job: job, log: log}
	var it jetstream.MessagesContext
	err := retryTransient(ctx, func() (err error) {
		it, err = r.open(ctx)
		return err
	})
	if err != nil {
		return nil, err
	}
	r.it = it
	return r, nil
}

func (r *resultReader) open(ctx context.Context) (jetstream.MessagesContext, error) {
	cons, err := r.js.OrderedConsumer(ctx, ResultsStream, jetstream.OrderedConsumerConfig{
		FilterSubjects:   []string{resultsPrefix + r.job + ".>"},
		DeliverPolicy:    jetstream.DeliverAllPolicy,
		MaxResetAttempts: resultResets,
	})
	if err != nil {
		return nil, fmt.Errorf("cluster: job %s: results consumer: %w", r.job, err)
	}
	it, err := cons.Messages()
	if err != nil {
		return nil, fmt.Errorf("cluster: job %s: read results: %w", r.job, err)
	}
	return it, nil
}

// next returns the next result; it reopens the consumer as often as it is
// lost, until ctx ends.
func (r *resultReader) next(ctx context.Context) (jetstream.Msg, error) {
	for {
		r.mu.Lock()
		it := r.it
		r.mu.Unlock()
		msg, err := it.Next()
		if err == nil {
			return msg, nil
		}
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		r.log.Warn().Err(err).Msg("cluster: results consumer lost; reading the job's results again on a new one")
		if err := r.reopen(ctx); err != nil {
			return nil, err
		}
	}
}

func (r *resultReader) reopen(ctx context.Context) error {
	for {
		it, err := r.open(ctx)
		if err == nil {
			r.mu.Lock()
			defer r.mu.Unlock()
			r.it.Stop()
			r.it = it
			if r.stopped {
				it.Stop()
				return ctx.Err()
			}
			return nil
		}
		r.log.Warn().Err(err).Msg("cluster: results consumer")
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(reopenWait):
		}
	}
}

// stop stops reading.
func (r *resultReader) stop() {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.stopped = true
	r.it.Stop()
}
