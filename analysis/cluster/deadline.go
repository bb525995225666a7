package cluster

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/outpostchess/outpost/analysis"
)

// Bounds of the time a chunk's result may take (chunkDeadline).
const (
	// slowNodesPerSecond is the slowest search speed a chunk's deadline
	// allows for: a native Stockfish 15.1 thread searches about 1.6 M
	// nodes/s here, and a worker sharing its cores with other work was
	// seen 10 times slower; 100,000 nodes/s is 16 times slower.
	slowNodesPerSecond = 100_000
	// depthPositionTime is allowed for a position with a depth budget and
	// no node budget: the depths the project sends (15–25) take seconds
	// on one thread; two minutes leaves room for a slow worker.
	depthPositionTime = 2 * time.Minute
	// lostMax bounds how often one chunk may leave the work stream (its
	// worker acked or terminated it) without a valid result before the job
	// fails naming it: each time it is published again, so a worker that
	// takes chunks and answers nothing cannot stall a job for ever.
	lostMax = 3
)

// chunkDeadline is how long after its publication a chunk's result may
// take before the submitter looks for it: the ack wait (a chunk waits for
// a pull, and a dead worker's chunk comes back after it), plus each
// position's budget (the warm-up's too) at slowNodesPerSecond, or
// depthPositionTime for a depth budget. It only triggers a look: a chunk
// still in the work stream (waiting, searched, or redelivered by JetStream)
// is left there and looked at again one deadline later.
func chunkDeadline(c analysis.Chunk, ackWait time.Duration) time.Duration {
	d := ackWait
	jobs := c.Jobs
	if c.Warmup != nil {
		jobs = append([]analysis.Job{*c.Warmup}, jobs...)
	}
	for _, j := range jobs {
		switch {
		case j.Skip:
		case j.Limits.Nodes > 0:
			d += time.Duration(j.Limits.Nodes) * (time.Second / slowNodesPerSecond)
		case j.Limits.Depth > 0:
			d += depthPositionTime
		}
	}
	return d
}

// arm returns a channel that fires at the earliest deadline of a chunk
// still without a result (now: the time of the last check).
func (s *submission) arm(a *assembler, now time.Time) <-chan time.Time {
	var first time.Time
	for i, due := range s.due {
		if !a.got[i] && (first.IsZero() || due.Before(first)) {
			first = due
		}
	}
	after := s.d.after
	if after == nil {
		after = time.After
	}
	return after(max(first.Sub(now), 0))
}

// checkDeadlines looks at every chunk without a result whose deadline has
// passed at now. One whose message left the work stream (acked or
// terminated without a valid result) is lost: published again with a new
// nonce, at most lostMax times before the job fails. One still there
// waits another deadline, unless the workers' consumer has nothing
// waiting or in flight: then JetStream gave up delivering it (MaxDeliver)
// and no advisory said so (handleGaveUp, which finds it at once, busy
// cluster or not), and it is lost too.
func (s *submission) checkDeadlines(ctx context.Context, a *assembler, now time.Time) error {
	var expired []int
	for i, due := range s.due {
		if !a.got[i] && !now.Before(due) {
			expired = append(expired, i)
		}
	}
	if len(expired) == 0 {
		return nil
	}
	waiting, idle, err := s.workState(ctx)
	if err != nil {
		return err
	}
	for _, i := range expired {
		// messages JetStream gave up on stay in the stream: not this one
		n := waiting[workSubject(s.job, i)]
		why := "taken by a worker but no valid result arrived by its deadline"
		switch {
		case n > uint64(s.stuck[i]) && !idle:
			s.due[i] = now.Add(chunkDeadline(s.chunks[i], s.ackWait))
			s.log.Debug().Int("chunk", i).Msg("cluster: chunk past its deadline still waits or is searched")
			s.warnGaveUpDenied()
			continue
		case n > uint64(s.stuck[i]):
			// idle: every message of the chunk left in the stream is stuck
			for _, seq := range s.pubs[i] {
				s.stuckSeq[seq] = true
			}
			s.stuck[i] = int(n)
			why = "not delivered again: JetStream gave up delivering it (the workers' consumer is idle)"
		}
		if err := s.lose(ctx, i, why); err != nil {
			return err
		}
	}
	return nil
}

// warnGaveUpDenied says once per job that the server refused the
// max-deliveries advisories, so a chunk JetStream gave up on is found
// only when the workers' consumer is idle.
func (s *submission) warnGaveUpDenied() {
	if s.warnedDenied || !s.d.Conn.gaveUpDenied.Load() {
		return
	}
	s.warnedDenied = true
	s.log.Warn().Str("subject", gaveUpSubject).Msg("cluster: the server refused the subscription to JetStream's max-deliveries advisories " +
		"(its authorization predates them, or a user JWT lacks the subject): a chunk JetStream gave up on is published again only once the workers' consumer is idle")
}

