package lichess

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"sync"
	"sync/atomic"
)

// ErrStreamStalled is the cause given in Reconnected when a stream was
// silent (no line, not even a keep-alive) for longer than StreamTimeout.
var ErrStreamStalled = errors.New("stream silent for too long")

// ErrStreamClosed is the cause given in Reconnected when the server ended a
// stream that should have gone on.
var ErrStreamClosed = errors.New("stream closed by the server")

// Stream is an ndjson stream that stays connected: it skips keep-alive
// lines, logs and skips malformed or over-long lines, reconnects (with
// jittered backoff) after a drop, an error or a stall, and delivers typed
// events on Events until its context ends, Close is called, a fatal error
// occurs (a 4xx other than 429), or, for a game stream, the game is over.
// After a reconnection it first delivers a *Reconnected marker; a game
// stream then delivers a fresh *GameFull.
type Stream[E any] struct {
	events chan E
	done   chan struct{}
	cancel context.CancelFunc
	closed atomic.Bool

	mu  sync.Mutex
	err error

	reconnects, malformed, tooLong, delivered atomic.Int64
}

// StreamStats counts what a stream went through.
type StreamStats struct {
	// Events is how many events were delivered (Reconnected markers
	// included).
	Events int64
	// Reconnects is how many times the stream was reopened.
	Reconnects int64
	// Malformed is how many lines could not be decoded and were skipped.
	Malformed int64
	// TooLong is how many lines exceeded MaxLineBytes and were skipped.
	TooLong int64
}

// Events returns the channel of events. It is closed when the stream ends
// for good; Err then says why.
func (s *Stream[E]) Events() <-chan E { return s.events }

// Done is closed when the stream has ended and its goroutines are gone.
func (s *Stream[E]) Done() <-chan struct{} { return s.done }

// Err returns why the stream ended: nil when the game is over or Close was
// called, the context's error when its context ended, or the fatal error
// (for example an *APIError with status 404). It returns nil while the
// stream is running.
func (s *Stream[E]) Err() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.err
}

// Close stops the stream and waits for its goroutines to exit. Events still
// buffered are dropped.
func (s *Stream[E]) Close() {
	s.closed.Store(true)
	s.cancel()
	for range s.events {
	}
	<-s.done
}

// Stats returns the stream's counters.
func (s *Stream[E]) Stats() StreamStats {
	return StreamStats{
		Events:     s.delivered.Load(),
		Reconnects: s.reconnects.Load(),
		Malformed:  s.malformed.Load(),
		TooLong:    s.tooLong.Load(),
	}
}

// streamSpec says how to open and decode one kind of stream.
type streamSpec[E any] struct {
	name        string
	req         request
	decode      func([]byte) (E, error)
	reconnected func(attempt int, cause error) E
	// final reports an event after which the stream is over for good.
	final func(E) bool
	// budget, when set, bounds how often the stream is opened (the event
	// stream's: see EventStreamOpens).
	budget *openBudget
}

// startStream connects (retrying transient failures) and then runs the
// stream in the background. It returns an error only for a fatal failure
// of the first connection.
func startStream[E any](ctx context.Context, c *Client, spec streamSpec[E]) (*Stream[E], error) {
	ctx, cancel := context.WithCancel(ctx)
	s := &Stream[E]{events: make(chan E, 16), done: make(chan struct{}), cancel: cancel}
	resp, err := connectStream(ctx, c, &spec, 0)
	if err != nil {
		cancel()
		return nil, err
	}
	go s.run(ctx, c, &spec, resp)
	return s, nil
}

// connectStream opens the stream, retrying network errors, 5xx and 429
// (after the lockout) with backoff; fails is the number of consecutive
// failures so far.
func connectStream[E any](ctx context.Context, c *Client, spec *streamSpec[E], fails int) (*http.Response, error) {
	for {
		if fails > 0 {
			d := backoffDelay(c.opts.ReconnectMin, c.opts.ReconnectMax, fails-1)
			if d > 0 {
				select {
				case <-c.clock.After(d):
				case <-ctx.Done():
					return nil, fmt.Errorf("lichess: %s: %w", spec.req.op(), ctx.Err())
				}
			}
		}
		if spec.budget != nil {
			if err := c.awaitBudget(ctx, spec.budget, spec.name, spec.req.op()); err != nil {
				return nil, err
			}
		}
		req := spec.req
		resp, err := c.open(ctx, &req)
		if err == nil {
			return resp, nil
		}
		if ctx.Err() != nil || !transientStreamError(err) {
			return nil, err
		}
		fails++
		c.log.Warn().Str("stream", spec.name).Err(err).Int("failures", fails).Msg("stream connection failed; retrying")
	}
}

