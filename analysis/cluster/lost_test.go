package cluster_test

import (
	"context"
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/nats-io/nats.go/jetstream"
	"github.com/rs/zerolog"
	"github.com/stretchr/testify/require"

	"github.com/outpostchess/outpost/analysis"
	"github.com/outpostchess/outpost/analysis/cluster"
	"github.com/outpostchess/outpost/bots/uci"
)

// taken is a chunk a hostile worker pulled.
type taken struct {
	msg   jetstream.Msg
	job   string
	index int
	nonce string
}

// take pulls one chunk as conn (a worker identity).
func take(t *testing.T, conn *cluster.Conn) taken {
	t.Helper()
	cons, err := conn.JS.Consumer(context.Background(), cluster.WorkStream, cluster.WorkConsumer)
	require.NoError(t, err)
	msg, err := cons.Next(jetstream.FetchMaxWait(answerWait))
	require.NoError(t, err, "the hostile worker got no chunk")
	var c struct {
		Job   string `json:"job"`
		Index int    `json:"index"`
		Nonce string `json:"nonce"`
	}
	require.NoError(t, json.Unmarshal(msg.Data(), &c))
	return taken{msg: msg, job: c.Job, index: c.Index, nonce: c.Nonce}
}

// gone waits until chunk's message has left the work stream (its ack or
// termination has landed): the event after which only the submitter's
// deadline can bring it back.
func gone(t *testing.T, conn *cluster.Conn, c taken) {
	t.Helper()
	subject := fmt.Sprintf("outpost.work.%s.%d", c.job, c.index)
	require.Eventually(t, func() bool {
		s, err := conn.JS.Stream(context.Background(), cluster.WorkStream)
		if err != nil {
			return false
		}
		info, err := s.Info(context.Background(), jetstream.WithSubjectFilter(subject))
		return err == nil && info.State.Subjects[subject] == 0
	}, answerWait, 10*time.Millisecond, "chunk %s never left the work stream", subject)
}

// undecodable is a result with the chunk's nonce whose outcomes do not
// decode (eval is the raw JSON of each outcome's eval).
func undecodable(c taken, eval string) []byte {
	outs := make([]string, 3)
	for i := range outs {
		outs[i] = `{"Eval":` + eval + `,"BestUCI":"e2e4","PV":["e2e4"],"Depth":10,"Nodes":3000}`
	}
	return []byte(fmt.Sprintf(`{"job":%q,"index":%d,"worker":"evil","nonce":%q,"outcomes":[%s]}`, c.job, c.index, c.nonce, strings.Join(outs, ",")))
}

// TestClusterLostChunkIsPublishedAgain: a worker identity (worker-2) takes
// a chunk and acks or terminates it without a valid answer: nothing, or a
// result with the chunk's nonce that does not decode. The job still
// completes with the honest worker's results: an undecodable result is
// refused at once (logged with worker-2's identity), and a chunk that left
// the work stream without a result is published again when its deadline
// passes (the deadline is a tick the test sends once the chunk is gone).
func TestClusterLostChunkIsPublishedAgain(t *testing.T) {
	noLeaks(t)
	e := newSecureEnv(t)
	srv := e.startSecure(t)
	client := e.connectAs(t, srv.URL(), "client", nil)
	w1 := e.connectAs(t, srv.URL(), "worker", nil)
	w2 := e.connectAs(t, srv.URL(), "worker-2", nil)
	for i, tc := range []struct {
		name string
		body func(taken) []byte // published with the nonce before the ack (nil: nothing)
		term bool               // terminate instead of ack
		want string             // in the submitter's log
	}{
		{name: "acked without a result", want: "published again"},
		{name: "terminated without a result", term: true, want: "published again"},
		{name: "cp 1e308 with the nonce", body: func(c taken) []byte { return undecodable(c, `{"cp":1e308}`) }, want: "result refused"},
		{name: "mate 0 with the nonce", body: func(c taken) []byte { return undecodable(c, `{"mate":0}`) }, want: "result refused"},
		{name: "NaN with the nonce", body: func(c taken) []byte { return undecodable(c, `{"cp":NaN}`) }, want: "result refused"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var logs syncBuffer
			ticks := make(chan time.Time)
			d := &cluster.Dispatcher{Conn: client, Logger: zerolog.New(&logs)}
			cluster.SetDeadlineTicks(d, ticks)
			chunks := testChunks(2, 20+i)
			ctx, cancel := context.WithTimeout(context.Background(), 2*answerWait)
			defer cancel()
			type result struct {
				out [][]analysis.Outcome
				err error
			}
			done := make(chan result, 1)
			go func() {
				out, err := d.RunChunks(ctx, analysis.EngineSpec{Command: []string{"sf15"}}, chunks, nil)
				done <- result{out, err}
			}()
			c := take(t, w2)
			if tc.body != nil {
				_, err := w2.JS.Publish(ctx, fmt.Sprintf("outpost.results.%s.%d.%s", c.job, c.index, w2.Identity), tc.body(c))
				require.NoError(t, err)
			}
			if tc.term {
				require.NoError(t, c.msg.Term())
			} else {
				require.NoError(t, c.msg.DoubleAck(ctx))
			}
			if tc.body == nil {
				gone(t, w2, c)
				select {
				case ticks <- time.Now().Add(24 * time.Hour): // every deadline has passed
				case r := <-done:
					t.Fatalf("the job ended before its deadline: %v", r.err)
				}
			}
			var mu sync.Mutex
			started := map[int]int{} // chunk index: how often worker-1 started it
			onChunk := func(_ string, index int) {
				mu.Lock()
				defer mu.Unlock()
				started[index]++
			}
			stop := runWorker(&cluster.Worker{Conn: w1, ID: "worker-1", Engines: 1, Start: fakeStart, Logger: zerolog.Nop(), OnChunk: onChunk})
			r := <-done
			// stopped as soon as the job has its results (the worker may not
			// have acked the last chunk yet): every chunk it took is acked,
			// none is left for another worker to analyse again
			require.NoError(t, stop())
			require.Zero(t, streamMsgs(t, w2, cluster.WorkStream), "the stopped worker left a chunk in the work stream")
			mu.Lock()
			require.Equal(t, map[int]int{0: 1, 1: 1}, started, "chunks started by worker-1 (each once)")
			mu.Unlock()
			require.NoError(t, r.err, "the job with a chunk taken and not answered")
			require.True(t, reflect.DeepEqual(r.out, localOutcomes(t, chunks)), "outcomes %+v, want the local ones", r.out)
			if got := logs.String(); !strings.Contains(got, tc.want) || !strings.Contains(got, fmt.Sprintf(`"chunk":%d`, c.index)) ||
				(tc.body != nil && !strings.Contains(got, w2.Identity)) {
				t.Errorf("the submitter's log does not say %q for chunk %d (and, for a result, identity %s):\n%.3000s", tc.want, c.index, w2.Identity, got)
			}
		})
	}
}

