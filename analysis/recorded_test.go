package analysis_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/rs/zerolog"

	"github.com/outpostchess/outpost/analysis"
	"github.com/outpostchess/outpost/bots/score"
	"github.com/outpostchess/outpost/bots/uci"
)

// Recorded searches (testdata/searches/*.json) are what a real engine
// answered to one method's exact sequence of commands on one game:
// ucinewgame markers and every search (the position as its number of
// moves from the game's start, the node limit) with the engine's answer.
// Tests where the point is the method — which positions are searched, in
// which order, after which ucinewgame, at which node limit — and what
// Lichess's evals then say, replay them (replayEngine), so they cost no
// engine time and run where the engines are not installed; the replayer
// fails at the first command that differs from the recording.
// TestRecordedSearchesAreTheEngines checks a sample of every recording
// against the real engine (same depth, nodes, score and best move).
// OUTPOST_RECORD_SEARCHES=1 makes the replaying tests run the real engines
// instead and write the recordings anew.

// recording is one recorded session.
type recording struct {
	// Engine is the engine name (sf15, sf16, …) that answered.
	Engine string `json:"engine"`
	// Game is the shared game (../shared/lichess-games) searched.
	Game     string           `json:"game"`
	Method   string           `json:"method"`
	Searches []recordedSearch `json:"searches"`
}

// recordedSearch is a ucinewgame (New) or one search and its answer.
type recordedSearch struct {
	New bool `json:"new,omitempty"`
	// Moves is the position: the game's start and its first Moves moves.
	Moves int   `json:"moves"`
	Limit int64 `json:"limit,omitempty"`
	// Depth, Nodes, Score (side to move's view; nil: "score mate 0"),
	// Best and PV are the engine's answer.
	Depth int          `json:"depth,omitempty"`
	Nodes int64        `json:"nodes,omitempty"`
	Score *score.Score `json:"score,omitempty"`
	Mated bool         `json:"mated,omitempty"`
	Best  string       `json:"best,omitempty"`
	PV    []string     `json:"pv,omitempty"`
}

func recordingPath(name string) string { return filepath.Join("testdata", "searches", name+".json") }

// recordingMode is set when the recordings are being made.
func recordingMode() bool { return os.Getenv("OUTPOST_RECORD_SEARCHES") == "1" }

func loadRecording(t testing.TB, name string) *recording {
	t.Helper()
	b, err := os.ReadFile(recordingPath(name))
	if err != nil {
		t.Fatalf("recorded searches %s: %v (make them with OUTPOST_RECORD_SEARCHES=1)", name, err)
	}
	var r recording
	if err := json.Unmarshal(b, &r); err != nil {
		t.Fatalf("recorded searches %s: %v", name, err)
	}
	return &r
}

// replayEngine answers from a recording and fails on the first command
// that is not the recorded one.
type replayEngine struct {
	mu   sync.Mutex
	name string
	rec  *recording
	next int
}

func (e *replayEngine) NewGame(context.Context) error {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.next >= len(e.rec.Searches) || !e.rec.Searches[e.next].New {
		return fmt.Errorf("replay %s: command %d is ucinewgame, the recording's is %s", e.name, e.next, e.recorded())
	}
	e.next++
	return nil
}

func (e *replayEngine) recorded() string {
	if e.next >= len(e.rec.Searches) {
		return "the end"
	}
	s := e.rec.Searches[e.next]
	if s.New {
		return "ucinewgame"
	}
	return fmt.Sprintf("position %d at %d nodes", s.Moves, s.Limit)
}

func (e *replayEngine) Analyse(_ context.Context, pos uci.Position, lim uci.Limits) (*uci.Result, error) {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.next >= len(e.rec.Searches) || e.rec.Searches[e.next].New ||
		e.rec.Searches[e.next].Moves != len(pos.Moves) || e.rec.Searches[e.next].Limit != lim.Nodes {
		return nil, fmt.Errorf("replay %s: command %d is position %d at %d nodes, the recording's is %s", e.name, e.next, len(pos.Moves), lim.Nodes, e.recorded())
	}
	s := e.rec.Searches[e.next]
	e.next++
	info := uci.Info{Depth: s.Depth, MultiPV: 1, Nodes: s.Nodes, PV: s.PV, Mated: s.Mated}
	if s.Score != nil {
		info.Score, info.HasScore = *s.Score, true
	}
	res := &uci.Result{BestMove: s.Best, Lines: []uci.Info{info}, Nodes: s.Nodes}
	if s.Best == "" {
		return res, uci.ErrNoMove
	}
	return res, nil
}

