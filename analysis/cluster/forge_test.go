package cluster_test

import (
	"bytes"
	"context"
	"encoding/json"
	"reflect"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/nats-io/nats.go/jetstream"
	"github.com/rs/zerolog"
	"github.com/stretchr/testify/require"

	"github.com/outpostchess/outpost/analysis"
	"github.com/outpostchess/outpost/analysis/cluster"
	"github.com/outpostchess/outpost/bots/score"
	"github.com/outpostchess/outpost/bots/uci"
)

// syncBuffer is a log destination shared by goroutines.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// waitingJob returns the id of the job other than those in seen whose
// chunks wait in the work stream, read as conn (a worker may read the
// stream's subjects, not its messages).
func waitingJob(t *testing.T, conn *cluster.Conn, chunks int, seen map[string]bool) string {
	t.Helper()
	var job string
	require.Eventually(t, func() bool {
		s, err := conn.JS.Stream(context.Background(), cluster.WorkStream)
		if err != nil {
			return false
		}
		info, err := s.Info(context.Background(), jetstream.WithSubjectFilter("outpost.work.>"))
		if err != nil {
			return false
		}
		count := map[string]int{}
		for subj := range info.State.Subjects {
			count[strings.Split(subj, ".")[2]]++
		}
		for j, n := range count {
			if n == chunks && !seen[j] {
				job = j
				return true
			}
		}
		return false
	}, time.Minute, 10*time.Millisecond, "the job's chunks never waited in the work stream")
	seen[job] = true
	return job
}

// forgeResults publishes, as worker-2, results for every chunk of job
// under every subject a forger might use (the job's own, worker-1's and
// its own identity's), with no nonce and a guessed one: successes with an
// illegal best move and absurd scores, and failures. Publishes the server
// denies are dropped by it (core NATS: nothing waits for an ack).
func forgeResults(t *testing.T, w2 *cluster.Conn, job, w1, self string, chunks int) {
	t.Helper()
	e := score.CP(-3000)
	for i := range chunks {
		for _, subj := range []string{
			"outpost.results." + job + "." + strconv.Itoa(i),
			"outpost.results." + job + "." + strconv.Itoa(i) + "." + w1,
			"outpost.results." + job + "." + strconv.Itoa(i) + "." + self,
		} {
			for _, nonce := range []string{"", "0123456789abcdef", "0123456789abcdef0123456789abcdef"} {
				outs := make([]analysis.Outcome, 3)
				for j := range outs {
					outs[j] = analysis.Outcome{Eval: &e, BestUCI: "e1e8", PV: []string{"e1e8"}, Depth: 30, Nodes: 1}
				}
				for _, body := range []map[string]any{
					{"job": job, "index": i, "worker": "worker-1", "nonce": nonce, "outcomes": outs},
					{"job": job, "index": i, "worker": "worker-1", "nonce": nonce, "error": "chunk refused: forged by worker-2"},
				} {
					b, _ := json.Marshal(body)
					if err := w2.NC.Publish(subj, b); err != nil {
						t.Fatal(err)
					}
				}
			}
		}
	}
	if err := w2.NC.Flush(); err != nil {
		t.Fatal(err)
	}
}

