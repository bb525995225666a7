package cluster

import (
	"context"
	"crypto/subtle"
	"encoding/json"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
	"github.com/rs/zerolog"

	"github.com/outpostchess/outpost/analysis"
)

// Dispatcher is an analysis.Dispatcher that publishes chunks to the work
// stream and assembles the workers' results. Set it as
// analysis.PoolConfig.Dispatcher.
type Dispatcher struct {
	Conn     *Conn
	Settings Settings
	Logger   zerolog.Logger

	mu     sync.Mutex
	engine string
	// after arms a chunk deadline (default time.After); the time it sends
	// is the submitter's now for the check (tests send their own).
	after func(time.Duration) <-chan time.Time
}

// EngineName is the name the workers' engine reported with the last
// result ("" before any).
func (d *Dispatcher) EngineName() string {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.engine
}

var _ analysis.Dispatcher = (*Dispatcher)(nil)

// RunChunks publishes the chunks as a new job and returns every chunk's
// outcomes once all results are in. Each chunk carries its own nonce, and
// a result counts only with its chunk's nonce and outcomes that pass
// verifyOutcomes; anything else is dropped and logged (a forged or stray
// result never fails or blocks the job). A result that carries a
// worker's error fails the job; a second result for a chunk is ignored.
// A permissions violation the server reports meanwhile (credentials
// without the client role) fails it at once, naming the violation.
func (d *Dispatcher) RunChunks(ctx context.Context, spec analysis.EngineSpec, chunks []analysis.Chunk, done func(int)) ([][]analysis.Outcome, error) {
	if len(chunks) == 0 {
		return nil, nil
	}
	gctx, stop := d.Conn.guard(ctx, RoleClient)
	defer stop()
	out, err := d.runChunks(gctx, spec, chunks, done)
	if v := denied(gctx); v != nil {
		return nil, v
	}
	return out, err
}

func (d *Dispatcher) runChunks(ctx context.Context, spec analysis.EngineSpec, chunks []analysis.Chunk, done func(int)) ([][]analysis.Outcome, error) {
	if err := d.Conn.Ensure(ctx, d.Settings, d.Logger); err != nil {
		return nil, err
	}
	eng, err := EngineFor(spec)
	if err != nil {
		return nil, fmt.Errorf("cluster: %w", err)
	}
	job, err := randomHex(jobIDLen)
	if err != nil {
		return nil, err
	}
	s := newSubmission(d, job, eng, chunks)
	// every chunk is checked as a worker checks it before any is published
	for i := range chunks {
		if err := s.encode(i); err != nil {
			return nil, err
		}
	}
	positions := 0
	for _, c := range chunks {
		positions += len(c.Jobs)
	}
	if err := d.recordJob(ctx, jobInfo{ID: job, Chunks: len(chunks), Positions: positions, Engine: eng.String(), Created: time.Now().UTC()}); err != nil {
		return nil, err
	}
	// read the results first, so none published meanwhile is missed
	results, err := openResults(ctx, d.Conn.JS, job, s.log)
	if err != nil {
		return nil, err
	}
	stop := context.AfterFunc(ctx, results.stop)
	defer stop()
	defer results.stop()
	// hear JetStream give up on a chunk before any is published
	gaveUp, unsubscribe := s.watchGaveUp()
	defer unsubscribe()
	for i := range chunks {
		if err := s.publish(ctx, i); err != nil {
			return nil, err
		}
	}
	s.log.Debug().Int("chunks", len(chunks)).Msg("job submitted")
	return s.collect(ctx, results, gaveUp, done)
}

