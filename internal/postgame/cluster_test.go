package postgame_test

import (
	"context"
	"os"
	"reflect"
	"testing"
	"time"

	"github.com/rs/zerolog"

	"github.com/outpostchess/outpost/analysis"
	"github.com/outpostchess/outpost/analysis/cluster"
	"github.com/outpostchess/outpost/bots/enginepath"
	"github.com/outpostchess/outpost/internal/postgame"
	"github.com/outpostchess/outpost/internal/store"
)

// The daemon's post-game summary computed on the cluster ([cluster] url)
// equals the one computed by the in-process pool: same analysis, same
// chat lines.
func TestSummaryOnClusterEqualsLocal(t *testing.T) {
	r, err := enginepath.Resolve(analysis.DefaultEngineCommand())
	if err != nil {
		t.Skipf("Stockfish not installed (%v): run make setup", err)
	}
	if _, err := os.Stat(r.Command[0]); err != nil {
		t.Skipf("Stockfish not installed at %s: run make setup", r.Command[0])
	}
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	g := store.Game{ID: "cl000001", Opponent: "someone", OpponentRating: 1500, Color: "white", Status: "mate", Winner: "white",
		Moves: "e2e4 e7e5 g1f3 b8c6 f1c4 g8f6 f3g5 d7d5 e4d5 f6d5 g5f7 e8f7 d1f3 f7e6 b1c3 c6b4 f3e4 c7c6 a2a3 b4a6"}
	pc := analysis.PoolConfig{Command: analysis.DefaultEngineCommand(), Workers: 1, Threads: 1, HashMB: 16}
	local := postgame.New(pc, 40_000, "OutpostBot")
	defer local.Close()
	sl, err := local.Summarise(ctx, postgame.Request{Game: g})
	if err != nil {
		t.Fatal(err)
	}

	srv, err := cluster.Serve(cluster.ServerOptions{Addr: "127.0.0.1:0", StoreDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Shutdown()
	conn, err := cluster.Connect(ctx, cluster.ConnOptions{URL: srv.URL()})
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	wconn, err := cluster.Connect(ctx, cluster.ConnOptions{URL: srv.URL()})
	if err != nil {
		t.Fatal(err)
	}
	defer wconn.Close()
	wctx, stop := context.WithCancel(ctx)
	done := make(chan error, 1)
	go func() { done <- (&cluster.Worker{Conn: wconn, Engines: 1, Logger: zerolog.Nop()}).Run(wctx) }()
	defer func() { stop(); <-done }()

	pc.Dispatcher = &cluster.Dispatcher{Conn: conn, Logger: zerolog.Nop()}
	remote := postgame.New(pc, 40_000, "OutpostBot")
	defer remote.Close()
	sr, err := remote.Summarise(ctx, postgame.Request{Game: g})
	if err != nil {
		t.Fatal(err)
	}
	rawL, rawR, linesL, linesR := sl.JSON, sr.JSON, sl.Lines, sr.Lines
	if rawL != rawR {
		t.Errorf("analysis differs:\nlocal   %s\ncluster %s", rawL, rawR)
	}
	if !reflect.DeepEqual(linesL, linesR) || len(linesL) == 0 {
		t.Errorf("chat lines differ:\nlocal   %q\ncluster %q", linesL, linesR)
	}
}
