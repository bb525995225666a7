package cluster

import (
	"context"
	"errors"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
)

// transientFor bounds how long a submitter retries the JetStream API while
// the cluster has no leader for a stream: losing a node of three (SIGKILL,
// so its peers only notice by silence) and electing a new leader took up
// to about 10 s on a loaded 2-core machine; 60 s leaves room for more.
const transientFor = 60 * time.Second

// transientPause is the pause between two attempts.
const transientPause = 250 * time.Millisecond

// retryTransient runs op until it succeeds, fails for good, ctx ends or
// transientFor has passed; errors of a cluster between leaders (a request
// that timed out, no responders, JetStream unavailable) are retried.
func retryTransient(ctx context.Context, op func() error) error {
	deadline := time.Now().Add(transientFor)
	for {
		err := op()
		if err == nil || ctx.Err() != nil || !isTransient(err) || time.Now().After(deadline) {
			return err
		}
		select {
		case <-ctx.Done():
			return err
		case <-time.After(transientPause):
		}
	}
}

// isTransient reports an error that a new leader cures.
func isTransient(err error) bool {
	var apiErr *jetstream.APIError
	switch {
	case errors.Is(err, context.DeadlineExceeded), errors.Is(err, nats.ErrTimeout),
		errors.Is(err, nats.ErrNoResponders), errors.Is(err, jetstream.ErrNoStreamResponse),
		errors.Is(err, nats.ErrConnectionReconnecting), errors.Is(err, nats.ErrDisconnected):
		return true
	case errors.As(err, &apiErr):
		return apiErr.Code == 503 // JetStream temporarily unavailable (no leader, no quorum)
	}
	return false
}
