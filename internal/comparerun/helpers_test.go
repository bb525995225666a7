package comparerun

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/outpostchess/outpost/analysis"
	"github.com/outpostchess/outpost/analysis/replay"
	"github.com/outpostchess/outpost/bots/score"
	"github.com/outpostchess/outpost/bots/uci"
	"github.com/outpostchess/outpost/internal/sandbox"
	"github.com/outpostchess/outpost/internal/sandbox/fishnet"
	"github.com/outpostchess/outpost/lichess"
)

const (
	tokAlice = "alice-token-1"
	tokBot   = "bot-token-1"
)

// world is a sandbox on loopback with a human (Alice, Board API) and a bot
// (bot1), and a token-less client for the public exports.
type world struct {
	srv                *sandbox.Server
	url                string
	alice, bot, public *lichess.Client
	clock              *lichess.ManualClock
}

func newWorld(t *testing.T) *world {
	t.Helper()
	// The sandbox's injected clock starts an hour before the wall clock
	// (games in the past of every run) and moves only when the test
	// advances it, so games created one after another get the creation
	// times the test chooses, however fast or slow the machine.
	clock := lichess.NewManualClock(time.Now().Add(-time.Hour))
	srv := sandbox.New(sandbox.Config{Accounts: []sandbox.Account{
		{Name: "Alice", Token: tokAlice, Rating: 1600},
		{Name: "bot1", Token: tokBot, Bot: true},
	}, Now: clock.Now})
	ctx, cancel := context.WithCancel(context.Background())
	url, err := srv.Listen(ctx, "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cancel(); srv.Close() })
	mk := func(tok string) *lichess.Client {
		c, err := lichess.New(lichess.Options{BaseURL: url, Token: lichess.Token(tok), StreamTimeout: 2 * time.Second, ReconnectMin: -1, RetryMax: -1})
		if err != nil {
			t.Fatal(err)
		}
		return c
	}
	return &world{srv: srv, url: url, alice: mk(tokAlice), bot: mk(tokBot), public: mk(""), clock: clock}
}

// play has Alice (White) and bot1 (Black) play the moves; then the side
// named by resign ("white", "black") resigns unless the game is over.
func (w *world) play(t *testing.T, moves []string, resign string) string {
	t.Helper()
	ctx := context.Background()
	ch, err := w.alice.CreateChallenge(ctx, "bot1", lichess.ChallengeParams{Clock: &lichess.ChallengeClock{Limit: 600}, Color: lichess.White})
	if err != nil {
		t.Fatal(err)
	}
	if err := w.bot.AcceptChallenge(ctx, ch.ID, ""); err != nil {
		t.Fatal(err)
	}
	for i, m := range moves {
		api := w.alice.Board()
		if i%2 == 1 {
			api = w.bot.Bot()
		}
		if err := api.Move(ctx, ch.ID, m, false); err != nil {
			t.Fatalf("ply %d %s: %v", i+1, m, err)
		}
	}
	if g, _ := w.srv.Game(ch.ID); !g.Over() {
		api := w.alice.Board()
		if resign == "black" {
			api = w.bot.Bot()
		}
		if err := api.Resign(ctx, ch.ID); err != nil {
			t.Fatal(err)
		}
	}
	return ch.ID
}

// synthetic is a game with a made-up Lichess analysis that follows
// Lichess's rules: evals (White POV cp) per ply and the engine's best move
// where it differs from the move played.
type synthetic struct {
	moves  []string // UCI
	evals  []int
	best   map[int]string // 0-based ply -> best UCI
	resign string
}

// syntheticGames are short games whose analyses flag a few moves.
var syntheticGames = []synthetic{
	{ // Fried Liver: Black's 4...d5 5.exd5 Nxd5?? 6.Nxf7 ...
		moves:  []string{"e2e4", "e7e5", "g1f3", "b8c6", "f1c4", "g8f6", "f3g5", "d7d5", "e4d5", "f6d5", "g5f7", "e8f7", "d1f3", "f7e6", "b1c3", "c6b4"},
		evals:  []int{30, 25, 30, 28, 25, 40, 35, 40, 38, 160, 150, 170, 165, 280, 270, 420},
		best:   map[int]string{5: "f8c5", 9: "c6a5", 13: "f7g8", 15: "c6e7"},
		resign: "black",
	},
	{ // a quiet game with a White blunder at the end
		moves:  []string{"d2d4", "d7d5", "c2c4", "e7e6", "b1c3", "g8f6", "c1g5", "f8e7", "e2e3", "e8g8", "g1f3", "b8d7", "a1c1", "c7c6", "f1d3", "d5c4", "d3c4", "f6d5", "g5e7", "d8e7", "c3e4"},
		evals:  []int{20, 25, 30, 28, 30, 26, 35, 30, 28, 30, 32, 30, 28, 30, 25, 30, 28, 30, 25, 26, -60},
		best:   map[int]string{20: "e1g1", 15: "h7h6"},
		resign: "white",
	},
	{ // a quick mate: 1.f3 e5 2.g4?? Qh4#
		moves: []string{"f2f3", "e7e5", "g2g4", "d8h4"},
		evals: []int{0, 10, 0, 0}, // the g4 entry becomes #-1
		best:  map[int]string{2: "e2e4"},
	},
}

// lichessAnalysis builds the game's Lichess-style analysis with our own
// implementation of Lichess's rules (so judgements, comments, ACPL and
// accuracy are consistent with the evals).
func (s synthetic) lichessAnalysis(t *testing.T) (*analysis.Analysis, sandbox.Analysis) {
	t.Helper()
	b, err := replay.New("")
	if err != nil {
		t.Fatal(err)
	}
	g := &analysis.Game{ID: "synthetic"}
	var boards []*replay.Board
	for _, u := range s.moves {
		m, err := b.ParseUCI(u)
		if err != nil {
			t.Fatal(err)
		}
		boards = append(boards, b)
		g.Moves = append(g.Moves, analysis.Move{SAN: m.SAN, UCI: m.UCI})
		b = b.Play(m)
	}
	mated := b.Checkmate()
	pe := make([]analysis.PlyEval, len(s.moves))
	for i := range s.moves {
		if !(mated && i == len(s.moves)-1) {
			e := score.CP(s.evals[i])
			pe[i].Eval = &e
		}
		pe[i].Gate = analysis.GateClosed
		if best, ok := s.best[i]; ok {
			pe[i].Gate = analysis.GateOpen
			pe[i].BestUCI = best
			pe[i].Variation = boards[i].LineSAN([]string{best}, 12)
			pe[i].BestSAN = pe[i].Variation[0]
		}
	}
	if mated {
		// the mating move leaves no eval; the move before it created the mate
		e := score.Mate(-1)
		pe[len(pe)-2].Eval = &e
	}
	a, err := analysis.Build(g, pe, "lichess")
	if err != nil {
		t.Fatal(err)
	}
	return a, fishnet.Convert(a)
}

// playSynthetic plays the synthetic games in the sandbox, attaches their
// analyses and returns the game ids (in play order).
func (w *world) playSynthetic(t *testing.T, games []synthetic) []string {
	t.Helper()
	var ids []string
	for _, s := range games {
		id := w.play(t, s.moves, s.resign)
		_, sa := s.lichessAnalysis(t)
		if err := w.srv.AttachAnalysis(id, sa); err != nil {
			t.Fatal(err)
		}
		ids = append(ids, id)
		w.clock.Advance(10 * time.Millisecond) // distinct creation times: a stable newest-first order
	}
	return ids
}

// oracle is a fake engine answering from the Lichess analysis of known
// games: the eval Lichess gave the position and, before a flagged move,
// Lichess's best move (else the move played). scale multiplies the cp
// evals (1: Lichess's own, so every judgement agrees). The games share the
// start position, whose answer is the last game's: their first moves must
// not be flagged.
type oracle struct {
	mu    sync.Mutex
	pos   map[string]oracleAnswer
	calls []string
	// hook runs before each search (e.g. to cancel the run).
	hook func(n int)
}

type oracleAnswer struct {
	eval score.Score // White POV
	best string
}

func newOracle(t *testing.T, games []*analysis.Game, scale float64) *oracle {
	t.Helper()
	o := &oracle{pos: map[string]oracleAnswer{}}
	for _, g := range games {
		if g.Lichess == nil {
			t.Fatalf("game %s has no Lichess analysis", g.Key())
		}
		var ucis []string
		for k := 0; k <= len(g.Moves); k++ {
			ans := oracleAnswer{eval: analysis.InitialEval}
			if k > 0 {
				if e := g.Lichess.Plies[k-1].Eval; e != nil {
					ans.eval = *e
				}
			}
			if !ans.eval.IsMate() {
				ans.eval.CP = int(float64(ans.eval.CP) * scale)
			}
			if k < len(g.Moves) {
				ans.best = g.Moves[k].UCI
				if b := g.Lichess.Plies[k].BestUCI; b != "" {
					ans.best = b
				}
			}
			o.pos[g.StartFEN+"|"+strings.Join(ucis, " ")] = ans
			if k < len(g.Moves) {
				ucis = append(ucis, g.Moves[k].UCI)
			}
		}
	}
	return o
}

func (o *oracle) factory() analysis.EngineFactory {
	return func(context.Context, int) (analysis.Searcher, error) { return &oracleEngine{o: o}, nil }
}

func (o *oracle) searched() []string {
	o.mu.Lock()
	defer o.mu.Unlock()
	return append([]string(nil), o.calls...)
}

type oracleEngine struct{ o *oracle }

func (e *oracleEngine) Analyse(ctx context.Context, pos uci.Position, _ uci.Limits) (*uci.Result, error) {
	key := pos.FEN + "|" + strings.Join(pos.Moves, " ")
	e.o.mu.Lock()
	e.o.calls = append(e.o.calls, key)
	n := len(e.o.calls)
	ans, ok := e.o.pos[key]
	hook := e.o.hook
	e.o.mu.Unlock()
	if hook != nil {
		hook(n)
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if !ok {
		return nil, fmt.Errorf("oracle: unknown position %q", key)
	}
	ev := ans.eval
	if len(pos.Moves)%2 == 1 { // Black to move: side-to-move POV
		ev = ev.Negate()
	}
	sc := score.CP(ev.CP)
	if ev.IsMate() {
		sc = score.Mate(ev.Mate)
	}
	res := &uci.Result{BestMove: ans.best, Lines: []uci.Info{{Depth: 10, HasScore: true, Score: sc, Nodes: 1000}}, Nodes: 1000}
	if ans.best != "" {
		res.Lines[0].PV = []string{ans.best}
	}
	return res, nil
}

func (e *oracleEngine) NewGame(context.Context) error { return nil }
func (e *oracleEngine) Restart(context.Context) error { return nil }
func (e *oracleEngine) Close() error                  { return nil }

// openStore returns an empty run store.
func openStore(t *testing.T) *memRunStore {
	t.Helper()
	return newMemRunStore()
}

// sharedDir returns ../shared/lichess-games or skips.
func sharedDir(t *testing.T) string {
	t.Helper()
	dir := filepath.Join("..", "..", "..", "shared", "lichess-games")
	if _, err := os.Stat(dir); err != nil {
		t.Skipf("shared games not available: %v", err)
	}
	return dir
}

func bytesReader(b []byte) *strings.Reader { return strings.NewReader(string(b)) }
