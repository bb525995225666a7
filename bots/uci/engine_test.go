package uci

import (
	"context"
	"errors"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/rs/zerolog"

	"github.com/outpostchess/outpost/bots/uci/ucitest"
	"github.com/outpostchess/outpost/internal/testkit"
)

func TestMain(m *testing.M) { ucitest.Run(m) }

// fakeConfig returns a Config that starts the fake engine in mode with
// short timeouts.
func fakeConfig(mode ucitest.Mode, env ...string) Config {
	path, args, e := ucitest.Config(mode, env...)
	return Config{Path: path, Args: args, Env: e,
		HandshakeTimeout: 5 * time.Second, ReadyTimeout: 5 * time.Second,
		StopTimeout: 300 * time.Millisecond, QuitTimeout: 300 * time.Millisecond}
}

func startFake(t *testing.T, cfg Config) *Engine {
	t.Helper()
	e, err := Start(context.Background(), cfg)
	if err != nil {
		t.Fatalf("Start: %v", err)
	}
	t.Cleanup(func() { _ = e.Close() })
	return e
}

func TestHandshakeAndOptions(t *testing.T) {
	ucitest.NoLeak(t)
	cfg := fakeConfig(ucitest.Normal)
	cfg.Options = map[string]string{"hash": "32", "Style": "risky"}
	e := startFake(t, cfg)
	if id := e.ID(); id.Name != "Fake Engine 1.0" || id.Author != "Outpost tests" {
		t.Errorf("ID = %+v", id)
	}
	opts := e.Options()
	if len(opts) != 10 { // the malformed "broken" option is skipped
		t.Errorf("got %d options, want 10: %+v", len(opts), opts)
	}
	if o, ok := e.Option("skill level"); !ok || o.Max != 20 || o.Type != OptionSpin {
		t.Errorf("Option(skill level) = %+v, %v", o, ok)
	}
	if got := e.applied["Hash"]; got != "32" {
		t.Errorf("Hash applied as %q", got)
	}
	if got := e.applied["Style"]; got != "Risky" {
		t.Errorf("Style applied as %q", got)
	}
	ctx := context.Background()
	if err := e.SetOption(ctx, "Nope", "1"); err == nil || !strings.Contains(err.Error(), "has no option \"Nope\"") {
		t.Errorf("unknown option: %v", err)
	}
	if err := e.SetOption(ctx, "Hash", "4096"); err == nil || !strings.Contains(err.Error(), "outside [1, 1024]") {
		t.Errorf("out of range: %v", err)
	}
	if err := e.SetOption(ctx, "Clear Hash", ""); err != nil {
		t.Errorf("button: %v", err)
	}
	if err := e.IsReady(ctx); err != nil {
		t.Errorf("IsReady: %v", err)
	}
	if err := e.NewGame(ctx); err != nil {
		t.Errorf("NewGame: %v", err)
	}
	if err := e.Close(); err != nil || e.Close() != nil {
		t.Errorf("Close: %v", err)
	}
	if err := e.IsReady(ctx); !errors.Is(err, ErrClosed) {
		t.Errorf("IsReady after Close = %v, want ErrClosed", err)
	}
}

func TestStartBadOption(t *testing.T) {
	cfg := fakeConfig(ucitest.Normal)
	cfg.Options = map[string]string{"Threads": "0"}
	if _, err := Start(context.Background(), cfg); err == nil || !strings.Contains(err.Error(), "Threads") {
		t.Errorf("Start with Threads=0: %v", err)
	}
}

func TestStartFailures(t *testing.T) {
	ucitest.NoLeak(t)
	tests := []struct {
		name string
		cfg  Config
		want error
	}{
		{"missing binary", Config{Path: filepath.Join(t.TempDir(), "nope")}, nil},
		{"no uciok", withTimeouts(fakeConfig(ucitest.NoUCIOK), 200*time.Millisecond), ErrTimeout},
		{"no readyok", withTimeouts(fakeConfig(ucitest.NoReadyOK), 200*time.Millisecond), ErrTimeout},
		{"exits in handshake", fakeConfig(ucitest.ExitHandshake), ErrCrashed},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			e, err := Start(context.Background(), tc.cfg)
			if err == nil {
				e.Close()
				t.Fatal("Start succeeded")
			}
			if tc.want != nil && !errors.Is(err, tc.want) {
				t.Errorf("Start error = %v, want %v", err, tc.want)
			}
		})
	}
}

func withTimeouts(c Config, d time.Duration) Config {
	c.HandshakeTimeout, c.ReadyTimeout = d, d
	return c
}

