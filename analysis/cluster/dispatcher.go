package cluster

import (
	"context"
	"crypto/rand"
	"encoding/hex"
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

// RunChunks publishes the chunks that are neither done nor waiting and
// returns every chunk's outcomes once all results are in. A result that
// carries a worker's error fails the job; a second result for a chunk is
// ignored.
func (d *Dispatcher) RunChunks(ctx context.Context, spec analysis.EngineSpec, chunks []analysis.Chunk, done func(int)) ([][]analysis.Outcome, error) {
	if len(chunks) == 0 {
		return nil, nil
	}
	if err := d.Conn.Ensure(ctx, d.Settings); err != nil {
		return nil, err
	}
	eng, err := EngineFor(spec)
	if err != nil {
		return nil, fmt.Errorf("cluster: %w", err)
	}
	job, err := JobID(eng, chunks)
	if err != nil {
		return nil, err
	}
	nonce, err := newNonce()
	if err != nil {
		return nil, err
	}
	// every chunk is checked as a worker checks it before any is published
	msgs := make([][]byte, len(chunks))
	for i, c := range chunks {
		if msgs[i], err = encodeChunk(job, i, nonce, eng, c); err != nil {
			return nil, fmt.Errorf("cluster: job %s chunk %d: %w", job, i, err)
		}
	}
	positions := 0
	for _, c := range chunks {
		positions += len(c.Jobs)
	}
	log := d.Logger.With().Str("job", job).Logger()
	if err := d.recordJob(ctx, jobInfo{ID: job, Chunks: len(chunks), Positions: positions, Engine: eng.String(), Created: time.Now().UTC()}); err != nil {
		return nil, err
	}
	// read the results first, so none published meanwhile is missed
	results, err := openResults(ctx, d.Conn.JS, job, log)
	if err != nil {
		return nil, err
	}
	stop := context.AfterFunc(ctx, results.stop)
	defer stop()
	defer results.stop()
	have, err := d.resultsStored(ctx, job)
	if err != nil {
		return nil, err
	}
	waiting, err := d.workWaiting(ctx, job)
	if err != nil {
		return nil, err
	}
	published := 0
	for i := range chunks {
		if have[i] || waiting[i] {
			continue
		}
		if err := d.publishChunk(ctx, job, i, nonce, msgs[i]); err != nil {
			return nil, err
		}
		published++
	}
	log.Debug().Int("chunks", len(chunks)).Int("published", published).Int("done", len(have)).Int("waiting", len(waiting)).Msg("job submitted")
	republish := func(i int) error { return d.publishChunk(ctx, job, i, nonce, msgs[i]) }
	return d.collect(ctx, job, nonce, results, chunks, republish, done)
}

// publishChunk publishes chunk i of job for this run (nonce), encoded
// and checked beforehand (b).
func (d *Dispatcher) publishChunk(ctx context.Context, job string, i int, nonce string, b []byte) error {
	if err := retryTransient(ctx, func() error {
		_, err := d.Conn.JS.Publish(ctx, workSubject(job, i), b, jetstream.WithMsgID(msgID("chunk", job, i, nonce)))
		return err
	}); err != nil {
		return fmt.Errorf("cluster: job %s: publish chunk %d: %w", job, i, err)
	}
	return nil
}

// collect reads results until every chunk has one. A failure of this run
// (nonce) fails the job; a failure stored by an earlier run is not kept:
// the chunk is published again (republish), so a job asked again runs its
// failed chunks again — without purging anything, which only the admin
// may do.
func (d *Dispatcher) collect(ctx context.Context, job, nonce string, results *resultReader, chunks []analysis.Chunk, republish func(int) error, done func(int)) ([][]analysis.Outcome, error) {
	a := newAssembler(job, chunks)
	for !a.complete() {
		msg, err := results.next(ctx)
		if err != nil {
			return nil, err
		}
		n, err := a.add(msg.Subject(), msg.Data())
		if err != nil {
			var fe *failedChunk
			// a refusal of an undecodable chunk carries no nonce: it is
			// this run's (a stored failure of an earlier run has one)
			if errors.As(err, &fe) && fe.nonce != nonce && fe.nonce != "" {
				if err := republish(fe.index); err != nil {
					return nil, err
				}
				continue
			}
			return nil, err
		}
		if n > 0 && done != nil {
			done(n)
		}
	}
	if a.engine != "" {
		d.mu.Lock()
		d.engine = a.engine
		d.mu.Unlock()
	}
	return a.out, nil
}

// assembler collects one job's results, each chunk once.
type assembler struct {
	job     string
	chunks  []analysis.Chunk
	out     [][]analysis.Outcome
	got     []bool
	missing int
	// Duplicates counts results ignored because their chunk had one.
	duplicates int
	engine     string // the engine name of the last result that had one
}

func newAssembler(job string, chunks []analysis.Chunk) *assembler {
	return &assembler{job: job, chunks: chunks, out: make([][]analysis.Outcome, len(chunks)), got: make([]bool, len(chunks)), missing: len(chunks)}
}

func (a *assembler) complete() bool { return a.missing == 0 }

// add takes one result message and returns the number of positions it
// completed (0 for a duplicate).
func (a *assembler) add(subject string, data []byte) (int, error) {
	job, index, err := parseSubject(resultsPrefix, subject)
	if err != nil {
		return 0, err
	}
	if job != a.job || index >= len(a.chunks) {
		return 0, fmt.Errorf("cluster: job %s: result for %s chunk %d is not this job's", a.job, job, index)
	}
	if a.got[index] {
		a.duplicates++
		return 0, nil
	}
	var r resultMsg
	if err := json.Unmarshal(data, &r); err != nil {
		return 0, fmt.Errorf("cluster: job %s chunk %d: bad result: %w", a.job, index, err)
	}
	if r.Err != "" {
		return 0, &failedChunk{index: index, nonce: r.Nonce, err: fmt.Errorf("cluster: job %s chunk %d: worker %s: %s", a.job, index, r.Worker, r.Err)}
	}
	if len(r.Outcomes) != len(a.chunks[index].Jobs) {
		return 0, fmt.Errorf("cluster: job %s chunk %d: %d outcomes for %d positions", a.job, index, len(r.Outcomes), len(a.chunks[index].Jobs))
	}
	for i, j := range a.chunks[index].Jobs {
		if j.Skip {
			r.Outcomes[i] = j.Fixed // a terminal position's outcome is the submitter's
		}
	}
	if r.Engine != "" {
		a.engine = r.Engine
	}
	a.out[index] = r.Outcomes
	a.got[index] = true
	a.missing--
	return len(r.Outcomes), nil
}

// failedChunk is a result that carries a worker's error.
type failedChunk struct {
	index int
	nonce string // the run that published the chunk
	err   error
}

func (f *failedChunk) Error() string { return f.err.Error() }
func (f *failedChunk) Unwrap() error { return f.err }

// newNonce returns a random publication id.
func newNonce() (string, error) {
	var b [8]byte
	if _, err := rand.Read(b[:]); err != nil {
		return "", fmt.Errorf("cluster: nonce: %w", err)
	}
	return hex.EncodeToString(b[:]), nil
}

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

// resultsStored returns the chunks of job that have a result in the stream.
func (d *Dispatcher) resultsStored(ctx context.Context, job string) (map[int]bool, error) {
	return subjectsIn(ctx, d.Conn.JS, ResultsStream, resultsPrefix, job)
}

// workWaiting returns the chunks of job still in the work stream.
func (d *Dispatcher) workWaiting(ctx context.Context, job string) (map[int]bool, error) {
	return subjectsIn(ctx, d.Conn.JS, WorkStream, workPrefix, job)
}

// subjectsIn lists the chunk indexes of job with a message in stream.
func subjectsIn(ctx context.Context, js jetstream.JetStream, stream, prefix, job string) (map[int]bool, error) {
	var info *jetstream.StreamInfo
	err := retryTransient(ctx, func() error {
		s, err := js.Stream(ctx, stream)
		if err == nil {
			info, err = s.Info(ctx, jetstream.WithSubjectFilter(prefix+job+".>"))
		}
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("cluster: stream %s: %w", stream, err)
	}
	out := map[int]bool{}
	for subj := range info.State.Subjects {
		_, i, err := parseSubject(prefix, subj)
		if err != nil {
			return nil, err
		}
		out[i] = true
	}
	return out, nil
}
