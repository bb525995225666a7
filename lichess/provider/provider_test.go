package provider

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/rs/zerolog"

	"github.com/outpostchess/outpost/bots/board"
	"github.com/outpostchess/outpost/bots/enginepath"
	"github.com/outpostchess/outpost/bots/uci"
	"github.com/outpostchess/outpost/bots/uci/pipetest"
	"github.com/outpostchess/outpost/internal/sandbox"
	"github.com/outpostchess/outpost/lichess"
	"github.com/outpostchess/outpost/models"
	"github.com/outpostchess/outpost/models/modeltest"
)

const userToken = "tok-alice-provider-1"

// rig is a sandbox on loopback, a provider serving slots against it, and
// the jobs it finished (in order).
type rig struct {
	url   string
	sb    *sandbox.Server
	jobs  chan JobRecord
	regs  []lichess.ExternalEngine
	stop  func()
	alice *lichess.Client
}

func newRig(t *testing.T, cfg sandbox.Config, slots ...Engine) *rig {
	t.Helper()
	cfg.Accounts = append(cfg.Accounts, sandbox.Account{Name: "alice", Token: userToken})
	sb := sandbox.New(cfg)
	ctx, cancel := context.WithCancel(context.Background())
	url, err := sb.Listen(ctx, "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	client, err := lichess.New(lichess.Options{BaseURL: url, Token: userToken})
	if err != nil {
		t.Fatal(err)
	}
	broker, err := lichess.NewBroker(url, nil, "")
	if err != nil {
		t.Fatal(err)
	}
	secrets, err := LoadSecrets(filepath.Join(t.TempDir(), "secrets.json"))
	if err != nil {
		t.Fatal(err)
	}
	r := &rig{url: url, sb: sb, jobs: make(chan JobRecord, 16), alice: client}
	p, err := New(Options{Client: client, Broker: broker, Engines: slots, Secrets: secrets,
		OnJob: func(j JobRecord) { r.jobs <- j }, Logger: zerolog.Nop()})
	if err != nil {
		t.Fatal(err)
	}
	if r.regs, err = p.Register(ctx); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- p.Serve(ctx) }()
	r.stop = func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("Serve: %v", err)
		}
		sb.Close()
		client.Close()
	}
	t.Cleanup(r.stop)
	return r
}

// emit is one line of the requester's stream.
type emit struct {
	Time, Depth int
	Nodes       int64
	PVs         []struct {
		Moves []string `json:"moves"`
		CP    *int     `json:"cp"`
		Mate  *int     `json:"mate"`
		Depth int      `json:"depth"`
	} `json:"pvs"`
	BestMove string `json:"bestmove"`
}