func TestAnalyseMultiPV(t *testing.T) {
	ucitest.NoLeak(t)
	e := startFake(t, fakeConfig(ucitest.Normal))
	ctx := context.Background()
	res, err := e.Analyse(ctx, Position{Moves: []string{"e2e4", "e7e5"}}, Limits{Depth: 3, MultiPV: 3})
	if err != nil {
		t.Fatalf("Analyse: %v", err)
	}
	if len(res.Lines) != 3 {
		t.Fatalf("got %d lines, want 3: %+v", len(res.Lines), res.Lines)
	}
	for i, l := range res.Lines {
		if l.MultiPV != i+1 || l.Depth != 3 || !l.HasScore || len(l.PV) != 1 || l.WDL == nil {
			t.Errorf("line %d = %+v", i+1, l)
		}
	}
	if res.BestMove != res.Lines[0].PV[0] || res.Ponder != "a7a5" || res.Nodes != 300 || res.Stopped {
		t.Errorf("result = %+v", res)
	}
	// Back to one line: MultiPV is reset.
	res, err = e.Analyse(ctx, Position{FEN: "startpos"}, Limits{Nodes: 1000})
	if err != nil || len(res.Lines) != 1 {
		t.Fatalf("single line: %+v, %v", res, err)
	}
}

func TestAnalyseGarbageTolerated(t *testing.T) {
	logs := &testkit.SyncBuffer{}
	cfg := fakeConfig(ucitest.Garbage)
	cfg.Logger = zerolog.New(logs).Level(zerolog.DebugLevel)
	e := startFake(t, cfg)
	res, err := e.Analyse(context.Background(), Position{}, Limits{Depth: 3})
	if err != nil {
		t.Fatalf("Analyse: %v", err)
	}
	if res.BestMove == "" || len(res.Lines) != 1 || res.Lines[0].Depth != 3 {
		t.Errorf("result = %+v", res)
	}
	if !strings.Contains(logs.String(), "malformed info") {
		t.Errorf("malformed info lines were not logged:\n%s", logs.String())
	}
}

func TestAnalyseCancelStops(t *testing.T) {
	ucitest.NoLeak(t)
	e := startFake(t, fakeConfig(ucitest.Normal))
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	start := time.Now()
	res, err := e.Analyse(ctx, Position{}, Limits{}) // go infinite
	if err != nil {
		t.Fatalf("Analyse: %v", err)
	}
	if !res.Stopped || res.BestMove == "" {
		t.Errorf("result = %+v, want stopped with a move", res)
	}
	if d := time.Since(start); d > 2*time.Second {
		t.Errorf("stop took %v", d)
	}
	// Already-cancelled contexts send nothing.
	if _, err := e.Analyse(ctx, Position{}, Limits{Depth: 1}); !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("Analyse with done ctx = %v", err)
	}
}

func TestAnalyseHangKillsAndRestart(t *testing.T) {
	ucitest.NoLeak(t)
	e := startFake(t, fakeConfig(ucitest.Hang))
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	_, err := e.Analyse(ctx, Position{}, Limits{MoveTime: 10 * time.Millisecond})
	if !errors.Is(err, ErrTimeout) {
		t.Fatalf("Analyse on a hung engine = %v, want ErrTimeout", err)
	}
	if e.Alive() {
		t.Error("hung engine still alive")
	}
	_, err = e.Analyse(context.Background(), Position{}, Limits{Depth: 1})
	if !errors.Is(err, ErrCrashed) {
		t.Errorf("Analyse after kill = %v, want ErrCrashed", err)
	}
	if err := e.Restart(context.Background()); err != nil {
		t.Fatalf("Restart: %v", err)
	}
	if !e.Alive() {
		t.Error("not alive after Restart")
	}
}

func TestCrashDetectionAndRestart(t *testing.T) {
	ucitest.NoLeak(t)
	logs := &testkit.SyncBuffer{}
	marker := filepath.Join(t.TempDir(), "crashed")
	cfg := fakeConfig(ucitest.CrashOnce, ucitest.EnvMarker+"="+marker)
	cfg.Options = map[string]string{"Hash": "64"}
	cfg.Logger = zerolog.New(logs).Level(zerolog.TraceLevel)
	e := startFake(t, cfg)
	if err := e.SetOption(context.Background(), "Skill Level", "3"); err != nil {
		t.Fatal(err)
	}
	_, err := e.Analyse(context.Background(), Position{}, Limits{Depth: 2})
	var ce *CrashError
	if !errors.Is(err, ErrCrashed) || !errors.As(err, &ce) {
		t.Fatalf("Analyse on crashing engine = %v, want a CrashError", err)
	}
	if ce.Stage != "search" || !strings.Contains(ce.Stderr, "crashing once") || !strings.Contains(err.Error(), "exit status 3") {
		t.Errorf("crash error = %v (%+v)", err, ce)
	}
	logs.Reset()
	if err := e.Restart(context.Background()); err != nil {
		t.Fatalf("Restart: %v", err)
	}
	for _, want := range []string{"setoption name Hash value 64", "setoption name Skill Level value 3"} {
		if !strings.Contains(logs.String(), want) {
			t.Errorf("Restart did not re-send %q", want)
		}
	}
	res, err := e.Analyse(context.Background(), Position{}, Limits{Depth: 2})
	if err != nil || res.BestMove == "" {
		t.Errorf("Analyse after restart: %+v, %v", res, err)
	}
}

