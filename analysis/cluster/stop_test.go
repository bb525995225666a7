package cluster_test

import (
	"context"
	"reflect"
	"sync/atomic"
	"testing"

	"github.com/rs/zerolog"
	"github.com/stretchr/testify/require"

	"github.com/outpostchess/outpost/analysis"
	"github.com/outpostchess/outpost/analysis/cluster"
	"github.com/outpostchess/outpost/bots/uci"
)

// stoppingEngine is a countingEngine that stops its worker (cancels the
// context Run was given) as it answers its last search.
type stoppingEngine struct {
	countingEngine
	last int64 // the search (counted in searches) that stops the worker
	stop context.CancelFunc
}

func (e *stoppingEngine) Analyse(ctx context.Context, pos uci.Position, lim uci.Limits) (*uci.Result, error) {
	res, err := e.countingEngine.Analyse(ctx, pos, lim)
	if e.searches.Load() == e.last {
		e.stop()
	}
	return res, err
}

// TestWorkerStoppedAfterItsSearchAnswersOnce: a worker stopped (its
// context cancelled) as its engine answers a chunk's last position still
// stores the result and acks the chunk, so the chunk is analysed once:
// when Run has returned nothing of it waits or is in flight in the work
// stream, the job completes with that worker's result and no other
// worker, and each position was searched once. (Before, the stopping
// worker dropped the finished result, or nak'ed the chunk when the stop
// came while its result was being stored: the chunk went to another
// worker and was analysed twice.)
func TestWorkerStoppedAfterItsSearchAnswersOnce(t *testing.T) {
	noLeaks(t)
	srv := startServer(t, "127.0.0.1:0", t.TempDir())
	defer srv.Shutdown()
	conn := connect(t, srv.URL())
	settings := cluster.Settings{AckWait: testAckWait}
	chunks := testChunks(1, 80)
	wctx, stopWorker := context.WithCancel(context.Background())
	defer stopWorker()
	var searches atomic.Int64
	start := func(context.Context, analysis.EngineSpec, zerolog.Logger) (analysis.Searcher, error) {
		return &stoppingEngine{countingEngine: countingEngine{searches: &searches}, last: int64(len(chunks[0].Jobs)), stop: stopWorker}, nil
	}
	w := &cluster.Worker{Conn: conn, ID: "w", Engines: 1, Start: start, Settings: settings, Logger: zerolog.Nop()}
	ran := make(chan error, 1)
	go func() { ran <- w.Run(wctx) }()
	ctx, cancel := context.WithTimeout(context.Background(), answerWait)
	defer cancel()
	type result struct {
		out [][]analysis.Outcome
		err error
	}
	done := make(chan result, 1)
	go func() {
		d := &cluster.Dispatcher{Conn: conn, Settings: settings, Logger: zerolog.Nop()}
		out, err := d.RunChunks(ctx, analysis.EngineSpec{Command: []string{"sf15"}}, chunks, nil)
		done <- result{out, err}
	}()
	require.NoError(t, <-ran)
	cons, err := conn.JS.Consumer(ctx, cluster.WorkStream, cluster.WorkConsumer)
	require.NoError(t, err)
	info, err := cons.Info(ctx)
	require.NoError(t, err)
	require.Zero(t, uint64(info.NumAckPending)+info.NumPending, "the stopped worker left its chunk for another (%d in flight, %d waiting)", info.NumAckPending, info.NumPending)
	require.Zero(t, streamMsgs(t, conn, cluster.WorkStream), "the chunk is still in the work stream")
	r := <-done
	require.NoError(t, r.err)
	require.True(t, reflect.DeepEqual(r.out, localOutcomes(t, chunks)), "outcomes %+v, want the local ones", r.out)
	require.Equal(t, int64(len(chunks[0].Jobs)), searches.Load(), "searches")
	if done, failed := w.Counts(); done != 1 || failed != 0 {
		t.Errorf("the worker counts %d done, %d failed; want 1 and 0", done, failed)
	}
}