// transientStreamError reports failures worth reconnecting after.
func transientStreamError(err error) bool {
	var apiErr *APIError
	if errors.As(err, &apiErr) {
		return apiErr.Status == http.StatusTooManyRequests || apiErr.Status >= 500 ||
			apiErr.Status == http.StatusRequestTimeout
	}
	return !permanent(err)
}

// run reads connections one after the other until the stream ends.
func (s *Stream[E]) run(ctx context.Context, c *Client, spec *streamSpec[E], resp *http.Response) {
	defer close(s.done)
	defer close(s.events)
	defer s.cancel()
	fails := 0
	for {
		start := c.clock.Now()
		delivered := s.delivered.Load()
		cause, final := s.consume(ctx, c, spec, resp)
		if final {
			return
		}
		if ctx.Err() != nil {
			s.finish(ctx.Err())
			return
		}
		// A connection that lasted, or that delivered events, was healthy:
		// the backoff starts again from its minimum. Only connections that
		// fail before delivering anything escalate it (a game's clock runs
		// while we wait, so a working stream must come back at once).
		if c.clock.Now().Sub(start) >= c.opts.ReconnectMax || s.delivered.Load() > delivered {
			fails = 0
		}
		fails++
		c.log.Warn().Str("stream", spec.name).Err(c.red.err(cause)).Msg("stream dropped; reconnecting")
		var err error
		resp, err = connectStream(ctx, c, spec, fails)
		if err != nil {
			if ctx.Err() != nil {
				err = ctx.Err()
			}
			s.finish(err)
			return
		}
		n := int(s.reconnects.Add(1))
		if !s.deliver(ctx, spec.reconnected(n, cause)) {
			s.finish(ctx.Err())
			return
		}
	}
}

// finish records why the stream ended.
func (s *Stream[E]) finish(err error) {
	if s.closed.Load() {
		err = nil
	}
	s.mu.Lock()
	s.err = err
	s.mu.Unlock()
}

// deliver puts ev on the channel unless ctx ends first.
func (s *Stream[E]) deliver(ctx context.Context, ev E) bool {
	select {
	case s.events <- ev:
		s.delivered.Add(1)
		return true
	case <-ctx.Done():
		return false
	}
}

type lineResult struct {
	line []byte
	err  error
}

// consume reads one connection until it drops, stalls or the stream is
// over. It returns the cause of the drop, or final=true when the stream
// ended for good.
func (s *Stream[E]) consume(ctx context.Context, c *Client, spec *streamSpec[E], resp *http.Response) (cause error, final bool) {
	lines := make(chan lineResult)
	stop := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		lr := NewLineReader(resp.Body, c.opts.MaxLineBytes)
		for {
			line, err := lr.ReadLine()
			if line != nil {
				line = bytes.Clone(line)
			}
			select {
			case lines <- lineResult{line, err}:
			case <-stop:
				return
			}
			if err != nil && !errors.Is(err, ErrLineTooLong) {
				return
			}
		}
	}()
	defer func() {
		close(stop)
		resp.Body.Close()
		wg.Wait()
	}()
	for {
		var r lineResult
		select {
		case <-ctx.Done():
			return ctx.Err(), false
		case <-c.clock.After(c.opts.StreamTimeout):
			return fmt.Errorf("%w (%s)", ErrStreamStalled, c.opts.StreamTimeout), false
		case r = <-lines:
		}
		switch {
		case errors.Is(r.err, io.EOF):
			return ErrStreamClosed, false
		case errors.Is(r.err, ErrLineTooLong):
			s.tooLong.Add(1)
			c.log.Warn().Str("stream", spec.name).Err(r.err).Msg("skipping over-long line")
			continue
		case r.err != nil:
			return r.err, false
		}
		if len(bytes.TrimSpace(r.line)) == 0 {
			continue // keep-alive
		}
		ev, err := spec.decode(r.line)
		if err != nil {
			if isNil(ev) {
				s.malformed.Add(1)
				c.log.Warn().Str("stream", spec.name).Str("error", c.red.redact(err.Error())).
					Str("line", c.red.redact(string(truncateBytes(r.line, 200)))).Msg("skipping malformed line")
				continue
			}
			c.log.Warn().Str("stream", spec.name).Str("error", c.red.redact(err.Error())).Msg("line decoded partially")
		}
		if !s.deliver(ctx, ev) {
			return ctx.Err(), false
		}
		if spec.final != nil && spec.final(ev) {
			s.finish(nil)
			return nil, true
		}
	}
}

// isNil reports a nil interface value held in a type parameter.
func isNil[E any](ev E) bool {
	var v any = ev
	return v == nil
}

func truncateBytes(b []byte, n int) []byte {
	if len(b) > n {
		return b[:n]
	}
	return b
}