// lose publishes chunk i again after its publication was lost (why), or
// fails the job after lostMax losses.
func (s *submission) lose(ctx context.Context, i int, why string) error {
	s.lost[i]++
	bound := chunkDeadline(s.chunks[i], s.ackWait)
	if s.lost[i] >= lostMax {
		return fmt.Errorf("cluster: job %s chunk %d: taken %d times without a valid result within %s each (a worker acked or terminated it, or JetStream gave up delivering it, and sent nothing the submitter accepts); the last time %s", s.job, i, s.lost[i], bound, why)
	}
	s.log.Error().Int("chunk", i).Int("lost", s.lost[i]).Dur("deadline", bound).
		Msg("cluster: chunk " + why + "; the chunk is published again")
	if err := s.encode(i); err != nil {
		return err
	}
	return s.publish(ctx, i)
}

// gaveUpBuffer is how many max-deliveries advisories may wait for the
// submitter's loop (every job's advisories come to every submitter; past
// it they are dropped, and checkDeadlines is the fallback).
const gaveUpBuffer = 256

// watchGaveUp subscribes to JetStream's max-deliveries advisories of the
// workers' consumer and returns them, with the function that ends the
// subscription. Without it (a failed subscription) the channel is nil,
// and chunks JetStream gave up on are found by checkDeadlines alone.
func (s *submission) watchGaveUp() (<-chan *nats.Msg, func()) {
	ch := make(chan *nats.Msg, gaveUpBuffer)
	sub, err := s.d.Conn.NC.ChanSubscribe(gaveUpSubject, ch)
	if err != nil {
		s.log.Warn().Err(err).Msg("cluster: subscribe to JetStream's max-deliveries advisories; a chunk JetStream gave up on is found only when the workers' consumer is idle")
		return nil, func() {}
	}
	return ch, func() { _ = sub.Unsubscribe() }
}

// handleGaveUp takes one max-deliveries advisory. When it names a message
// of one of the job's chunks, that message stays in the work stream and no
// worker gets it again (it is counted in stuck); when it is the current
// publication of a chunk without a result, the chunk is lost at once.
func (s *submission) handleGaveUp(ctx context.Context, a *assembler, data []byte) error {
	var adv struct {
		Stream    string `json:"stream"`
		Consumer  string `json:"consumer"`
		StreamSeq uint64 `json:"stream_seq"`
	}
	if json.Unmarshal(data, &adv) != nil || adv.Stream != WorkStream || adv.Consumer != WorkConsumer || adv.StreamSeq == 0 || s.stuckSeq[adv.StreamSeq] {
		return nil
	}
	for i, pubs := range s.pubs {
		for k, seq := range pubs {
			if seq != adv.StreamSeq {
				continue
			}
			s.stuckSeq[seq] = true
			s.stuck[i]++
			if k < len(pubs)-1 || a.got[i] {
				return nil // an earlier publication, or the chunk has its result
			}
			return s.lose(ctx, i, "not delivered again: JetStream gave up delivering it (delivered MaxDeliver times without an answer)")
		}
	}
	return nil
}

// workState returns how many messages of each of the job's chunk subjects
// the work stream holds, and whether the workers' consumer has nothing
// waiting or in flight.
func (s *submission) workState(ctx context.Context) (map[string]uint64, bool, error) {
	var subjects map[string]uint64
	var idle bool
	err := retryTransient(ctx, func() error {
		st, err := s.d.Conn.JS.Stream(ctx, WorkStream)
		if err != nil {
			return err
		}
		info, err := st.Info(ctx, jetstream.WithSubjectFilter(workPrefix+s.job+".>"))
		if err != nil {
			return err
		}
		subjects = info.State.Subjects
		if len(subjects) == 0 {
			return nil
		}
		cons, err := s.d.Conn.JS.Consumer(ctx, WorkStream, WorkConsumer)
		if err != nil {
			return err
		}
		ci, err := cons.Info(ctx)
		if err != nil {
			return err
		}
		idle = ci.NumPending == 0 && ci.NumAckPending == 0
		return nil
	})
	if err != nil {
		return nil, false, fmt.Errorf("cluster: job %s: look for chunks past their deadline: %w", s.job, err)
	}
	return subjects, idle, nil
}

// peekNonce is the top-level "nonce" of a message that does not decode
// as a result, when it comes before what breaks it ("" otherwise).
func peekNonce(data []byte) string { return peekString(data, "nonce") }

// peekWorker is the top-level "worker" of such a message, for the log.
func peekWorker(data []byte) string { return peekString(data, "worker") }

// peekString reads top-level members of a JSON object until key (matched
// as encoding/json matches field names) and returns its string value.
func peekString(data []byte, key string) string {
	dec := json.NewDecoder(bytes.NewReader(data))
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return ""
	}
	for dec.More() {
		t, err := dec.Token()
		if err != nil {
			return ""
		}
		if k, _ := t.(string); strings.EqualFold(k, key) {
			var v string
			if dec.Decode(&v) != nil {
				return ""
			}
			return v
		}
		var skip json.RawMessage
		if dec.Decode(&skip) != nil {
			return ""
		}
	}
	return ""
}
