package cluster_test

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/rs/zerolog"
	"github.com/stretchr/testify/require"
	"go.uber.org/goleak"

	"github.com/outpostchess/outpost/analysis"
	"github.com/outpostchess/outpost/analysis/cluster"
	"github.com/outpostchess/outpost/analysis/input"
	"github.com/outpostchess/outpost/bots/board"
	"github.com/outpostchess/outpost/bots/enginepath"
	"github.com/outpostchess/outpost/bots/score"
	"github.com/outpostchess/outpost/bots/uci"
	"github.com/outpostchess/outpost/internal/testkit"
)

// workerEnv makes the test binary a cluster worker (for the kill test):
// its value is the server URL.
const workerEnv = "OUTPOST_CLUSTER_TEST_WORKER"

func TestMain(m *testing.M) {
	if url := os.Getenv(workerEnv); url != "" {
		os.Exit(runStallingWorker(url))
	}
	os.Exit(m.Run())
}

// runStallingWorker is a worker process with the real engine that prints
// "STALL job index" when it is handed its first chunk and then stops,
// holding the chunk unacknowledged until it is killed.
func runStallingWorker(url string) int {
	ctx := context.Background()
	conn, err := cluster.Connect(ctx, cluster.ConnOptions{URL: url, Name: "stalling"})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 2
	}
	w := &cluster.Worker{Conn: conn, ID: "doomed", Engines: 1, Settings: cluster.Settings{AckWait: testAckWait},
		OnChunk: func(job string, index int) {
			fmt.Printf("STALL %s %d\n", job, index)
			select {} // mid-chunk: the engine is started, the chunk not done
		}}
	if err := w.Run(ctx); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 2
	}
	return 0
}

// testAckWait is short so a killed worker's chunk is redelivered soon; a
// live worker keeps its chunks with InProgress heartbeats.
const testAckWait = 2 * time.Second

func stockfishOrSkip(t testing.TB) {
	t.Helper()
	r, err := enginepath.Resolve(analysis.DefaultEngineCommand())
	if err != nil {
		t.Skipf("Stockfish not installed (%v): run make setup", err)
	}
	if _, err := os.Stat(r.Command[0]); err != nil {
		t.Skipf("Stockfish not installed at %s: run make setup", r.Command[0])
	}
}

func sharedGame(t testing.TB, name string) *analysis.Game {
	t.Helper()
	f, err := os.Open(filepath.Join("..", "..", "..", "shared", "lichess-games", name))
	if err != nil {
		t.Skipf("../shared not present: %v", err)
	}
	defer f.Close()
	games, errs := input.ReadPGN(f, name)
	if len(errs) > 0 || len(games) != 1 {
		t.Fatalf("read %s: %v (%d games)", name, errs, len(games))
	}
	return games[0]
}

func freeAddr(t testing.TB) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().String()
}

func startServer(t testing.TB, addr, dir string) *cluster.Server {
	t.Helper()
	s, err := cluster.Serve(cluster.ServerOptions{Addr: addr, StoreDir: dir})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func connect(t testing.TB, url string) *cluster.Conn {
	t.Helper()
	c, err := cluster.Connect(context.Background(), cluster.ConnOptions{URL: url, Name: t.Name()})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(c.Close)
	return c
}

// startWorker runs a worker with the tests' settings until the test ends.
func startWorker(t testing.TB, url, id string, engines int) {
	t.Helper()
	stop := runWorker(&cluster.Worker{Conn: connect(t, url), ID: id, Engines: engines, Settings: cluster.Settings{AckWait: testAckWait}, Logger: zerolog.Nop()})
	t.Cleanup(func() {
		if err := stop(); err != nil {
			t.Errorf("worker %s: %v", id, err)
		}
	})
}

// runWorker runs w until stop, which returns what w.Run returned.
func runWorker(w *cluster.Worker) (stop func() error) {
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- w.Run(ctx) }()
	return func() error {
		cancel()
		return <-done
	}
}