func (e *replayEngine) Restart(context.Context) error { return errors.New("replay: no restart") }
func (e *replayEngine) Close() error                  { return nil }
func (e *replayEngine) ID() uci.ID                    { return uci.ID{Name: e.name} }

// done fails t unless the whole recording was replayed.
func (e *replayEngine) done(t testing.TB) {
	t.Helper()
	if e.next != len(e.rec.Searches) {
		t.Errorf("replay %s: %d of %d recorded commands used", e.name, e.next, len(e.rec.Searches))
	}
}

// recordEngine passes commands to a real engine and records them.
type recordEngine struct {
	analysis.Searcher
	mu  sync.Mutex
	rec *recording
}

func (e *recordEngine) NewGame(ctx context.Context) error {
	e.mu.Lock()
	e.rec.Searches = append(e.rec.Searches, recordedSearch{New: true})
	e.mu.Unlock()
	return e.Searcher.NewGame(ctx)
}

func (e *recordEngine) Analyse(ctx context.Context, pos uci.Position, lim uci.Limits) (*uci.Result, error) {
	res, err := e.Searcher.Analyse(ctx, pos, lim)
	if err != nil && !errors.Is(err, uci.ErrNoMove) {
		return res, err
	}
	s := recordedSearch{Moves: len(pos.Moves), Limit: lim.Nodes}
	if res != nil {
		s.Best, s.Nodes = res.BestMove, res.Nodes
		if b, ok := res.Best(); ok {
			s.Depth, s.PV, s.Mated = b.Depth, b.PV, b.Mated
			if b.HasScore {
				s.Score = new(b.Score)
			}
		}
	}
	e.mu.Lock()
	e.rec.Searches = append(e.rec.Searches, s)
	e.mu.Unlock()
	return res, err
}

// recordedPool returns a one-worker pool that replays the recording name
// (recorded with engine on game by method), or in recording mode runs the
// real engine and saves what it answered when the test ends. The replayer
// checks at cleanup that the whole recording was used.
func recordedPool(t *testing.T, name, engine, game, method string) *analysis.Pool {
	t.Helper()
	ctx := context.Background()
	if recordingMode() {
		needEngine(t, engine)
		rec := &recording{Engine: engine, Game: game, Method: method}
		p, err := analysis.NewPool(ctx, analysis.PoolConfig{Workers: 1, Factory: func(ctx context.Context, _ int) (analysis.Searcher, error) {
			s, err := analysis.StartEngine(ctx, analysis.EngineSpec{Command: []string{engine}}, zerolog.Nop())
			if err != nil {
				return nil, err
			}
			return &recordEngine{Searcher: s, rec: rec}, nil
		}})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() {
			p.Close()
			b, err := json.MarshalIndent(rec, "", " ")
			if err != nil {
				t.Fatal(err)
			}
			if err := os.MkdirAll(filepath.Dir(recordingPath(name)), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(recordingPath(name), append(b, '\n'), 0o644); err != nil {
				t.Fatal(err)
			}
		})
		return p
	}
	rec := loadRecording(t, name)
	if rec.Engine != engine || rec.Game != game || rec.Method != method {
		t.Fatalf("recording %s is of %s on %s (%s), want %s on %s (%s)", name, rec.Engine, rec.Game, rec.Method, engine, game, method)
	}
	e := &replayEngine{name: "replayed " + engine, rec: rec}
	p, err := analysis.NewPool(ctx, analysis.PoolConfig{Workers: 1, Factory: func(context.Context, int) (analysis.Searcher, error) { return e, nil }})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		p.Close()
		e.done(t)
	})
	return p
}

// recordings lists the recordings in testdata/searches.
func recordings(t *testing.T) []string {
	t.Helper()
	files, err := filepath.Glob(filepath.Join("testdata", "searches", "*.json"))
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, f := range files {
		names = append(names, filepath.Base(f[:len(f)-len(".json")]))
	}
	slices.Sort(names)
	return names
}