// submission is one job of RunChunks: its chunks, each with the nonces of
// its publications (the last is the current one).
type submission struct {
	d      *Dispatcher
	job    string
	eng    EngineSettings
	chunks []analysis.Chunk
	nonces [][]string // every nonce chunk i was published with, the current last
	msgs   [][]byte   // chunk i's message, with its current nonce
	// refused counts the results refused per chunk (refusedMax fails it)
	refused map[int]int
	// lost counts the publications of a chunk that left the work stream
	// without a valid result (lostMax fails it)
	lost map[int]int
	// due is when chunk i's current publication should have its result
	// (chunkDeadline after it was published)
	due []time.Time
	// pubs are the work stream's sequences of chunk i's publications, the
	// current last (JetStream's max-deliveries advisory names one)
	pubs [][]uint64
	// stuck counts chunk i's messages that JetStream gave up delivering:
	// they stay in the work stream, and no worker gets them again
	stuck []int
	// stuckSeq are the sequences counted in stuck
	stuckSeq map[uint64]bool
	// warnedDenied: the log said once that the advisories are refused
	warnedDenied bool
	ackWait      time.Duration
	log          zerolog.Logger
}

func newSubmission(d *Dispatcher, job string, eng EngineSettings, chunks []analysis.Chunk) *submission {
	return &submission{d: d, job: job, eng: eng, chunks: chunks, nonces: make([][]string, len(chunks)), msgs: make([][]byte, len(chunks)),
		refused: map[int]int{}, lost: map[int]int{}, due: make([]time.Time, len(chunks)), ackWait: d.Settings.withDefaults().AckWait,
		pubs: make([][]uint64, len(chunks)), stuck: make([]int, len(chunks)), stuckSeq: map[uint64]bool{},
		log: d.Logger.With().Str("job", job).Logger()}
}

// refusedMax bounds how often one chunk's result may be refused (an
// illegal move, a score out of bounds) before the job fails: each refusal
// publishes the chunk again, for another worker or the same one, so a
// worker that always lies cannot keep a job alive for ever.
const refusedMax = 3

// encode gives chunk i a new nonce and its message, checked as a worker
// checks it.
func (s *submission) encode(i int) error {
	nonce, err := randomHex(nonceLen)
	if err != nil {
		return err
	}
	b, err := encodeChunk(s.job, i, nonce, s.eng, s.chunks[i])
	if err != nil {
		return fmt.Errorf("cluster: job %s chunk %d: %w", s.job, i, err)
	}
	s.nonces[i], s.msgs[i] = append(s.nonces[i], nonce), b
	return nil
}

// publish publishes chunk i with its current nonce, sets its deadline
// and records its sequence in the work stream.
func (s *submission) publish(ctx context.Context, i int) error {
	s.due[i] = time.Now().Add(chunkDeadline(s.chunks[i], s.ackWait))
	nonce := s.nonces[i][len(s.nonces[i])-1]
	var seq uint64
	if err := retryTransient(ctx, func() error {
		ack, err := s.d.Conn.JS.Publish(ctx, workSubject(s.job, i), s.msgs[i], jetstream.WithMsgID(msgID("chunk", s.job, i, nonce)))
		if err == nil {
			seq = ack.Sequence // a duplicate's is the stored message's
		}
		return err
	}); err != nil {
		return fmt.Errorf("cluster: job %s: publish chunk %d: %w", s.job, i, err)
	}
	s.pubs[i] = append(s.pubs[i], seq)
	return nil
}

// collect reads results until every chunk has one. A failure with the
// chunk's nonce fails the job; a result without it is dropped and logged;
// a result with it that does not decode or whose outcomes fail
// verification is refused and the chunk published again with a new nonce
// (at most refusedMax times); a chunk whose result is not in by its
// deadline is checked, and published again when it left the work stream
// without one (at most lostMax times: checkDeadlines); a chunk JetStream
// gave up delivering is published again as soon as its advisory comes on
// gaveUp, whatever else the cluster does (handleGaveUp).
func (s *submission) collect(ctx context.Context, results *resultReader, gaveUp <-chan *nats.Msg, done func(int)) ([][]analysis.Outcome, error) {
	a := newAssembler(s.job, s.chunks, s.nonces)
	msgs, errc, stop := s.feed(ctx, results)
	defer stop()
	tick := s.arm(a, time.Now())
	for !a.complete() {
		var msg jetstream.Msg
		select {
		case msg = <-msgs:
		case err := <-errc:
			return nil, err
		case now := <-tick:
			if err := s.checkDeadlines(ctx, a, now); err != nil {
				return nil, err
			}
			tick = s.arm(a, now)
			continue
		case m := <-gaveUp:
			if err := s.handleGaveUp(ctx, a, m.Data); err != nil {
				return nil, err
			}
			continue
		}
		n, err := a.add(msg.Subject(), msg.Data())
		var drop *droppedResult
		var bad *refusedResult
		switch {
		case errors.As(err, &drop):
			s.log.Warn().Str("subject", clip(msg.Subject())).Str("identity", drop.identity).Str("reason", drop.reason).Msg("cluster: result dropped (forged or stray: not a result this job asked for)")
			continue
		case errors.As(err, &bad):
			if err := s.refuse(ctx, bad); err != nil {
				return nil, err
			}
			continue
		case err != nil:
			return nil, err
		}
		if n > 0 && done != nil {
			done(n)
		}
	}
	if a.engine != "" {
		s.d.mu.Lock()
		s.d.engine = a.engine
		s.d.mu.Unlock()
	}
	return a.out, nil
}