// analyse runs the game's engine analysis on a pool (local or dispatched).
func analyse(t testing.TB, ctx context.Context, cfg analysis.PoolConfig, g *analysis.Game) *analysis.Analysis {
	t.Helper()
	p, err := analysis.NewPool(ctx, cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	as, errs, err := p.AnalyseGames(ctx, []*analysis.Game{g}, analysis.EngineOptions{Budget: analysis.Budget{Nodes: 30_000}, BorderlineBand: -1})
	if err != nil || errs[0] != nil {
		t.Fatalf("analyse: %v %v", err, errs)
	}
	return as[0]
}

// samePlies compares what a user sees of each ply: evals, best moves,
// lines, judgements, and the players' accuracy.
func samePlies(t *testing.T, local, remote *analysis.Analysis) {
	t.Helper()
	if len(local.Plies) != len(remote.Plies) {
		t.Fatalf("%d plies locally, %d through the cluster", len(local.Plies), len(remote.Plies))
	}
	for i := range local.Plies {
		l, r := local.Plies[i], remote.Plies[i]
		if !reflect.DeepEqual(l.Eval, r.Eval) || !reflect.DeepEqual(l.BestSAN, r.BestSAN) || l.Judgement != r.Judgement || !reflect.DeepEqual(l.Variation, r.Variation) {
			t.Errorf("ply %d: local eval %v best %v %v line %v; cluster eval %v best %v %v line %v",
				i+1, l.Eval, l.BestSAN, l.Judgement, l.Variation, r.Eval, r.BestSAN, r.Judgement, r.Variation)
		}
	}
	if !reflect.DeepEqual(local.Players, remote.Players) {
		t.Errorf("players: local %+v, cluster %+v", local.Players, remote.Players)
	}
}

// A shared Lichess game analysed through the embedded server and two
// workers, one of which is killed (SIGKILL) while it holds a chunk: the
// job completes, and every ply equals the local pool's.
func TestClusterMatchesLocalPoolAndSurvivesKilledWorker(t *testing.T) {
	stockfishOrSkip(t)
	noLeaks(t)
	g := sharedGame(t, "CCW6EEru.pgn")
	ctx, cancel := context.WithTimeout(context.Background(), 4*time.Minute)
	defer cancel()
	local := analyse(t, ctx, analysis.PoolConfig{Workers: 2, HashMB: 16}, g)

	srv := startServer(t, "127.0.0.1:0", t.TempDir())
	defer srv.Shutdown()
	// the doomed worker starts first and takes the first chunk
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), workerEnv+"="+srv.URL())
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	stalled := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(out)
		for sc.Scan() {
			if strings.HasPrefix(sc.Text(), "STALL ") {
				stalled <- sc.Text()
			}
		}
		close(stalled)
	}()
	conn := connect(t, srv.URL())
	var progress []int
	var mu sync.Mutex
	remoteDone := make(chan *analysis.Analysis, 1)
	go func() {
		p, err := analysis.NewPool(ctx, analysis.PoolConfig{Workers: 2, HashMB: 16,
			Dispatcher: &cluster.Dispatcher{Conn: conn, Settings: cluster.Settings{AckWait: testAckWait}}})
		if err != nil {
			t.Error(err)
			remoteDone <- nil
			return
		}
		defer p.Close()
		as, errs, err := p.AnalyseGames(ctx, []*analysis.Game{g}, analysis.EngineOptions{Budget: analysis.Budget{Nodes: 30_000}, BorderlineBand: -1,
			Progress: func(done, _ int) { mu.Lock(); progress = append(progress, done); mu.Unlock() }})
		if err != nil || errs[0] != nil {
			t.Errorf("cluster analyse: %v %v", err, errs)
			remoteDone <- nil
			return
		}
		remoteDone <- as[0]
	}()
	var line string
	select {
	case line = <-stalled:
	case <-ctx.Done():
		t.Fatal("the worker process never took a chunk")
	}
	if err := cmd.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	_ = cmd.Wait()
	t.Logf("killed the worker holding a chunk (%s)", line)
	// the surviving worker (two engines) does all the work, including
	// the killed worker's chunk once JetStream redelivers it
	startWorker(t, srv.URL(), "survivor", 2)
	remote := <-remoteDone
	if remote == nil {
		t.FailNow()
	}
	samePlies(t, local, remote)
	st, err := conn.Status(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(st.Jobs) != 1 || st.Jobs[0].ChunksDone != st.Jobs[0].Chunks || st.Queued != 0 {
		t.Errorf("status after the job: %s", st)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(progress) == 0 || progress[len(progress)-1] == 0 {
		t.Errorf("no progress reported: %v", progress)
	}
}

// The server stops with chunks waiting and no worker; restarted on the
// same store it has lost none of them. A restarted submitter is a new
// submission (results count only for the submission that asked for them):
// it publishes the job again and completes it; the old chunks are searched
// too and nobody reads their results.
func TestClusterServerRestartLosesNothing(t *testing.T) {
	noLeaks(t)
	addr, dir := freeAddr(t), t.TempDir()
	srv := startServer(t, addr, dir)
	jobs := ruyLopez(12)
	chunks := []analysis.Chunk{{Jobs: jobs[7:]}, {Jobs: jobs[2:7], Warmup: &jobs[7]}, {Jobs: jobs[:2], Warmup: &jobs[2]}}
	spec := analysis.EngineSpec{Command: []string{"sf15"}} // the workers' engine is a fake
	ctx, cancel := context.WithCancel(context.Background())
	conn := connect(t, srv.URL())
	d := &cluster.Dispatcher{Conn: conn, Logger: zerolog.Nop()}
	submitted := make(chan error, 1)
	go func() {
		_, err := d.RunChunks(ctx, spec, chunks, nil)
		submitted <- err
	}()
	// poll the cluster's own state (no fixed sleep decides the outcome)
	require.Eventually(t, func() bool {
		st, err := conn.Status(context.Background())
		return err == nil && st.Queued == 3
	}, 30*time.Second, 10*time.Millisecond, "the three chunks were never queued")
	cancel() // the submitter dies
	<-submitted
	srv.Shutdown()
	conn.Close()

	srv = startServer(t, addr, dir)
	defer srv.Shutdown()
	conn2 := connect(t, srv.URL())
	st, err := conn2.Status(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if st.Queued != 3 || len(st.Jobs) != 1 || st.Jobs[0].Positions != 12 {
		t.Fatalf("after the restart: %s", st)
	}
	// a worker with a fake engine answers; the submitted-again job completes
	fake := func(ctx context.Context, spec analysis.EngineSpec, log zerolog.Logger) (analysis.Searcher, error) {
		return &countingEngine{}, nil
	}
	stop := runWorker(&cluster.Worker{Conn: connect(t, srv.URL()), ID: "w", Engines: 2, Start: fake, Logger: zerolog.Nop()})
	defer stop()
	res, err := (&cluster.Dispatcher{Conn: conn2, Logger: zerolog.Nop()}).RunChunks(context.Background(), spec, chunks, nil)
	if err != nil {
		t.Fatal(err)
	}
	// the fake engine's answer names the searches since ucinewgame: the
	// warm-up counts, so chunk 1's last position is the second search
	if got := res[1][4]; got.Depth != 2 || got.Nodes != 1006 {
		t.Errorf("chunk 1's last position: search %d of %d nodes, want the search after the warm-up (2, 1006)", got.Depth, got.Nodes)
	}
	if got := res[0][0]; got.Depth != 5 || got.Nodes != 1007 {
		t.Errorf("chunk 0's first position: search %d of %d nodes, want 5, 1007", got.Depth, got.Nodes)
	}
	st, err = conn2.Status(context.Background())
	if err != nil || st.Queued != 0 || st.Jobs[0].ChunksDone != 3 {
		t.Errorf("after the job: %v %s", err, st)
	}
}

// noLeaks checks for goroutines left behind once the test and all its
// cleanups are done (registered first, so it runs last).
func noLeaks(t *testing.T) {
	t.Helper()
	ignore := goleak.IgnoreCurrent()
	t.Cleanup(func() { testkit.NoLeaks(t, ignore) })
}

// A chunk an engine refuses fails the job with the worker's message; the
// failure is not kept, so the same job asked again runs the chunk again.
// Results purged from the stream are computed again too. Over auth and
// TLS too, where the client may not purge.
func TestClusterFailedChunkIsNotSticky(t *testing.T) {
	t.Run("open", func(t *testing.T) {
		noLeaks(t)
		srv := startServer(t, "127.0.0.1:0", t.TempDir())
		defer srv.Shutdown()
		failedChunkIsNotSticky(t, func(string) *cluster.Conn { return connect(t, srv.URL()) })
	})
	t.Run("auth and TLS", func(t *testing.T) {
		noLeaks(t)
		e := newSecureEnv(t)
		srv := e.startSecure(t)
		failedChunkIsNotSticky(t, func(role string) *cluster.Conn { return e.connectAs(t, srv.URL(), role, nil) })
	})
}

// failedChunkIsNotSticky runs the test with connections of connectAs
// (role: worker, client or admin).
func failedChunkIsNotSticky(t *testing.T, connectAs func(role string) *cluster.Conn) {
	var refuse atomic.Bool
	refuse.Store(true)
	var searches atomic.Int64
	start := func(ctx context.Context, spec analysis.EngineSpec, log zerolog.Logger) (analysis.Searcher, error) {
		return &countingEngine{refuse: &refuse, searches: &searches}, nil
	}
	stop := runWorker(&cluster.Worker{Conn: connectAs("worker"), ID: "w", Engines: 1, Start: start, Logger: zerolog.Nop()})
	defer stop()
	jobs := []analysis.Job{{WhiteToMove: true, Limits: uci.Limits{Nodes: 1}}, {WhiteToMove: true, Limits: uci.Limits{Nodes: 2}}}
	chunks := []analysis.Chunk{{Jobs: jobs}}
	spec := analysis.EngineSpec{Command: []string{"sf15"}} // the worker's engine is a fake
	d := &cluster.Dispatcher{Conn: connectAs("client"), Logger: zerolog.Nop()}
	ctx := context.Background()
	if _, err := d.RunChunks(ctx, spec, chunks, nil); err == nil || !strings.Contains(err.Error(), "refused by the fake") || !strings.Contains(err.Error(), `worker "w"`) {
		t.Fatalf("first run: %v, want the worker's error", err)
	}
	refuse.Store(false)
	res, err := d.RunChunks(ctx, spec, chunks, nil)
	if err != nil || len(res) != 1 || res[0][1].Depth != 1 || res[0][1].Nodes != 2 {
		t.Fatalf("second run: %v %+v", err, res)
	}
	before := searches.Load()
	s, err := connectAs("admin").JS.Stream(ctx, cluster.ResultsStream)
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Purge(ctx); err != nil {
		t.Fatal(err)
	}
	if _, err := d.RunChunks(ctx, spec, chunks, nil); err != nil {
		t.Fatalf("after the purge: %v", err)
	}
	if got := searches.Load() - before; got != 2 {
		t.Errorf("after the purge the chunk's 2 positions were searched %d times", got)
	}
}

// countingEngine answers with the number of searches since ucinewgame.
type countingEngine struct {
	n        int
	refuse   *atomic.Bool  // when set and true: every search fails
	searches *atomic.Int64 // when set: counts the searches
}

func (e *countingEngine) Analyse(ctx context.Context, pos uci.Position, lim uci.Limits) (*uci.Result, error) {
	if e.refuse != nil && e.refuse.Load() {
		return nil, errors.New("position refused by the fake engine")
	}
	if e.searches != nil {
		e.searches.Add(1)
	}
	e.n++
	best, err := firstLegal(pos)
	if err != nil {
		return nil, err
	}
	// the search's number since ucinewgame is its depth, its budget its
	// nodes: a test reads which search answered which position
	return &uci.Result{BestMove: best, Nodes: lim.Nodes, Lines: []uci.Info{{Depth: e.n, HasScore: true, Score: score.CP(e.n), PV: []string{best}}}}, nil
}

// firstLegal is the first legal move of the position, in UCI.
func firstLegal(pos uci.Position) (string, error) {
	b, err := board.FromFENVariant(pos.FEN, pos.Chess960)
	if pos.FEN == "" {
		b, err = board.New(), nil
	}
	if err != nil {
		return "", err
	}
	for _, m := range pos.Moves {
		if err := b.MakeUCI(m); err != nil {
			return "", err
		}
	}
	moves := b.LegalMoves()
	if len(moves) == 0 {
		return "", uci.ErrNoMove
	}
	return moves[0].String(), nil
}
func (e *countingEngine) NewGame(ctx context.Context) error { e.n = 0; return nil }
func (e *countingEngine) Restart(ctx context.Context) error { return nil }
func (e *countingEngine) Close() error                      { return nil }

// ruyLopez returns the positions after 0..n-1 plies of a Ruy Lopez, each
// with a budget of 1000+ply nodes.
func ruyLopez(n int) []analysis.Job {
	moves := []string{"e2e4", "e7e5", "g1f3", "b8c6", "f1b5", "a7a6", "b5a4", "g8f6", "e1g1", "f8e7", "f1e1", "b7b5"}
	jobs := make([]analysis.Job, n)
	for i := range jobs {
		jobs[i] = analysis.Job{Pos: uci.Position{Moves: moves[:i]}, WhiteToMove: i%2 == 0, Limits: uci.Limits{Nodes: int64(1000 + i)}}
	}
	return jobs
}
