package cluster_test

import (
	"context"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/rs/zerolog"
	"github.com/stretchr/testify/require"

	"github.com/outpostchess/outpost/analysis"
	"github.com/outpostchess/outpost/analysis/cluster"
)

// startThree starts a three-node JetStream cluster on loopback (random
// ports, auth and TLS on, routes TLS with the test CA and the routes'
// password) and waits until every node has its streams (R3): the meta
// leader is elected and the three nodes agree.
func startThree(t *testing.T, e secureEnv) []*cluster.Server {
	t.Helper()
	// every node is given every route (its own is skipped by NATS), so
	// the route ports are chosen before the nodes start
	addrs := []string{freeAddr(t), freeAddr(t), freeAddr(t)}
	var routes []string
	for _, a := range addrs {
		routes = append(routes, "nats://"+a)
	}
	var srvs []*cluster.Server
	for i, name := range []string{"n1", "n2", "n3"} {
		o := e.serverOptions(t, name)
		o.ClusterAddr, o.Routes = addrs[i], routes
		s, err := cluster.Serve(o)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(s.Shutdown)
		srvs = append(srvs, s)
	}
	waitReady(t, srvs...)
	return srvs
}

func urls(srvs []*cluster.Server) string {
	var u []string
	for _, s := range srvs {
		u = append(u, s.URL())
	}
	return strings.Join(u, ",")
}

// TestThreeNodesSurviveAKilledNode: on a three-node cluster with R3
// streams, the node leading the work stream is shut down while a worker
// holds a chunk and the rest wait; the job completes on the two others and
// equals the local result, and the status shows a new leader among the
// survivors.
func TestThreeNodesSurviveAKilledNode(t *testing.T) {
	noLeaks(t)
	e := newSecureEnv(t)
	srvs := startThree(t, e)
	all := urls(srvs)
	admin := e.connectAs(t, all, "admin", nil)
	client := e.connectAs(t, all, "client", nil)
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	st, err := client.Status(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(st.Nodes) != 3 || !st.Nodes[0].Leader {
		t.Fatalf("status of a three-node cluster: nodes %v, want three, the leader first", st.Nodes)
	}
	t.Logf("before: %s", st)

	chunks := testChunks(8, 3)
	spec := analysis.EngineSpec{Command: []string{"sf15"}} // the worker's engine is a fake
	type result struct {
		out [][]analysis.Outcome
		err error
	}
	done := make(chan result, 1)
	go func() {
		out, err := (&cluster.Dispatcher{Conn: client, Logger: zerolog.Nop()}).RunChunks(ctx, spec, chunks, nil)
		done <- result{out, err}
	}()
	require.Eventually(t, func() bool { return streamMsgs(t, admin, cluster.WorkStream) == uint64(len(chunks)) }, time.Minute, 10*time.Millisecond)

	first, release := make(chan struct{}), make(chan struct{})
	var once sync.Once
	w := &cluster.Worker{Conn: e.connectAs(t, all, "worker", nil), ID: "w", Engines: 1, Start: fakeStart, Logger: zerolog.Nop(),
		OnChunk: func(job string, index int) {
			once.Do(func() { close(first); <-release })
		}}
	stop := runWorker(w)
	defer func() {
		if err := stop(); err != nil {
			t.Error(err)
		}
	}()
	<-first
	killed := st.Nodes[0].Name
	for _, s := range srvs {
		if s.Name() == killed {
			s.Shutdown() // the work stream's leader goes, mid-job
		}
	}
	close(release)
	r := <-done
	if r.err != nil {
		t.Fatalf("the job with a node down: %v", r.err)
	}
	if want := localOutcomes(t, chunks); !reflect.DeepEqual(r.out, want) {
		t.Errorf("outcomes with a node killed differ from the local ones:\n%+v\n%+v", r.out, want)
	}
	st, err = client.Status(ctx)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("after killing %s: %s", killed, st)
	if len(st.Nodes) == 0 || !st.Nodes[0].Leader || st.Nodes[0].Name == killed {
		t.Errorf("after killing %s the nodes are %v, want a new leader", killed, st.Nodes)
	}
}
