package cluster

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
	"github.com/rs/zerolog"

	"github.com/outpostchess/outpost/analysis"
	"github.com/outpostchess/outpost/bots/enginepath"
	"github.com/outpostchess/outpost/bots/uci"
)

// workerTTL is how long a worker's heartbeat stays in the workers bucket:
// three missed heartbeats and the worker is gone from the status.
const workerTTL = 3 * heartbeatEvery

// heartbeatEvery is how often a worker writes its state to the workers
// bucket.
const heartbeatEvery = 5 * time.Second

// fetchWait bounds one pull request, so a worker notices its context
// ending within it.
const fetchWait = 5 * time.Second

// StartFunc starts an engine for a chunk's settings; the default is
// analysis.StartEngine (tests pass fakes).
type StartFunc func(ctx context.Context, spec analysis.EngineSpec, log zerolog.Logger) (analysis.Searcher, error)

// Worker pulls chunks from the work stream and runs them on its engines.
type Worker struct {
	Conn *Conn
	// ID names the worker in results and the status (default host-PID).
	ID string
	// Engines is how many engines run at once (default 1).
	Engines  int
	Settings Settings
	// Start starts engines (default analysis.StartEngine).
	Start StartFunc
	// Retries is how often a position is retried on a restarted engine
	// (default 2, as the local pool).
	Retries int
	Logger  zerolog.Logger
	// OnChunk, if set, is called when an engine starts a chunk (tests).
	OnChunk func(job string, index int)
	// OnStarted, if set, is called once the worker has found the
	// cluster's streams and its consumer and written its first heartbeat,
	// before it takes any work: credentials of the wrong role fail Run
	// before it is called (outpost worker says "worker started" there).
	OnStarted func()

	chunks    atomic.Int64 // chunks done
	failed    atomic.Int64 // chunks answered as failed
	positions atomic.Int64
	nodes     atomic.Int64
	busy      atomic.Int64
}

// WorkerState is a worker's heartbeat in the workers bucket.
type WorkerState struct {
	ID      string `json:"id"`
	Host    string `json:"host"`
	Engines int    `json:"engines"`
	Busy    int    `json:"busy"`
	Chunks  int64  `json:"chunks"`
	// Failed counts the chunks answered as failed (refused, or an engine
	// error); they are not in Chunks.
	Failed    int64 `json:"failed"`
	Positions int64 `json:"positions"`
	Nodes     int64 `json:"nodes"`
	// Rate is positions per second over the last rateWindow.
	Rate    float64   `json:"rate"`
	Started time.Time `json:"started"`
	Updated time.Time `json:"updated"`
}

// rateSpan is the span over which a worker's throughput is measured.
const rateSpan = time.Minute

// rateWindow keeps (time, positions done) samples of the last rateSpan.
type rateWindow struct {
	at  []time.Time
	pos []int64
}

// add records a sample and returns positions per second since the oldest
// sample still in the span (0 with one sample).
func (r *rateWindow) add(t time.Time, positions int64) float64 {
	r.at, r.pos = append(r.at, t), append(r.pos, positions)
	for len(r.at) > 1 && t.Sub(r.at[0]) > rateSpan {
		r.at, r.pos = r.at[1:], r.pos[1:]
	}
	if d := t.Sub(r.at[0]).Seconds(); d > 0 {
		return float64(positions-r.pos[0]) / d
	}
	return 0
}

// slot is one engine of a worker, kept between chunks with the same
// settings.
type slot struct {
	key string
	eng analysis.Searcher
}

// Run works until ctx ends; it returns nil then. Engines are closed and a
// chunk still searched is left unacknowledged (JetStream gives it to
// another worker after the ack wait); one whose search has finished is
// answered and acked first, so it is never analysed twice. A permissions
// violation the server reports (credentials without the worker role) ends
// it at once with an error naming the violation, at the latest at the
// first heartbeat, before OnStarted is called.
func (w *Worker) Run(ctx context.Context) error {
	gctx, stop := w.Conn.guard(ctx, RoleWorker)
	defer stop()
	err := w.run(gctx)
	if v := denied(gctx); v != nil {
		return fmt.Errorf("cluster: worker %s: %w", w.ID, v)
	}
	return err
}