// TestClusterLostChunkFailsTheJob: a chunk taken and acked without a
// result LostMax times fails the job, naming the chunk.
func TestClusterLostChunkFailsTheJob(t *testing.T) {
	noLeaks(t)
	e := newSecureEnv(t)
	srv := e.startSecure(t)
	client := e.connectAs(t, srv.URL(), "client", nil)
	w2 := e.connectAs(t, srv.URL(), "worker-2", nil)
	ticks := make(chan time.Time)
	d := &cluster.Dispatcher{Conn: client, Logger: zerolog.Nop()}
	cluster.SetDeadlineTicks(d, ticks)
	ctx, cancel := context.WithTimeout(context.Background(), 2*answerWait)
	defer cancel()
	done := make(chan error, 1)
	go func() {
		_, err := d.RunChunks(ctx, analysis.EngineSpec{Command: []string{"sf15"}}, testChunks(1, 40), nil)
		done <- err
	}()
	for range cluster.LostMax {
		c := take(t, w2)
		require.NoError(t, c.msg.DoubleAck(ctx))
		gone(t, w2, c)
		select {
		case ticks <- time.Now().Add(24 * time.Hour):
		case err := <-done:
			t.Fatalf("the job ended early: %v", err)
		}
	}
	err := <-done
	if err == nil || !strings.Contains(err.Error(), "chunk 0") || !strings.Contains(err.Error(), "without a valid result") {
		t.Fatalf("the job: %v; want it failed naming chunk 0", err)
	}
}

// TestChunkDeadline: the bound derives from the chunk's budgets: the ack
// wait, plus each position's nodes at slowNodesPerSecond (warm-up too),
// or depthPositionTime for a depth budget.
func TestChunkDeadline(t *testing.T) {
	nodes := func(n int64) analysis.Job { return analysis.Job{Limits: uci.Limits{Nodes: n}} }
	lichess := []analysis.Job{nodes(857_142), nodes(857_142), nodes(857_142), nodes(857_142), nodes(857_142)}
	warm := nodes(857_142)
	for _, tc := range []struct {
		name  string
		chunk analysis.Chunk
		want  time.Duration
	}{
		{"Lichess budget, 5 positions and a warm-up", analysis.Chunk{Jobs: lichess, Warmup: &warm}, time.Minute + 6*8_571_420*time.Microsecond},
		{"one position of 100k nodes", analysis.Chunk{Jobs: []analysis.Job{nodes(100_000)}}, time.Minute + time.Second},
		{"a depth budget", analysis.Chunk{Jobs: []analysis.Job{{Limits: uci.Limits{Depth: 20}}}}, time.Minute + 2*time.Minute},
		{"a skipped position", analysis.Chunk{Jobs: []analysis.Job{{Skip: true}}}, time.Minute},
		{"the largest budget", analysis.Chunk{Jobs: []analysis.Job{nodes(cluster.MaxNodes)}}, time.Minute + 10_000*time.Second},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := cluster.ChunkDeadline(tc.chunk, time.Minute); got != tc.want {
				t.Errorf("deadline %s, want %s", got, tc.want)
			}
		})
	}
}

// TestStatusCountsOnlyTheJobsChunks: results for chunk indexes a job
// does not have (a worker may publish any) do not count as done, and a
// job never shows more chunks done than it has.
func TestStatusCountsOnlyTheJobsChunks(t *testing.T) {
	noLeaks(t)
	srv := startServer(t, "127.0.0.1:0", t.TempDir())
	defer srv.Shutdown()
	conn := connect(t, srv.URL())
	d := &cluster.Dispatcher{Conn: conn, Logger: zerolog.Nop()}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		_, _ = d.RunChunks(ctx, analysis.EngineSpec{Command: []string{"sf15"}}, testChunks(2, 50), nil)
	}()
	defer func() { cancel(); <-done }()
	job := waitingJob(t, conn, 2, map[string]bool{})
	for _, index := range []int{0, 2, 99999} {
		for _, id := range []string{"a", "b"} {
			_, err := conn.JS.Publish(ctx, fmt.Sprintf("outpost.results.%s.%d.%s", job, index, id), []byte("junk"))
			require.NoError(t, err)
		}
	}
	st, err := conn.Status(ctx)
	require.NoError(t, err)
	require.Len(t, st.Jobs, 1)
	if j := st.Jobs[0]; j.ChunksDone != 1 || j.Chunks != 2 {
		t.Errorf("job %s: %d of %d chunks done; want 1 of 2 (index 2 and 99999 are not its chunks)", j.ID, j.ChunksDone, j.Chunks)
	}
}
