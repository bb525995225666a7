package cluster

import (
	"context"
	"crypto/subtle"
	"encoding/json"
	"errors"
	"fmt"
	"sync"
	"time"

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
func (d *Dispatcher) RunChunks(ctx context.Context, spec analysis.EngineSpec, chunks []analysis.Chunk, done func(int)) ([][]analysis.Outcome, error) {
	if len(chunks) == 0 {
		return nil, nil
	}
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
	s := &submission{d: d, job: job, eng: eng, chunks: chunks, nonces: make([]string, len(chunks)), msgs: make([][]byte, len(chunks)),
		log: d.Logger.With().Str("job", job).Logger()}
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
	for i := range chunks {
		if err := s.publish(ctx, i); err != nil {
			return nil, err
		}
	}
	s.log.Debug().Int("chunks", len(chunks)).Msg("job submitted")
	return s.collect(ctx, results, done)
}

// submission is one job of RunChunks: its chunks, each with the nonce of
// its current publication.
type submission struct {
	d      *Dispatcher
	job    string
	eng    EngineSettings
	chunks []analysis.Chunk
	nonces []string
	msgs   [][]byte // chunk i's message, with nonces[i]
	// refused counts the results refused per chunk (refusedMax fails it)
	refused map[int]int
	log     zerolog.Logger
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
	s.nonces[i], s.msgs[i] = nonce, b
	return nil
}

// publish publishes chunk i with its current nonce.
func (s *submission) publish(ctx context.Context, i int) error {
	if err := retryTransient(ctx, func() error {
		_, err := s.d.Conn.JS.Publish(ctx, workSubject(s.job, i), s.msgs[i], jetstream.WithMsgID(msgID("chunk", s.job, i, s.nonces[i])))
		return err
	}); err != nil {
		return fmt.Errorf("cluster: job %s: publish chunk %d: %w", s.job, i, err)
	}
	return nil
}

// collect reads results until every chunk has one. A failure with the
// chunk's nonce fails the job; a result without it is dropped and logged;
// a result with it whose outcomes fail verification is refused and the
// chunk published again with a new nonce (at most refusedMax times).
func (s *submission) collect(ctx context.Context, results *resultReader, done func(int)) ([][]analysis.Outcome, error) {
	a := newAssembler(s.job, s.chunks, s.nonces)
	for !a.complete() {
		msg, err := results.next(ctx)
		if err != nil {
			return nil, err
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

// refuse logs a refused result and publishes its chunk again with a new
// nonce, or fails the job when the chunk was refused refusedMax times.
func (s *submission) refuse(ctx context.Context, bad *refusedResult) error {
	if s.refused == nil {
		s.refused = map[int]int{}
	}
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
	nonces  []string // chunk i's current nonce (shared with the submission)
	out     [][]analysis.Outcome
	got     []bool
	missing int
	// Duplicates counts results ignored because their chunk had one.
	duplicates int
	engine     string // the engine name of the last result that had one
}

func newAssembler(job string, chunks []analysis.Chunk, nonces []string) *assembler {
	return &assembler{job: job, chunks: chunks, nonces: nonces, out: make([][]analysis.Outcome, len(chunks)), got: make([]bool, len(chunks)), missing: len(chunks)}
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
		return 0, &droppedResult{identity: identity, reason: fmt.Sprintf("chunk %d: not a result message: %v", index, err)}
	}
	if subtle.ConstantTimeCompare([]byte(r.Nonce), []byte(a.nonces[index])) != 1 {
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