// analyse requests work from registration reg as the analysis board does,
// calling each with every emit; it returns the status and the last emit.
func (r *rig) analyse(ctx context.Context, t *testing.T, reg lichess.ExternalEngine, work lichess.EngineWork, each func(emit) bool) (int, *emit) {
	t.Helper()
	body, _ := json.Marshal(map[string]any{"clientSecret": reg.ClientSecret, "work": work})
	req, _ := http.NewRequestWithContext(ctx, "POST", r.url+"/api/external-engine/"+reg.ID+"/analyse", bytes.NewReader(body))
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatalf("analyse: %v", err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != 200 {
		return resp.StatusCode, nil
	}
	var last *emit
	sc := bufio.NewScanner(resp.Body)
	for sc.Scan() {
		var e emit
		if err := json.Unmarshal(sc.Bytes(), &e); err != nil {
			t.Fatalf("emit %q: %v", sc.Text(), err)
		}
		last = &e
		if each != nil && !each(e) {
			return 200, last
		}
	}
	return 200, last
}

func stockfishSlot(t *testing.T) *UCIEngine {
	t.Helper()
	path := pipetest.Installed(t, enginepath.DebianStockfish)
	e, err := NewUCIEngine(UCIOptions{Name: "Stockfish test", MaxThreads: 1, MaxHash: 16, Engine: uci.Config{Path: path}})
	if err != nil {
		t.Fatal(err)
	}
	return e
}

func startWork(moves ...string) lichess.EngineWork {
	return lichess.EngineWork{SessionID: "s1", Threads: 8, Hash: 256, MultiPV: 2, Variant: "chess",
		InitialFEN: board.StartFEN, Moves: moves, Nodes: 30000}
}

// A requester on the sandbox gets the lines of the same search run
// directly: same PVs and scores (turned to White's view), same best move.
// A depth search on one thread after ucinewgame is reproducible.
func TestStockfishLinesEqualDirectSearch(t *testing.T) {
	r := newRig(t, sandbox.Config{}, stockfishSlot(t))
	work := startWork("e2e4", "e7e5", "g1f3")
	work.Nodes, work.Depth = 0, 10
	status, last := r.analyse(context.Background(), t, r.regs[0], work, nil)
	if status != 200 || last == nil || last.BestMove == "" {
		t.Fatalf("analyse: status %d, last %+v", status, last)
	}
	direct, err := uci.Start(context.Background(), uci.Config{Path: enginepath.DebianStockfish,
		Options: map[string]string{"Threads": "1", "Hash": "16"}})
	if err != nil {
		t.Fatal(err)
	}
	defer direct.Close()
	if err := direct.NewGame(context.Background()); err != nil {
		t.Fatal(err)
	}
	res, err := direct.Analyse(context.Background(), uci.Position{FEN: board.StartFEN, Moves: work.Moves, Chess960: true},
		uci.Limits{Depth: work.Depth, MultiPV: 2})
	if err != nil {
		t.Fatal(err)
	}
	if last.BestMove != res.BestMove || len(last.PVs) != len(res.Lines) {
		t.Fatalf("best %s with %d lines; direct %s with %d", last.BestMove, len(last.PVs), res.BestMove, len(res.Lines))
	}
	for i, in := range res.Lines {
		got := last.PVs[i]
		if got.CP == nil || *got.CP != -in.Score.CP || strings.Join(got.Moves, " ") != strings.Join(in.PV, " ") {
			t.Errorf("line %d: %v cp %v; direct %v cp %d (black to move: White's view is the opposite)", i+1, got.Moves, got.CP, in.PV, in.Score.CP)
		}
	}
	if j := <-r.jobs; j.Outcome != "done" || j.Limit != "depth 10" {
		t.Errorf("job %+v", j)
	}
}

// Castling in Chess960 notation round-trips: the work's king-takes-rook
// castle reaches the engine as sent, and every PV move the requester gets
// is legal Chess960 UCI, from a Chess960 start position too.
func TestChess960CastlingRoundTrips(t *testing.T) {
	rec := &recording{Engine: stockfishSlot(t)}
	r := newRig(t, sandbox.Config{}, rec)
	for _, tc := range []struct {
		fen   string
		moves []string
	}{
		{board.StartFEN, []string{"e2e4", "e7e5", "g1f3", "g8f6", "f1c4", "f8c5", "e1h1"}},
		{"bqnbrkrn/pppppppp/8/8/8/8/PPPPPPPP/BQNBRKRN w GEge - 0 1", []string{"g2g3", "g7g6", "g1g2", "g8g7", "f1g1"}},
	} {
		work := startWork(tc.moves...)
		work.InitialFEN = tc.fen
		status, last := r.analyse(context.Background(), t, r.regs[0], work, nil)
		if status != 200 || last == nil || last.BestMove == "" {
			t.Fatalf("%s: status %d, last %+v", tc.fen, status, last)
		}
		if got := rec.last().Moves; strings.Join(got, " ") != strings.Join(tc.moves, " ") {
			t.Errorf("engine got moves %v, sent %v", got, tc.moves)
		}
		for _, pv := range last.PVs {
			b, err := board.FromFENVariant(tc.fen, true)
			if err != nil {
				t.Fatal(err)
			}
			for _, m := range append(append([]string(nil), tc.moves...), pv.Moves...) {
				if err := b.MakeUCI(m); err != nil {
					t.Fatalf("%s: PV %v: %v", tc.fen, pv.Moves, err)
				}
			}
		}
		<-r.jobs
	}
}

// recording is a slot that remembers the work it was given.
type recording struct {
	Engine
	mu    sync.Mutex
	works []lichess.EngineWork
}

func (r *recording) Analyse(ctx context.Context, w lichess.EngineWork, out func(string) error) error {
	r.mu.Lock()
	r.works = append(r.works, w)
	r.mu.Unlock()
	return r.Engine.Analyse(ctx, w, out)
}

func (r *recording) last() lichess.EngineWork {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.works[len(r.works)-1]
}

// A requester leaving stops the search: the job of a depth-60 search ends
// as "upload closed" (the broker closes the upload) once the requester closed its stream, and the same
// slot (one job at a time) then answers the next request.
func TestRequesterLeavingStopsSearch(t *testing.T) {
	slot := stockfishSlot(t)
	r := newRig(t, sandbox.Config{}, slot)
	work := startWork()
	work.Nodes, work.Depth, work.MultiPV = 0, 60, 1
	ctx, cancel := context.WithCancel(context.Background())
	r.analyse(ctx, t, r.regs[0], work, func(emit) bool { cancel(); return false })
	cancel()
	j := <-r.jobs
	if j.Outcome != "upload closed" {
		t.Fatalf("job %+v, want upload closed", j)
	}
	if !slot.Running() {
		t.Error("the engine process was shut down with the job (it should only stop searching)")
	}
	status, last := r.analyse(context.Background(), t, r.regs[0], startWork(), nil)
	if status != 200 || last == nil || last.BestMove == "" {
		t.Fatalf("next request: status %d, last %+v", status, last)
	}
	<-r.jobs
}

// An idle engine is shut down after its idle time, and started again by
// the next job.
func TestIdleEngineShutDown(t *testing.T) {
	path := pipetest.Installed(t, enginepath.DebianStockfish)
	closed := make(chan struct{}, 4)
	slot, err := NewUCIEngine(UCIOptions{Name: "Stockfish idle", MaxThreads: 1, MaxHash: 16, Idle: time.Millisecond,
		Engine: uci.Config{Path: path}, OnIdleClose: func() { closed <- struct{}{} }})
	if err != nil {
		t.Fatal(err)
	}
	defer slot.Close()
	for range 2 {
		var lines []string
		if err := slot.Analyse(context.Background(), startWork(), func(l string) error { lines = append(lines, l); return nil }); err != nil {
			t.Fatal(err)
		}
		if len(lines) == 0 || !strings.HasPrefix(lines[len(lines)-1], "bestmove ") {
			t.Fatalf("lines %v", lines)
		}
		select {
		case <-closed:
		case <-time.After(30 * time.Second): // generous: the shutdown is an event, this only bounds a hang
			t.Fatal("idle engine never shut down")
		}
		if slot.Running() {
			t.Error("still running after the idle shutdown")
		}
	}
}

// With no provider serving the engine, a request is answered 503 after the
// start wait; a registration's client secret is required.
func TestNoProviderIs503(t *testing.T) {
	cfg := sandbox.Config{EngineStartWait: time.Millisecond, Accounts: []sandbox.Account{{Name: "alice", Token: userToken}}}
	sb := sandbox.New(cfg)
	defer sb.Close()
	url, err := sb.Listen(context.Background(), "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	client, _ := lichess.New(lichess.Options{BaseURL: url, Token: userToken})
	e, err := client.CreateExternalEngine(context.Background(), lichess.EngineRegistration{Name: "Nobody home", MaxThreads: 1, MaxHash: 1, ProviderSecret: strings.Repeat("x", 16)})
	if err != nil {
		t.Fatal(err)
	}
	r := &rig{url: url}
	if status, _ := r.analyse(context.Background(), t, *e, startWork(), nil); status != http.StatusServiceUnavailable {
		t.Errorf("status %d, want 503", status)
	}
	wrong := *e
	wrong.ClientSecret = "ees_wrong"
	if status, _ := r.analyse(context.Background(), t, wrong, startWork(), nil); status != http.StatusNotFound {
		t.Errorf("wrong client secret: status %d, want 404", status)
	}
}

// Registering twice updates the registration of the same name instead of
// adding one.
func TestRegisterUpdatesByName(t *testing.T) {
	r := newRig(t, sandbox.Config{}, stockfishSlot(t))
	broker, _ := lichess.NewBroker(r.url, nil, "")
	secrets, _ := LoadSecrets(filepath.Join(t.TempDir(), "s.json"))
	p, err := New(Options{Client: r.alice, Broker: broker, Engines: []Engine{stockfishSlot(t)}, Secrets: secrets})
	if err != nil {
		t.Fatal(err)
	}
	regs, err := p.Register(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if regs[0].ID != r.regs[0].ID {
		t.Errorf("second registration got id %s, want the first's %s", regs[0].ID, r.regs[0].ID)
	}
	if all, _ := r.alice.ExternalEngines(context.Background()); len(all) != 1 {
		t.Errorf("%d registrations, want 1", len(all))
	}
}

// The secrets file is created with mode 0600, keeps its secrets, and is
// refused when others may read it.
func TestSecretsFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "dir", "secrets.json")
	s, err := LoadSecrets(path)
	if err != nil {
		t.Fatal(err)
	}
	a, err := s.For("Stockfish")
	if err != nil || len(a) < 16 {
		t.Fatalf("secret %q, %v", a, err)
	}
	fi, err := os.Stat(path)
	if err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("mode %v, %v", fi.Mode(), err)
	}
	again, err := LoadSecrets(path)
	if err != nil {
		t.Fatal(err)
	}
	if b, _ := again.For("Stockfish"); b != a {
		t.Error("the secret changed across loads")
	}
	if err := os.Chmod(path, 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := LoadSecrets(path); err == nil || !strings.Contains(err.Error(), "chmod 600") {
		t.Errorf("a readable secrets file: %v", err)
	}
}

// Bad jobs from a broker are refused with a clear error (and ended with an
// empty upload), and the provider keeps serving: the good job after them
// is done.
func TestBadJobsRefusedProviderKeepsServing(t *testing.T) {
	bad := []lichess.EngineWork{
		{SessionID: "s", Threads: 1, Hash: 1, MultiPV: 9, Variant: "chess", InitialFEN: board.StartFEN, Depth: 1},
		{SessionID: "s", Threads: 1, Hash: 1, MultiPV: 1, Variant: "chess", InitialFEN: board.StartFEN, Moves: []string{"e2e5"}, Depth: 1},
		{SessionID: "s", Threads: 1, Hash: 1, MultiPV: 1, Variant: "atomic", InitialFEN: board.StartFEN, Depth: 1},
		{SessionID: "s", Threads: 1, Hash: 1, MultiPV: 1, Variant: "chess", InitialFEN: "not a fen", Depth: 1},
		{SessionID: "s", Threads: 1, Hash: 1, MultiPV: 1, Variant: "chess", InitialFEN: board.StartFEN, Depth: 1, Nodes: 5},
	}
	good := lichess.EngineWork{SessionID: "s", Threads: 1, Hash: 1, MultiPV: 1, Variant: "chess", InitialFEN: board.StartFEN, Depth: 1}
	fb := newFakeBroker(append(bad, good))
	slot := &lineSlot{reg: lichess.EngineRegistration{Name: "Fake engine", MaxThreads: 1, MaxHash: 1}}
	jobs := make(chan JobRecord, 16)
	broker, _ := lichess.NewBroker(fb.url, nil, "")
	p := &Provider{o: Options{Broker: broker, Logger: zerolog.Nop(), OnJob: func(j JobRecord) { jobs <- j }}}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { p.serveSlot(ctx, slot, "secret"); close(done) }()
	wants := []string{"multiPv 9", "move 1 \"e2e5\"", "variant \"atomic\"", "initialFen", "exactly one positive limit"}
	for i, want := range wants {
		j := <-jobs
		if !strings.HasPrefix(j.Outcome, "refused: ") || !strings.Contains(j.Outcome, want) {
			t.Errorf("bad job %d: outcome %q, want a refusal naming %q", i, j.Outcome, want)
		}
	}
	if j := <-jobs; j.Outcome != "done" {
		t.Errorf("good job: %+v", j)
	}
	cancel()
	<-done
	fb.close()
	if got := fb.uploads(); len(got) != 6 || got[0] != "" || !strings.HasPrefix(got[5], "info multipv 1") {
		t.Errorf("uploads %q: want five empty ones, then the good job's lines", got)
	}
}

// lineSlot answers every job with one line and bestmove.
type lineSlot struct{ reg lichess.EngineRegistration }

func (s *lineSlot) Registration() lichess.EngineRegistration { return s.reg }
func (s *lineSlot) Close() error                             { return nil }
func (s *lineSlot) Analyse(_ context.Context, _ lichess.EngineWork, out func(string) error) error {
	if err := out("info multipv 1 depth 1 score cp 20 nodes 20 time 1 pv e2e4"); err != nil {
		return err
	}
	return out("bestmove e2e4")
}

// fakeBroker hands out fixed jobs, then answers 204; it records uploads.
type fakeBroker struct {
	url   string
	srv   *http.Server
	mu    sync.Mutex
	queue []lichess.EngineWork
	up    []string
}

func newFakeBroker(works []lichess.EngineWork) *fakeBroker {
	fb := &fakeBroker{queue: works}
	mux := http.NewServeMux()
	mux.HandleFunc("POST /api/external-engine/work", func(w http.ResponseWriter, r *http.Request) {
		fb.mu.Lock()
		defer fb.mu.Unlock()
		if len(fb.queue) == 0 {
			w.WriteHeader(http.StatusNoContent)
			return
		}
		id := "job" + strconv.Itoa(len(fb.up)+len(fb.queue))
		_ = json.NewEncoder(w).Encode(lichess.EngineJob{ID: id, Work: fb.queue[0]})
		fb.queue = fb.queue[1:]
	})
	mux.HandleFunc("POST /api/external-engine/work/{id}", func(w http.ResponseWriter, r *http.Request) {
		var b bytes.Buffer
		_, _ = b.ReadFrom(r.Body)
		fb.mu.Lock()
		fb.up = append(fb.up, b.String())
		fb.mu.Unlock()
	})
	ln, url := listen()
	fb.url, fb.srv = url, &http.Server{Handler: mux}
	go func() { _ = fb.srv.Serve(ln) }()
	return fb
}

func (fb *fakeBroker) close() { _ = fb.srv.Close() }

func (fb *fakeBroker) uploads() []string {
	fb.mu.Lock()
	defer fb.mu.Unlock()
	return append([]string(nil), fb.up...)
}

func TestValueCP(t *testing.T) {
	for _, tc := range []struct {
		s    float64
		want int
	}{{0.5, 0}, {1, 10000}, {0, -10000}, {0.6, 36}, {0.25, -111}} { // 111.714640912·tan(1.5620688421·0.2) = 36.07
		if got := ValueCP(tc.s); got != tc.want {
			t.Errorf("ValueCP(%v) = %d, want %d", tc.s, got, tc.want)
		}
	}
}

// Maia's lines are ordered as its prediction (what outpost predict
// prints), best first, bestmove the most likely move; each is one legal
// move scored from the value head.
func TestMaiaLinesOrderedAsPredict(t *testing.T) {
	pred := modeltest.Predictor(t, 1500)
	slot, err := NewMaiaEngine(pred, 1500)
	if err != nil {
		t.Fatal(err)
	}
	r := newRig(t, sandbox.Config{}, slot)
	work := startWork("e2e4", "c7c5")
	work.MultiPV = 5
	status, last := r.analyse(context.Background(), t, r.regs[0], work, nil)
	if status != 200 || last == nil {
		t.Fatalf("status %d, last %+v", status, last)
	}
	want, err := pred.PredictOne(context.Background(), models.Request{Moves: work.Moves, Model: "maia-1500", Chess960: true})
	if err != nil {
		t.Fatal(err)
	}
	if len(last.PVs) != 5 || last.BestMove != want.Moves[0].UCI {
		t.Fatalf("%d lines, best %s; want 5, best %s", len(last.PVs), last.BestMove, want.Moves[0].UCI)
	}
	for i, pv := range last.PVs {
		if len(pv.Moves) != 1 || pv.Moves[0] != want.Moves[i].UCI || pv.CP == nil {
			t.Errorf("line %d: %+v; want %s (p %.3f) with a cp score", i+1, pv, want.Moves[i].UCI, want.Moves[i].P)
		}
	}
	if !strings.Contains(r.regs[0].Name, "Maia 1500") || !strings.Contains(r.regs[0].Name, "value head") {
		t.Errorf("registration name %q does not say what it is", r.regs[0].Name)
	}
}