func (w *Worker) run(ctx context.Context) error {
	if w.Engines <= 0 {
		w.Engines = 1
	}
	if w.Retries <= 0 {
		w.Retries = 2
	}
	if w.Start == nil {
		w.Start = analysis.StartEngine
	}
	host, _ := os.Hostname()
	if w.ID == "" {
		w.ID = fmt.Sprintf("%s-%d", host, os.Getpid())
	}
	if err := w.Conn.Ensure(ctx, w.Settings, w.Logger); err != nil {
		if ctx.Err() != nil {
			return nil // stopped while waiting for the cluster
		}
		return err
	}
	cons, err := w.Conn.JS.Consumer(ctx, WorkStream, WorkConsumer)
	if err != nil {
		return fmt.Errorf("cluster: worker %s: consumer: %w", w.ID, err)
	}
	ackWait := cons.CachedInfo().Config.AckWait
	kv, err := w.Conn.JS.KeyValue(ctx, WorkersBucket)
	if err != nil {
		return fmt.Errorf("cluster: worker %s: bucket: %w", w.ID, err)
	}
	state := WorkerState{ID: w.ID, Host: host, Engines: w.Engines, Started: time.Now().UTC()}
	// The first heartbeat is written before any work is taken: a worker
	// that has done work is always listed in the cluster's status, and
	// one whose credentials may not write it fails here, before it says
	// it started.
	var rate rateWindow
	if err := retryTransient(ctx, func() error { return w.beat(ctx, kv, &state, &rate) }); err != nil {
		if ctx.Err() != nil && denied(ctx) == nil {
			return nil // stopped while starting
		}
		return fmt.Errorf("cluster: worker %s: first heartbeat: %w", w.ID, w.Conn.explain(err))
	}
	if w.OnStarted != nil {
		w.OnStarted()
	}
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		w.heartbeat(ctx, kv, state, rate)
	}()
	errs := make(chan error, w.Engines)
	for i := 0; i < w.Engines; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			errs <- w.loop(ctx, cons, ackWait, w.Logger.With().Str("worker", w.ID).Int("engine", i).Logger())
		}(i)
	}
	wg.Wait()
	close(errs)
	// the worker's key goes at once, not after its TTL
	delCtx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 2*time.Second)
	defer cancel()
	_ = kv.Delete(delCtx, w.statusKey())
	var all []error
	for err := range errs {
		if err != nil {
			all = append(all, err)
		}
	}
	return errors.Join(all...)
}

// statusKey is the worker's key in the workers bucket: its ID, under its
// identity's public key when it has credentials (the server lets an
// identity write only the keys under its own public key, so no worker can
// write another's entry).
func (w *Worker) statusKey() string {
	if w.Conn.Identity == "" {
		return w.ID
	}
	return w.Conn.Identity + "." + w.ID
}

// heartbeat writes the worker's state every heartbeatEvery until ctx ends
// (the first one is written by Run before the work starts).
func (w *Worker) heartbeat(ctx context.Context, kv jetstream.KeyValue, st WorkerState, r rateWindow) {
	t := time.NewTicker(heartbeatEvery)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		if err := w.beat(ctx, kv, &st, &r); err != nil && ctx.Err() == nil {
			w.Logger.Warn().Err(err).Msg("cluster: heartbeat")
		}
	}
}

// beat writes the worker's state once, with its counters now.
func (w *Worker) beat(ctx context.Context, kv jetstream.KeyValue, st *WorkerState, r *rateWindow) error {
	st.Busy = int(w.busy.Load())
	st.Chunks, st.Failed, st.Positions, st.Nodes = w.chunks.Load(), w.failed.Load(), w.positions.Load(), w.nodes.Load()
	st.Updated = time.Now().UTC()
	st.Rate = r.add(st.Updated, st.Positions)
	b, err := json.Marshal(*st)
	if err != nil {
		return fmt.Errorf("cluster: heartbeat: %w", err)
	}
	if _, err := kv.Put(ctx, w.statusKey(), b); err != nil {
		return fmt.Errorf("cluster: heartbeat %s: %w", w.statusKey(), err)
	}
	return nil
}