func TestNoMoveAndIllegalInput(t *testing.T) {
	e := startFake(t, fakeConfig(ucitest.NoMove))
	_, err := e.Analyse(context.Background(), Position{}, Limits{Depth: 1})
	if !errors.Is(err, ErrNoMove) {
		t.Errorf("bestmove (none) = %v, want ErrNoMove", err)
	}
	if _, err := e.Analyse(context.Background(), Position{Moves: []string{"e2e4\nquit"}}, Limits{Depth: 1}); err == nil {
		t.Error("a move with a line break was accepted")
	}
	if _, err := e.Analyse(context.Background(), Position{FEN: "8/8 w\nquit"}, Limits{Depth: 1}); err == nil {
		t.Error("a FEN with a line break was accepted")
	}
}

func TestCloseInterruptsSearchAndKillsDeafEngine(t *testing.T) {
	ucitest.NoLeak(t)
	e, err := Start(context.Background(), fakeConfig(ucitest.Deaf))
	if err != nil {
		t.Fatal(err)
	}
	errc := make(chan error, 1)
	go func() {
		_, err := e.Analyse(context.Background(), Position{}, Limits{})
		errc <- err
	}()
	time.Sleep(50 * time.Millisecond)
	start := time.Now()
	if err := e.Close(); err != nil {
		t.Fatal(err)
	}
	if err := <-errc; !errors.Is(err, ErrClosed) {
		t.Errorf("Analyse during Close = %v, want ErrClosed", err)
	}
	if d := time.Since(start); d > 2*time.Second {
		t.Errorf("Close took %v", d)
	}
}

func TestConcurrentAnalyseIsSerialised(t *testing.T) {
	e := startFake(t, fakeConfig(ucitest.Normal))
	var wg sync.WaitGroup
	errs := make(chan error, 8)
	for i := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			pos := Position{Moves: []string{"e2e4", "e7e5", "g1f3"}[:i%4]}
			res, err := e.Analyse(context.Background(), pos, Limits{Depth: 2, MultiPV: 1 + i%3})
			if err == nil && len(res.Lines) != 1+i%3 {
				err = errors.New("wrong number of lines: answers were mixed up")
			}
			errs <- err
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Error(err)
		}
	}
}

func TestCommands(t *testing.T) {
	pos := []struct {
		in   Position
		want string
	}{
		{Position{}, "position startpos"},
		{Position{FEN: "startpos", Moves: []string{"e2e4"}}, "position startpos moves e2e4"},
		{Position{FEN: " 8/8/8/8/8/8/8/K6k w - - 0 1 "}, "position fen 8/8/8/8/8/8/8/K6k w - - 0 1"},
	}
	for _, c := range pos {
		got, err := PositionCommand(c.in)
		if err != nil || got != c.want {
			t.Errorf("PositionCommand(%+v) = %q, %v; want %q", c.in, got, err, c.want)
		}
	}
	if _, err := PositionCommand(Position{FEN: "8/8 w"}); err == nil {
		t.Error("short FEN accepted")
	}
	gos := []struct {
		in   Limits
		want string
	}{
		{Limits{}, "go infinite"},
		{Limits{MultiPV: 3}, "go infinite"},
		{Limits{Depth: 12, Nodes: 5000}, "go depth 12 nodes 5000"},
		{Limits{MoveTime: 1500 * time.Millisecond}, "go movetime 1500"},
		{Limits{WTime: time.Minute, BTime: 59 * time.Second, WInc: time.Second, BInc: time.Second, MovesToGo: 20},
			"go wtime 60000 btime 59000 winc 1000 binc 1000 movestogo 20"},
		{Limits{WTime: 100 * time.Microsecond}, "go wtime 1"},
		{Limits{Depth: 5, SearchMoves: []string{"e2e4", "d2d4"}}, "go depth 5 searchmoves e2e4 d2d4"},
	}
	for _, c := range gos {
		got, err := GoCommand(c.in)
		if err != nil || got != c.want {
			t.Errorf("GoCommand(%+v) = %q, %v; want %q", c.in, got, err, c.want)
		}
	}
	if _, err := GoCommand(Limits{Depth: -1}); err == nil {
		t.Error("negative depth accepted")
	}
}
