package cluster_test

import (
	"context"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/rs/zerolog"

	"github.com/outpostchess/outpost/analysis"
	"github.com/outpostchess/outpost/analysis/cluster"
)

// lines is a log destination that hands each line to whoever waits for
// one containing a text.
type lines struct {
	mu   sync.Mutex
	all  []string
	wake chan struct{} // closed and replaced at each line
}

func newLines() *lines { return &lines{wake: make(chan struct{})} }

func (l *lines) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.all = append(l.all, string(p))
	close(l.wake)
	l.wake = make(chan struct{})
	return len(p), nil
}

// wait returns the first line containing text, or fails the test when
// exited closes first (the process waiting has given up) or after the
// bound, which only ends a hung test.
func (l *lines) wait(t *testing.T, who, text string, exited <-chan struct{}) string {
	t.Helper()
	bound := time.After(2 * time.Minute)
	for {
		l.mu.Lock()
		for _, s := range l.all {
			if strings.Contains(s, text) {
				l.mu.Unlock()
				return s
			}
		}
		wake := l.wake
		l.mu.Unlock()
		select {
		case <-wake:
		case <-exited:
			t.Fatalf("%s gave up instead of waiting (%q never logged):\n%s", who, text, l.String())
		case <-bound:
			t.Fatalf("%s never logged %q:\n%s", who, text, l.String())
		}
	}
}

func (l *lines) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return strings.Join(l.all, "")
}

// TestThreeNodesFormOneAfterAnother: three nodes (auth, TLS, R3 streams)
// started one after another, as on three machines: a worker and a client
// started when only the first (then the first two) are up wait for the
// cluster, saying so, and `cluster status` says "forming"; once the third
// node is up the analysis completes and equals the local one. The same
// with the work stream's leader shut down while the worker holds a chunk:
// the job completes on the two others and the status shows a new leader.
// Each step waits for an event (a log line, a hook), never a sleep.
func TestThreeNodesFormOneAfterAnother(t *testing.T) {
	for _, kill := range []bool{false, true} {
		name := "in order"
		if kill {
			name = "leader shut down mid-run"
		}
		t.Run(name, func(t *testing.T) { formOneAfterAnother(t, kill) })
	}
}

func formOneAfterAnother(t *testing.T, kill bool) {
	noLeaks(t)
	e := newSecureEnv(t)
	names := []string{"n1", "n2", "n3"}
	var routes, clients []string
	for range names {
		routes = append(routes, "nats://"+freeAddr(t))
		clients = append(clients, freeAddr(t))
	}
	all := "tls://" + strings.Join(clients, ",tls://")
	srvs := make([]*cluster.Server, len(names))
	start := func(i int) {
		o := e.serverOptions(t, names[i])
		o.Addr, o.ClusterAddr, o.Routes = clients[i], strings.TrimPrefix(routes[i], "nats://"), routes
		s, err := cluster.Serve(o)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(s.Shutdown)
		srvs[i] = s
	}
	start(0)

	wlog := newLines()
	first, release := make(chan struct{}), make(chan struct{})
	var once sync.Once
	w := &cluster.Worker{Conn: e.connectAs(t, all, "worker", nil), ID: "w", Engines: 1, Start: fakeStart, Logger: zerolog.New(wlog),
		OnChunk: func(string, int) {
			if kill {
				once.Do(func() { close(first); <-release })
			}
		}}
	wctx, stopWorker := context.WithCancel(context.Background())
	workerDone, workerExited := make(chan error, 1), make(chan struct{})
	go func() { defer close(workerExited); workerDone <- w.Run(wctx) }()
	defer func() {
		stopWorker()
		if err := <-workerDone; err != nil {
			t.Errorf("worker: %v", err)
		}
	}()
	t.Logf("worker: %s", wlog.wait(t, "the worker", "waiting for the cluster to form", workerExited))
	client := e.connectAs(t, all, "client", nil)
	st, err := client.Status(context.Background())
	if err != nil || st.Forming == nil || !strings.Contains(st.String(), "forming (1 of 3 peers") {
		t.Fatalf("status with one node of three: %v\n%s", err, st)
	}

	start(1)
	chunks := testChunks(6, 11)
	clog := newLines()
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	type result struct {
		out [][]analysis.Outcome
		err error
	}
	done, clientExited := make(chan result, 1), make(chan struct{})
	go func() {
		defer close(clientExited)
		out, err := (&cluster.Dispatcher{Conn: client, Logger: zerolog.New(clog)}).RunChunks(ctx, analysis.EngineSpec{Command: []string{"sf15"}}, chunks, nil)
		done <- result{out, err}
	}()
	t.Logf("client: %s", clog.wait(t, "the client", "waiting for the cluster to form", clientExited))

	start(2)
	killed := ""
	if kill {
		<-first
		killed = shutDownWorkLeader(t, ctx, e.connectAs(t, all, "admin", nil), srvs)
		close(release)
	}
	r := <-done
	if r.err != nil {
		t.Fatalf("the job on a cluster formed one node after another: %v\nclient log:\n%s", r.err, clog)
	}
	if want := localOutcomes(t, chunks); !reflect.DeepEqual(r.out, want) {
		t.Errorf("outcomes differ from the local ones:\n%+v\n%+v", r.out, want)
	}
	if kill {
		st, err := client.Status(ctx)
		if err != nil || len(st.Nodes) == 0 || !st.Nodes[0].Leader || st.Nodes[0].Name == killed {
			t.Errorf("after shutting down %s: %v\n%s; want a new leader", killed, err, st)
		}
	}
}

// TestMissingStreamOnAFormedCluster: on a formed cluster whose work
// stream an admin deleted, a worker does not wait: it fails at once with
// the clear error naming the stream.
func TestMissingStreamOnAFormedCluster(t *testing.T) {
	noLeaks(t)
	e := newSecureEnv(t)
	srv := e.startSecure(t)
	if err := e.connectAs(t, srv.URL(), "admin", nil).JS.DeleteStream(context.Background(), cluster.WorkStream); err != nil {
		t.Fatal(err)
	}
	wlog := newLines()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	err := (&cluster.Worker{Conn: e.connectAs(t, srv.URL(), "worker", nil), ID: "w", Start: fakeStart, Logger: zerolog.New(wlog)}).Run(ctx)
	if err == nil || !strings.Contains(err.Error(), "stream OUTPOST_WORK") || !strings.Contains(err.Error(), "stream not found") {
		t.Errorf("worker on a formed cluster without the work stream: %v, want the stream named as not found", err)
	}
	if strings.Contains(wlog.String(), "waiting for the cluster") {
		t.Errorf("the worker waited for a formed cluster:\n%s", wlog)
	}
}

// shutDownWorkLeader waits until every node has its streams, shuts down
// the one leading the work stream and returns its name.
func shutDownWorkLeader(t *testing.T, ctx context.Context, admin *cluster.Conn, srvs []*cluster.Server) string {
	t.Helper()
	waitReady(t, srvs...)
	st, err := admin.Status(ctx)
	if err != nil || len(st.Nodes) == 0 || !st.Nodes[0].Leader {
		t.Fatalf("status once formed: %v %v", err, st)
	}
	for _, s := range srvs {
		if s.Name() == st.Nodes[0].Name {
			t.Logf("shutting down %s, the work stream's leader, while the worker holds a chunk", s.Name())
			s.Shutdown()
		}
	}
	return st.Nodes[0].Name
}