// loop is one engine's pull loop.
func (w *Worker) loop(ctx context.Context, cons jetstream.Consumer, ackWait time.Duration, log zerolog.Logger) error {
	var s slot
	defer func() {
		if s.eng != nil {
			s.eng.Close()
		}
	}()
	for ctx.Err() == nil {
		fctx, cancel := context.WithTimeout(ctx, fetchWait)
		msg, err := cons.Next(jetstream.FetchContext(fctx))
		cancel()
		if err != nil {
			if ctx.Err() != nil {
				return nil
			}
			if errors.Is(err, nats.ErrTimeout) || errors.Is(err, context.DeadlineExceeded) {
				continue
			}
			log.Warn().Err(err).Msg("cluster: fetch")
			select {
			case <-ctx.Done():
				return nil
			case <-time.After(time.Second):
			}
			continue
		}
		w.handle(ctx, msg, &s, ackWait, log)
	}
	return nil
}

// handle runs one chunk and publishes its result, then acks. A chunk
// decodeChunk refuses, or one naming an engine this machine does not have,
// is answered as failed with the reason and terminated (refuse). Errors of
// the chunk itself (a position an engine refuses) are published as the
// result so the submitter fails at once instead of waiting; errors of this
// worker (its engine does not start, ctx ended during the search) leave
// the chunk for redelivery. A search that completed is answered even when
// ctx ends meanwhile (answer), so the chunk is not analysed twice.
func (w *Worker) handle(ctx context.Context, msg jetstream.Msg, s *slot, ackWait time.Duration, log zerolog.Logger) {
	w.busy.Add(1)
	defer w.busy.Add(-1)
	d, err := decodeChunk(msg.Subject(), msg.Data())
	if err != nil {
		w.refuse(ctx, msg, "chunk refused: "+err.Error(), log)
		return
	}
	log = log.With().Str("job", d.job).Int("chunk", d.index).Logger()
	if w.OnChunk != nil {
		w.OnChunk(d.job, d.index)
	}
	if err := w.engine(ctx, s, d.engine, log); err != nil {
		if errors.Is(err, enginepath.ErrNotInstalled) {
			w.refuse(ctx, msg, fmt.Sprintf("engine %s is not installed on worker %s: %v", d.engine.Name, w.ID, err), log)
			return
		}
		log.Error().Err(err).Msg("cluster: engine does not start; chunk left for another worker")
		_ = msg.NakWithDelay(ackWait / 3)
		return
	}
	outs, err := w.search(ctx, msg, s.eng, d.chunk, ackWait, log)
	if err != nil && ctx.Err() != nil {
		return // stopped mid-search: the chunk goes to another worker
	}
	res := resultMsg{Job: d.job, Index: d.index, Worker: w.ID, Nonce: d.nonce, Engine: engineName(s.eng), Outcomes: outs}
	if err != nil {
		res = resultMsg{Job: d.job, Index: d.index, Worker: w.ID, Nonce: d.nonce, Err: err.Error()}
	}
	if !w.answer(ctx, msg, d, res, log) {
		return
	}
	if res.Err != "" {
		w.failed.Add(1)
		return
	}
	w.chunks.Add(1)
	w.positions.Add(int64(len(outs)))
	for _, o := range outs {
		w.nodes.Add(o.Nodes)
	}
}

// answer publishes a chunk's result and acks the chunk; it reports
// whether the result is stored. Both go through even while the worker
// stops (ctx ended): a stop that came while the result was being stored
// used to fail the publication with ctx's error and nak the stored
// chunk, which another worker then analysed again. A publication that
// fails on its own naks the chunk for another worker.
func (w *Worker) answer(ctx context.Context, msg jetstream.Msg, d *decoded, res resultMsg, log zerolog.Logger) bool {
	b, err := json.Marshal(res)
	if err != nil {
		log.Error().Err(err).Msg("cluster: encode result")
		_ = msg.Nak()
		return false
	}
	pubCtx, cancel := context.WithTimeout(context.WithoutCancel(ctx), answerPublishWait)
	_, err = w.Conn.JS.Publish(pubCtx, resultSubject(d.job, d.index, w.Conn.resultIdentity()), b, jetstream.WithMsgID(msgID("result", d.job, d.index, d.nonce)))
	cancel()
	if err != nil {
		log.Warn().Err(err).Msg("cluster: publish result; chunk left for redelivery")
		_ = msg.Nak()
		return false
	}
	ackCtx, cancel := context.WithTimeout(context.WithoutCancel(ctx), answerPublishWait)
	defer cancel()
	if err := msg.DoubleAck(ackCtx); err != nil {
		// the result is stored; a redelivery's second result is ignored
		log.Warn().Err(err).Msg("cluster: ack")
	}
	return true
}