// feed reads results into msgs until stop (which waits for the reader
// goroutine); a read that fails for good is sent on errc.
func (s *submission) feed(ctx context.Context, results *resultReader) (<-chan jetstream.Msg, <-chan error, func()) {
	rctx, cancel := context.WithCancel(ctx)
	msgs, errc := make(chan jetstream.Msg), make(chan error, 1)
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		for {
			msg, err := results.next(rctx)
			if err != nil {
				errc <- err
				return
			}
			select {
			case msgs <- msg:
			case <-rctx.Done():
				return
			}
		}
	}()
	return msgs, errc, func() {
		cancel()
		results.stop()
		wg.Wait()
	}
}

// refuse logs a refused result and publishes its chunk again with a new
// nonce, or fails the job when the chunk was refused refusedMax times.
func (s *submission) refuse(ctx context.Context, bad *refusedResult) error {
	s.refused[bad.index]++
	s.log.Error().Int("chunk", bad.index).Str("identity", bad.identity).Str("worker", printable(bad.worker)).Str("reason", bad.reason).
		Int("refused", s.refused[bad.index]).Msg("cluster: result refused (its worker took the chunk but answered outside the rules); the chunk is published again")
	if s.refused[bad.index] >= refusedMax {
		return fmt.Errorf("cluster: job %s chunk %d: %d results refused, the last from identity %s (worker %q): %s", s.job, bad.index, s.refused[bad.index], bad.identity, clip(bad.worker), bad.reason)
	}
	if err := s.encode(bad.index); err != nil {
		return err
	}
	return s.publish(ctx, bad.index)
}

// assembler collects one job's results, each chunk once, each only with
// its chunk's nonce.
type assembler struct {
	job     string
	chunks  []analysis.Chunk
	nonces  [][]string // chunk i's nonces, one per publication (shared with the submission)
	out     [][]analysis.Outcome
	got     []bool
	missing int
	// Duplicates counts results ignored because their chunk had one.
	duplicates int
	engine     string // the engine name of the last result that had one
	// revoked are the nonces whose result was refused: a publication is
	// refused once, so one worker cannot spend a chunk's refusals alone
	revoked map[string]bool
}

func newAssembler(job string, chunks []analysis.Chunk, nonces [][]string) *assembler {
	return &assembler{job: job, chunks: chunks, nonces: nonces, out: make([][]analysis.Outcome, len(chunks)), got: make([]bool, len(chunks)), missing: len(chunks), revoked: map[string]bool{}}
}

func (a *assembler) complete() bool { return a.missing == 0 }