// TestClusterForgedResultsAreDropped: worker-2 (a worker identity of the
// cluster, with auth and TLS) learns the job id of chunks waiting for a
// worker and publishes results for them under every subject it can think
// of, successes (an illegal best move, a -30.00 eval) and failures, with
// no nonce and guessed ones, before worker-1 takes the chunks. The job
// completes with worker-1's results, equal to the local ones; the same job
// asked again completes too (a forged failure blocks nothing); the
// submitter logs the forgeries it dropped.
func TestClusterForgedResultsAreDropped(t *testing.T) {
	noLeaks(t)
	e := newSecureEnv(t)
	srv := e.startSecure(t)
	client := e.connectAs(t, srv.URL(), "client", nil)
	w1 := e.connectAs(t, srv.URL(), "worker", nil)
	w2 := e.connectAs(t, srv.URL(), "worker-2", nil)
	var logs syncBuffer
	d := &cluster.Dispatcher{Conn: client, Logger: zerolog.New(&logs)}
	spec := analysis.EngineSpec{Command: []string{"sf15"}} // the worker's engine is a fake
	chunks := testChunks(3, 7)
	want := localOutcomes(t, chunks)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	seen := map[string]bool{}
	for run := 1; run <= 2; run++ {
		type result struct {
			out [][]analysis.Outcome
			err error
		}
		done := make(chan result, 1)
		go func() {
			out, err := d.RunChunks(ctx, spec, chunks, nil)
			done <- result{out, err}
		}()
		job := waitingJob(t, w2, len(chunks), seen)
		forgeResults(t, w2, job, w1.Identity, w2.Identity, len(chunks))
		stop := runWorker(&cluster.Worker{Conn: w1, ID: "worker-1", Engines: 1, Start: fakeStart, Logger: zerolog.Nop()})
		r := <-done
		if r.err != nil {
			t.Fatalf("run %d: the job with forged results: %v", run, r.err)
		}
		if err := stop(); err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(r.out, want) {
			t.Fatalf("run %d: outcomes with forged results:\n%+v\nwant the honest worker's:\n%+v", run, r.out, want)
		}
	}
	if got := logs.String(); !strings.Contains(got, "result dropped") || !strings.Contains(got, w2.Identity) {
		t.Errorf("the submitter's log does not name the dropped forgeries and their identity %s:\n%.2000s", w2.Identity, got)
	}
}

// lyingEngine answers its first chunk (after the first ucinewgame) with
// an illegal best move, its second with an eval no engine gives, and then
// as countingEngine does.
type lyingEngine struct {
	countingEngine
	games *atomic.Int64
	game  int64
}

func (e *lyingEngine) NewGame(ctx context.Context) error {
	e.game = e.games.Add(1)
	return e.countingEngine.NewGame(ctx)
}

func (e *lyingEngine) Analyse(ctx context.Context, pos uci.Position, lim uci.Limits) (*uci.Result, error) {
	r, err := e.countingEngine.Analyse(ctx, pos, lim)
	switch {
	case err != nil:
		return nil, err
	case e.game == 1:
		r.BestMove, r.Lines[0].PV = "e1e8", []string{"e1e8"}
	case e.game == 2:
		r.Lines[0].Score = score.CP(1_000_000)
	}
	return r, nil
}

// TestClusterInvalidResultsAreRefused: a worker whose engine answers one
// chunk with an illegal best move and another with a score out of range
// (it took them: its results carry the right nonce) has those results
// refused; the submitter publishes the chunks again and the job completes
// with results equal to the local ones.
func TestClusterInvalidResultsAreRefused(t *testing.T) {
	noLeaks(t)
	e := newSecureEnv(t)
	srv := e.startSecure(t)
	var logs syncBuffer
	d := &cluster.Dispatcher{Conn: e.connectAs(t, srv.URL(), "client", nil), Logger: zerolog.New(&logs)}
	var games atomic.Int64
	liar := func(ctx context.Context, spec analysis.EngineSpec, log zerolog.Logger) (analysis.Searcher, error) {
		return &lyingEngine{games: &games}, nil
	}
	stop := runWorker(&cluster.Worker{Conn: e.connectAs(t, srv.URL(), "worker-2", nil), ID: "liar", Engines: 1, Start: liar, Logger: zerolog.Nop()})
	defer func() {
		if err := stop(); err != nil {
			t.Error(err)
		}
	}()
	chunks := testChunks(3, 9)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	got, err := d.RunChunks(ctx, analysis.EngineSpec{Command: []string{"sf15"}}, chunks, nil)
	if err != nil {
		t.Fatalf("the job: %v", err)
	}
	if want := localOutcomes(t, chunks); !reflect.DeepEqual(got, want) {
		t.Fatalf("outcomes with lies refused:\n%+v\nwant:\n%+v", got, want)
	}
	for _, want := range []string{`illegal UCI move \"e1e8\"`, "eval cp 1000000"} {
		if !strings.Contains(logs.String(), want) {
			t.Errorf("the submitter's log does not say %q:\n%.3000s", want, logs.String())
		}
	}
}