// engine makes s hold an engine with the settings, starting one (the name
// resolved on this machine) when the slot has none or another.
func (w *Worker) engine(ctx context.Context, s *slot, eng EngineSettings, log zerolog.Logger) error {
	key := eng.String()
	if s.eng != nil && s.key == key {
		return nil
	}
	if s.eng != nil {
		s.eng.Close()
		s.eng = nil
	}
	e, err := w.Start(ctx, eng.spec(), log)
	if err != nil {
		return err
	}
	s.eng, s.key = e, key
	return nil
}

// search runs the chunk on eng, telling JetStream every ackWait/3 that the
// chunk is in progress.
func (w *Worker) search(ctx context.Context, msg jetstream.Msg, eng analysis.Searcher, c analysis.Chunk, ackWait time.Duration, log zerolog.Logger) ([]analysis.Outcome, error) {
	hbCtx, stopHB := context.WithCancel(ctx)
	defer stopHB()
	go func() {
		t := time.NewTicker(max(ackWait/3, 100*time.Millisecond))
		defer t.Stop()
		for {
			select {
			case <-hbCtx.Done():
				return
			case <-t.C:
				_ = msg.InProgress()
			}
		}
	}()
	return analysis.RunChunk(ctx, eng, c, w.Retries, log, nil)
}

// answerPublishWait bounds the publication of an answer (a result or a
// refusal), and the ack after it, also once the worker is stopping: one
// round trip to the server, with room for a busy machine.
const answerPublishWait = 5 * time.Second

// refuse answers a chunk this worker will not run as failed with the
// reason, once, and terminates it, so JetStream never delivers it again;
// it counts as failed, never as done. The answer goes to the chunk's
// results subject with the chunk's nonce when the message names its chunk
// and nonce (peekRoute), else to outpost.results.refused.SEQ.IDENTITY;
// its message id (the work stream's sequence) keeps it single if the
// chunk is delivered again before the termination lands.
func (w *Worker) refuse(ctx context.Context, msg jetstream.Msg, reason string, log zerolog.Logger) {
	if len(reason) > maxReasonLen {
		reason = reason[:maxReasonLen] + "…"
	}
	subject := msg.Subject()
	res := resultMsg{Worker: w.ID, Err: reason, Refused: clip(subject)}
	var seq uint64
	if md, err := msg.Metadata(); err == nil {
		seq = md.Sequence.Stream
	}
	answer := resultsPrefix + refusedJob + "." + strconv.FormatUint(seq, 10) + "." + w.Conn.resultIdentity()
	if r := peekRoute(subject, msg.Data()); r.ok {
		res.Job, res.Index, res.Nonce, answer = r.job, r.index, r.nonce, resultSubject(r.job, r.index, w.Conn.resultIdentity())
	}
	var opts []jetstream.PublishOpt
	if seq > 0 { // always, for a message of the work stream
		opts = append(opts, jetstream.WithMsgID("refused-"+strconv.FormatUint(seq, 10)))
	}
	b, err := json.Marshal(res)
	if err == nil {
		// the answer is sent even while the worker stops: its submitter
		// may already have read it before the acknowledgement arrives
		pubCtx, cancel := context.WithTimeout(context.WithoutCancel(ctx), answerPublishWait)
		_, err = w.Conn.JS.Publish(pubCtx, answer, b, opts...)
		cancel()
	}
	if err != nil {
		log.Warn().Err(err).Str("subject", clip(subject)).Msg("cluster: publish a refusal; chunk left for redelivery")
		_ = msg.Nak()
		return
	}
	log.Error().Str("subject", clip(subject)).Str("reason", reason).Msg("cluster: chunk refused")
	if err := msg.TermWithReason(clip(reason)); err != nil {
		log.Warn().Err(err).Msg("cluster: terminate a refused chunk")
	}
	w.failed.Add(1)
}

// Counts returns the chunks this worker has done and those it answered
// as failed (refused, or an engine error); a failed chunk is never done.
func (w *Worker) Counts() (done, failed int64) { return w.chunks.Load(), w.failed.Load() }

// engineName is the engine's self-reported name, "" when it has none.
func engineName(e analysis.Searcher) string {
	if ider, ok := e.(interface{ ID() uci.ID }); ok {
		return ider.ID().Name
	}
	return ""
}