// add takes one result message and returns the number of positions it
// completed (0 for a duplicate). A result that is not this job's with the
// chunk's nonce is a *droppedResult; one with the nonce whose outcomes
// fail verifyOutcomes a *refusedResult; a worker's error a *failedChunk.
func (a *assembler) add(subject string, data []byte) (int, error) {
	job, index, identity, err := parseResultSubject(subject)
	if err != nil {
		return 0, &droppedResult{identity: "?", reason: err.Error()}
	}
	identity = printable(clip(identity))
	if job != a.job || index >= len(a.chunks) {
		return 0, &droppedResult{identity: identity, reason: fmt.Sprintf("job %s chunk %d is not a chunk of this job", clip(job), index)}
	}
	var r resultMsg
	if err := json.Unmarshal(data, &r); err != nil {
		reason := fmt.Sprintf("chunk %d: not a result message: %v", index, err)
		if nonce := peekNonce(data); a.ours(index, nonce) {
			// only a worker the chunk was delivered to knows its nonce:
			// it took the chunk and answered it with something else
			a.revoked[nonce] = true
			return 0, &refusedResult{index: index, identity: identity, worker: peekWorker(data), reason: clip(reason)}
		}
		return 0, &droppedResult{identity: identity, reason: reason}
	}
	if !a.ours(index, r.Nonce) {
		return 0, &droppedResult{identity: identity, reason: fmt.Sprintf("chunk %d: not the nonce this job sent with the chunk", index)}
	}
	if a.got[index] {
		a.duplicates++
		return 0, nil
	}
	if r.Err != "" {
		return 0, &failedChunk{index: index, err: fmt.Errorf("cluster: job %s chunk %d: worker %q (identity %s): %s", a.job, index, clip(r.Worker), identity, printable(r.Err))}
	}
	if err := verifyOutcomes(a.chunks[index], r.Outcomes); err != nil {
		a.revoked[r.Nonce] = true // one refusal per publication
		return 0, &refusedResult{index: index, identity: identity, worker: r.Worker, reason: err.Error()}
	}
	for i, j := range a.chunks[index].Jobs {
		if j.Skip {
			r.Outcomes[i] = j.Fixed // a terminal position's outcome is the submitter's
		}
	}
	if name := r.Engine; name != "" && len(name) <= maxEngineName && printable(name) == name {
		a.engine = name
	}
	a.out[index] = r.Outcomes
	a.got[index] = true
	a.missing--
	return len(r.Outcomes), nil
}

// ours reports whether nonce is one chunk index was published with by
// this submission and not refused (a late result of an earlier, lost
// publication counts too).
func (a *assembler) ours(index int, nonce string) bool {
	if a.revoked[nonce] {
		return false
	}
	ok := 0
	for _, n := range a.nonces[index] {
		ok |= subtle.ConstantTimeCompare([]byte(nonce), []byte(n))
	}
	return ok == 1
}

// droppedResult is a result this job did not ask for: another job's, one
// without the chunk's nonce, or not a result at all.
type droppedResult struct {
	identity string // the subject's identity token
	reason   string
}

func (d *droppedResult) Error() string { return "result dropped: " + d.reason }

// refusedResult is a result with the chunk's nonce whose outcomes fail
// verification.
type refusedResult struct {
	index            int
	identity, worker string
	reason           string
}

func (r *refusedResult) Error() string { return "result refused: " + r.reason }

// failedChunk is a result that carries a worker's error.
type failedChunk struct {
	index int
	err   error
}

func (f *failedChunk) Error() string { return f.err.Error() }
func (f *failedChunk) Unwrap() error { return f.err }

func (d *Dispatcher) recordJob(ctx context.Context, info jobInfo) error {
	return retryTransient(ctx, func() error { return d.recordJobOnce(ctx, info) })
}

func (d *Dispatcher) recordJobOnce(ctx context.Context, info jobInfo) error {
	kv, err := d.Conn.JS.KeyValue(ctx, JobsBucket)
	if err != nil {
		return fmt.Errorf("cluster: bucket %s: %w", JobsBucket, err)
	}
	if _, err := kv.Get(ctx, info.ID); err == nil {
		return nil // a resumed job keeps its creation time
	} else if !errors.Is(err, jetstream.ErrKeyNotFound) {
		return fmt.Errorf("cluster: job %s: %w", info.ID, err)
	}
	b, err := json.Marshal(info)
	if err != nil {
		return err
	}
	if _, err := kv.Put(ctx, info.ID, b); err != nil {
		return fmt.Errorf("cluster: record job %s: %w", info.ID, err)
	}
	return nil
}
