package cluster_test

import (
	"context"
	"fmt"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/rs/zerolog"
	"github.com/stretchr/testify/require"

	"github.com/outpostchess/outpost/analysis"
	"github.com/outpostchess/outpost/analysis/cluster"
)

// TestClusterGivenUpChunkIsPublishedAgainOnABusyCluster: a chunk that
// JetStream gave up delivering (a worker identity took it MaxDeliver times
// and never answered) stays in the work stream, where no worker gets it
// again. While another job's chunk is in flight (the cluster is busy: the
// workers' consumer is never idle), the submitter still notices it — from
// JetStream's max-deliveries advisory, at the latest at the chunk's
// deadline (a tick the test sends, the cluster still busy) — publishes it
// again and the job completes with the honest worker's results.
func TestClusterGivenUpChunkIsPublishedAgainOnABusyCluster(t *testing.T) {
	noLeaks(t)
	e := newSecureEnv(t)
	srv := e.startSecure(t)
	client := e.connectAs(t, srv.URL(), "client", nil)
	w1 := e.connectAs(t, srv.URL(), "worker", nil)
	w2 := e.connectAs(t, srv.URL(), "worker-2", nil)
	logs := newLines()
	ticks := make(chan time.Time)
	d := &cluster.Dispatcher{Conn: client, Logger: zerolog.New(logs)}
	cluster.SetDeadlineTicks(d, ticks)
	chunks := testChunks(1, 70)
	ctx, cancel := context.WithTimeout(context.Background(), 4*answerWait)
	defer cancel()
	type result struct {
		out [][]analysis.Outcome
		err error
	}
	done, exited := make(chan result, 1), make(chan struct{})
	go func() {
		defer close(exited)
		out, err := d.RunChunks(ctx, analysis.EngineSpec{Command: []string{"sf15"}}, chunks, nil)
		done <- result{out, err}
	}()
	cons, err := w2.JS.Consumer(ctx, cluster.WorkStream, cluster.WorkConsumer)
	require.NoError(t, err)
	maxDeliver := cons.CachedInfo().Config.MaxDeliver
	first := take(t, w2)
	require.NoError(t, first.msg.Nak())
	for range maxDeliver - 1 {
		c := take(t, w2)
		require.Equal(t, first.nonce, c.nonce, "another chunk than the job's one")
		require.NoError(t, c.msg.Nak())
	}
	// another job's chunk arrives and w2 holds it: the workers' consumer
	// is busy until the end of the test. The pull that gets it is the one
	// at which JetStream gives up on the job's chunk.
	busy := fmt.Sprintf("outpost.work.%s.0", strings.Repeat("b", 24))
	_, err = client.JS.Publish(ctx, busy, []byte(`{}`))
	require.NoError(t, err)
	held := take(t, w2)
	require.Equal(t, busy, held.msg.Subject(), "the pull after the last delivery got the job's chunk again")
	select {
	case ticks <- time.Now().Add(24 * time.Hour): // the chunk's deadline has passed
	case r := <-done:
		t.Fatalf("the job ended before its deadline: %v", r.err)
	}
	logs.wait(t, "the submitter", "published again", exited)
	require.Contains(t, logs.String(), "JetStream gave up delivering it")
	// the busy chunk is still held: the chunk was published again while
	// the cluster was busy
	require.NoError(t, held.msg.Term())
	stop := runWorker(&cluster.Worker{Conn: w1, ID: "worker-1", Engines: 1, Start: fakeStart, Logger: zerolog.Nop()})
	r := <-done
	require.NoError(t, stop())
	require.NoError(t, r.err, "the job with a chunk JetStream gave up on")
	require.True(t, reflect.DeepEqual(r.out, localOutcomes(t, chunks)), "outcomes %+v, want the local ones", r.out)
}

// TestGaveUpRefusalIsNotARolesLack: the server refusing the subscription
// to the max-deliveries advisories (an authorization from before them, a
// user JWT without the subject) is told apart from every other violation,
// so it does not fail a job (the submitter falls back on its deadlines).
func TestGaveUpRefusalIsNotARolesLack(t *testing.T) {
	for _, tc := range []struct {
		text string
		want bool
	}{
		{`Permissions Violation for Subscription to "$JS.EVENT.ADVISORY.CONSUMER.MAX_DELIVERIES.OUTPOST_WORK.workers"`, true},
		{`Permissions Violation for Publish to "outpost.work.x.0"`, false},
		{`Permissions Violation for Subscription to "$JS.EVENT.ADVISORY.CONSUMER.MAX_DELIVERIES.OUTPOST_WORK.other"`, false},
		{`Permissions Violation for Subscription to "_INBOX_U.>"`, false},
	} {
		err := fmt.Errorf("%w: %s", nats.ErrPermissionViolation, tc.text)
		if got := cluster.GaveUpRefused(err); got != tc.want {
			t.Errorf("%s: %v, want %v", tc.text, got, tc.want)
		}
	}
}