// sampledRecordings picks one recording of each kind — the same engine,
// method and name once the game is taken out (detect-GAME-3-sf16: period 3
// on any game) — the kinds' members taken in turn, so that every game is
// in the sample when there are as many kinds as games. names is sorted.
func sampledRecordings(t *testing.T, names []string) []string {
	t.Helper()
	var kinds []string
	members := map[string][]string{}
	for _, name := range names {
		rec := loadRecording(t, name)
		kind := rec.Engine + " " + rec.Method + " " + strings.Replace(name, strings.TrimSuffix(rec.Game, ".pgn"), "", 1)
		if members[kind] == nil {
			kinds = append(kinds, kind)
		}
		members[kind] = append(members[kind], name)
	}
	var out []string
	for i, kind := range kinds {
		m := members[kind]
		out = append(out, m[i%len(m)])
	}
	return out
}

// TestRecordedSearchesAreTheEngines replays two searches of one recording
// of each kind (sampledRecordings: each engine and method, each period of
// the detection tests) on the real engine it names, with the commands that
// preceded them since ucinewgame, and checks the engine answers the same
// depth, nodes, score, best move and line: the recordings are the engines'
// own output, so the tests that replay them test the method with the real
// engines' answers. One of a kind is enough for that: the recordings of a
// kind were made by the same engine binary and the same code, so a changed
// engine build or a stale recording of that method shows in any of them;
// checking all 21 cost 93 s of engine time a run (issue 40), the sample 6
// of them. OUTPOST_CHECK_ALL_RECORDINGS=1 checks every recording.
func TestRecordedSearchesAreTheEngines(t *testing.T) {
	if testing.Short() {
		t.Skip("short mode: runs real engines (2 searches of 0.86–1.5M nodes a recording)")
	}
	names := recordings(t)
	if os.Getenv("OUTPOST_CHECK_ALL_RECORDINGS") != "1" {
		names = sampledRecordings(t, names)
	}
	for _, name := range names {
		t.Run(name, func(t *testing.T) {
			rec := loadRecording(t, name)
			needEngine(t, rec.Engine)
			g := sharedGame(t, rec.Game)
			ctx := t.Context() // the searches are bounded by nodes; go test -timeout bounds the rest
			eng, err := analysis.StartEngine(ctx, analysis.EngineSpec{Command: []string{rec.Engine}}, zerolog.Nop())
			if err != nil {
				t.Fatal(err)
			}
			defer eng.Close()
			var blocks [][]recordedSearch
			for _, s := range rec.Searches {
				switch {
				case s.New:
					blocks = append(blocks, nil)
				case len(blocks) == 0:
					t.Fatal("the recording does not start with ucinewgame")
				default:
					blocks[len(blocks)-1] = append(blocks[len(blocks)-1], s)
				}
			}
			// two searches: the first two after the second ucinewgame (for a
			// chunked method the warm-up and the chunk's last position, whose
			// search starts from the warm-up's hash), or when a block holds
			// one search (a fresh hash per position), the first search of
			// the second and of the last block
			var sample [][]recordedSearch
			b := blocks[min(1, len(blocks)-1)]
			if len(b) >= 2 {
				sample = [][]recordedSearch{b[:2]}
			} else {
				sample = [][]recordedSearch{b, blocks[len(blocks)-1]}
			}
			for _, ss := range sample {
				if err := eng.NewGame(ctx); err != nil {
					t.Fatal(err)
				}
				for _, s := range ss {
					checkRecorded(t, ctx, eng, g, s)
				}
			}
		})
	}
}

// checkRecorded searches one recorded position on the real engine and
// compares the answers.
func checkRecorded(t *testing.T, ctx context.Context, eng analysis.Searcher, g *analysis.Game, s recordedSearch) {
	t.Helper()
	moves := make([]string, s.Moves)
	for i := range moves {
		moves[i] = g.Moves[i].UCI
	}
	res, err := eng.Analyse(ctx, uci.Position{FEN: g.StartFEN, Moves: moves, Chess960: g.Chess960()}, uci.Limits{Nodes: s.Limit})
	if err != nil && !errors.Is(err, uci.ErrNoMove) {
		t.Fatal(err)
	}
	b, _ := res.Best()
	same := b.Depth == s.Depth && res.Nodes == s.Nodes && res.BestMove == s.Best && slices.Equal(b.PV, s.PV) &&
		b.Mated == s.Mated && (s.Score == nil) == !b.HasScore && (s.Score == nil || *s.Score == b.Score)
	if !same {
		t.Errorf("position %d at %d nodes: the engine answers depth %d nodes %d score %v best %s, the recording depth %d nodes %d score %v best %s",
			s.Moves, s.Limit, b.Depth, res.Nodes, b.Score, res.BestMove, s.Depth, s.Nodes, s.Score, s.Best)
	}
}
