package ucifront

import (
	"bufio"
	"context"
	"errors"
	"io"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/outpostchess/outpost/bots"
	"github.com/outpostchess/outpost/bots/board"
	"github.com/outpostchess/outpost/bots/engine"
	"github.com/outpostchess/outpost/bots/score"
	"github.com/outpostchess/outpost/bots/uci"
	"github.com/outpostchess/outpost/internal/testkit"
)

// testEngine plays the first legal move. With Infinite limits it waits for
// the context; it records options and new games.
type testEngine struct {
	mu       sync.Mutex
	options  map[string]string
	newGames int
	lastLim  engine.Limits
	lastPos  engine.Position
	calls    int
}

func (e *testEngine) SelectMove(ctx context.Context, pos engine.Position, lim engine.Limits) (engine.Move, error) {
	e.mu.Lock()
	e.lastLim = lim
	e.lastPos = pos
	e.calls++
	e.mu.Unlock()
	g, err := pos.Board()
	if err != nil {
		return engine.Move{}, err
	}
	ms := bots.LegalMoves(g)
	if lim.Infinite {
		<-ctx.Done()
	}
	pv := []string{ms[0]}
	if m, ok := g.FindUCI(ms[0]); ok {
		next := g.Clone()
		next.Make(m)
		if rest := bots.LegalMoves(next); len(rest) > 0 {
			pv = append(pv, rest[0])
		}
	}
	return engine.Move{UCI: ms[0], Score: score.CP(17), HasScore: true, Depth: 4, Nodes: 1234, PV: pv}, nil
}
func (e *testEngine) Name() string { return "tester" }
func (e *testEngine) Close() error { return nil }
func (e *testEngine) Configure(o map[string]string) error {
	e.mu.Lock()
	defer e.mu.Unlock()
	for k, v := range o {
		if k == "Bad" {
			return errors.New("bad option")
		}
		e.options[k] = v
	}
	return nil
}
func (e *testEngine) NewGame(context.Context) error {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.newGames++
	return nil
}

// gui drives Serve through pipes the way a chess GUI would.
type gui struct {
	t     *testing.T
	in    *io.PipeWriter
	lines chan string
	done  chan error
}

func newGUI(t *testing.T, eng engine.Engine, cfg Config) *gui {
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	g := &gui{t: t, in: inW, lines: make(chan string, 100), done: make(chan error, 1)}
	go func() {
		err := Serve(context.Background(), inR, outW, eng, cfg)
		outW.Close()
		g.done <- err
	}()
	go func() {
		sc := bufio.NewScanner(outR)
		for sc.Scan() {
			g.lines <- sc.Text()
		}
		close(g.lines)
	}()
	t.Cleanup(func() { inW.Close() })
	return g
}

func (g *gui) send(line string) {
	g.t.Helper()
	if _, err := io.WriteString(g.in, line+"\n"); err != nil {
		g.t.Fatalf("send %q: %v", line, err)
	}
}

// expect reads lines until one starts with prefix, returning it and the
// lines skipped.
func (g *gui) expect(prefix string) (string, []string) {
	g.t.Helper()
	var skipped []string
	timeout := time.After(5 * time.Second)
	for {
		select {
		case l, ok := <-g.lines:
			if !ok {
				g.t.Fatalf("output ended waiting for %q (saw %q)", prefix, skipped)
			}
			if strings.HasPrefix(l, prefix) {
				return l, skipped
			}
			skipped = append(skipped, l)
		case <-timeout:
			g.t.Fatalf("timed out waiting for %q (saw %q)", prefix, skipped)
		}
	}
}

// bestmove reads up to the next bestmove line and reports it, saying
// when, unless it is want.
func (g *gui) bestmove(want, when string) {
	g.t.Helper()
	if best, _ := g.expect("bestmove"); best != want {
		g.t.Errorf("%s: %q", when, best)
	}
}

// info reads up to the next "info string" line and reports it, as the
// reply to what, unless it contains want.
func (g *gui) info(want, what string) {
	g.t.Helper()
	if l, _ := g.expect("info string"); !strings.Contains(l, want) {
		g.t.Errorf("%s %q", what, l)
	}
}

// quiet asserts nothing is printed for d.
func (g *gui) quiet(d time.Duration) {
	g.t.Helper()
	select {
	case l := <-g.lines:
		g.t.Fatalf("unexpected output %q", l)
	case <-time.After(d):
	}
}

func TestServeSession(t *testing.T) {
	eng := &testEngine{options: map[string]string{}}
	g := newGUI(t, eng, Config{Author: "Us", MoveOverhead: 30 * time.Millisecond,
		Options: []uci.OptionSpec{{Name: "Hash", Type: uci.OptionSpin, Default: "16", Min: 1, Max: 256}}})

	g.send("uci")
	ok, before := g.expect("uciok")
	want := []string{"id name tester", "id author Us", "option name Hash type spin default 16 min 1 max 256",
		"option name UCI_Chess960 type check default false"}
	if ok != "uciok" || strings.Join(before, "|") != strings.Join(want, "|") {
		t.Errorf("uci reply %q", before)
	}
	g.send("setoption name Hash value 32")
	g.send("setoption name Bad value 1")
	g.info("bad option", "bad option reply")
	g.send("isready")
	g.expect("readyok")
	g.send("ucinewgame")
	g.send("position startpos moves e2e4 e7e5")
	g.send("go wtime 60000 btime 60000 winc 1000 binc 1000")
	best, skipped := g.expect("bestmove")
	if best != "bestmove a2a3 ponder a7a5" {
		t.Errorf("bestmove line %q", best)
	}
	if len(skipped) != 1 || !strings.HasPrefix(skipped[0], "info depth 4 score cp 17 nodes 1234") || !strings.Contains(skipped[0], " pv a2a3 a7a5") {
		t.Errorf("info lines %q", skipped)
	}
	eng.mu.Lock()
	if eng.options["Hash"] != "32" || eng.newGames != 1 || eng.lastLim.WTime != time.Minute || eng.lastLim.MoveOverhead != 30*time.Millisecond {
		t.Errorf("engine state: %+v", eng)
	}
	eng.mu.Unlock()

	// Infinite: no bestmove before stop, isready answered during the search.
	g.send("position fen 8/8/8/8/8/8/8/K6k w - - 0 1")
	g.send("go infinite")
	g.quiet(100 * time.Millisecond)
	g.send("isready")
	g.expect("readyok")
	g.send("stop")
	g.bestmove("bestmove a1a2 ponder h1g1", "after stop")

	// A refused position is not replaced by the previous one: go searches
	// nothing until a position is taken (it searched the previous one).
	g.send("position startpos moves e2e5")
	g.info("is not legal", "illegal move reply")
	g.send("flibbertigibbet")
	g.expect("info string")
	g.send("go depth 1")
	g.info("the last position command was refused", "go after a refused position")
	g.bestmove("bestmove (none)", "after bad position")
	g.send("position fen 8/8/8/8/8/8/8/K6k w - - 0 1")
	g.send("go depth 1")
	g.bestmove("bestmove a1a2 ponder h1g1", "after a good position again")

	// Ponder: held until ponderhit restarts with the real limits.
	g.send("go ponder movetime 50")
	g.quiet(80 * time.Millisecond)
	g.send("ponderhit")
	g.expect("bestmove")
	eng.mu.Lock()
	if eng.lastLim.MoveTime != 50*time.Millisecond || eng.lastLim.Infinite {
		t.Errorf("after ponderhit limits %+v", eng.lastLim)
	}
	eng.mu.Unlock()

	// Checkmated side to move.
	g.send("position startpos moves f2f3 e7e5 g2g4 d8h4")
	g.send("go depth 3")
	g.bestmove("bestmove (none)", "mated")

	g.send("go infinite")
	g.send("quit")
	select {
	case err := <-g.done:
		if err != nil {
			t.Errorf("Serve returned %v", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("Serve did not return after quit")
	}
}

func TestServeEOFFinishesSearch(t *testing.T) {
	var out strings.Builder
	in := strings.NewReader("position startpos\ngo depth 2\n")
	if err := Serve(context.Background(), in, &out, &testEngine{options: map[string]string{}}, Config{}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), "bestmove a2a3") {
		t.Errorf("output %q", out.String())
	}
}

func TestServeContextCancel(t *testing.T) {
	inR, inW := io.Pipe()
	defer inW.Close()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	var out testkit.SyncBuffer
	go func() { done <- Serve(ctx, inR, &out, &testEngine{options: map[string]string{}}, Config{}) }()
	io.WriteString(inW, "go infinite\n")
	time.Sleep(50 * time.Millisecond)
	cancel()
	select {
	case err := <-done:
		if !errors.Is(err, context.Canceled) {
			t.Errorf("Serve = %v", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("Serve ignored ctx")
	}
}

func TestServeRealEngine(t *testing.T) {
	e, err := bots.New(context.Background(), "medium")
	if err != nil {
		t.Skip(err)
	}
	defer e.Close()
	var out strings.Builder
	in := strings.NewReader("uci\nisready\nposition startpos moves e2e4\ngo depth 2\n")
	if err := Serve(context.Background(), in, &out, e, Config{}); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	last := lines[len(lines)-1]
	g, _ := engine.Position{Moves: []string{"e2e4"}}.Board()
	if f := strings.Fields(last); len(f) < 2 || f[0] != "bestmove" || !legal(g, f[1]) {
		t.Errorf("medium over UCI: %q", out.String())
	}
}

// TestServeRefusedFenSearchesNothing: a position fen refused as the first
// position (bad syntax, or a position no game reaches) leaves go nothing
// to search; it searched the start position before.
func TestServeRefusedFenSearchesNothing(t *testing.T) {
	for _, fen := range []string{"garbage", "8/8/8/8/8/8/8/8 w - - 0 1", "4k3/8/8/8/8/8/8/4K2R w Qk - 0 1"} {
		var out strings.Builder
		in := strings.NewReader("position fen " + fen + "\ngo depth 2\n")
		if err := Serve(context.Background(), in, &out, &testEngine{options: map[string]string{}}, Config{}); err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(out.String(), "bestmove (none)") || strings.Contains(out.String(), "bestmove a2a3") ||
			!strings.Contains(out.String(), "the last position command was refused") {
			t.Errorf("fen %q: output %q", fen, out.String())
		}
	}
}

// TestServeRefusesOverlongLine: a command line past maxLine ends Serve with
// an error saying so, after the commands before it were answered (before,
// the scanner's error was dropped: `outpost uci` exited 0 as on a clean end
// of input).
func TestServeRefusesOverlongLine(t *testing.T) {
	in := strings.NewReader("uci\nposition startpos moves " + strings.Repeat("e2e4 ", maxLine/5+1) + "\nisready\n")
	var out strings.Builder
	err := Serve(context.Background(), in, &out, &testEngine{options: map[string]string{}}, Config{})
	if err == nil || !strings.Contains(err.Error(), "longer than 1048576 bytes") {
		t.Errorf("err = %v", err)
	}
	if !strings.Contains(out.String(), "uciok") {
		t.Errorf("the commands before were not answered: %q", out.String())
	}
}

// legal reports whether move (UCI) is legal on b.
func legal(b *board.Board, move string) bool {
	_, ok := b.FindUCI(move)
	return ok
}

// standardOnly is a testEngine that plays no Chess960 (as Maia).
type standardOnly struct{ testEngine }

func (*standardOnly) Variants() []string { return []string{"standard", "fromPosition"} }

// TestServeChess960: UCI_Chess960 is announced for engines that play
// Chess960 and switches the front-end's positions to Chess960 (X-FEN and
// Shredder-FEN castling, king-takes-rook moves); the engine gets
// Position.Chess960. Found in the manual trial of session 10: a GUI's
// "setoption name UCI_Chess960 value true" was refused ("takes no
// options") and every Chess960 start was an illegal position, so
// `outpost uci` answered "bestmove (none)".
func TestServeChess960(t *testing.T) {
	const start = "bnrbnkqr/pppppppp/8/8/8/8/PPPPPPPP/BNRBNKQR w KQkq - 0 1"
	eng := &testEngine{options: map[string]string{}}
	g := newGUI(t, eng, Config{Options: []uci.OptionSpec{{Name: "UCI_Chess960", Type: uci.OptionCheck, Default: "false"}}})
	g.send("uci")
	_, before := g.expect("uciok")
	if n := strings.Count(strings.Join(before, "\n"), "UCI_Chess960"); n != 1 {
		t.Errorf("UCI_Chess960 announced %d times: %q", n, before)
	}
	g.send("position fen " + start)
	g.info("castling right 'K'", "a Chess960 start in standard mode")
	g.send("setoption name UCI_Chess960 value maybe")
	g.info("UCI_Chess960", "a bad check value")
	g.send("setoption name UCI_Chess960 value true")
	g.send("position fen " + start + " moves g2g3 g7g6 g1g2 g8g7 e1d3 e8d6")
	g.send("go depth 1")
	if best, skipped := g.expect("bestmove"); best == "bestmove (none)" {
		t.Fatalf("no move in Chess960: %q", skipped)
	}
	eng.mu.Lock()
	if !eng.lastPos.Chess960 || eng.lastPos.StartFEN != start || len(eng.lastPos.Moves) != 6 {
		t.Errorf("position given to the engine: %+v", eng.lastPos)
	}
	if _, ok := eng.options["UCI_Chess960"]; ok {
		t.Errorf("UCI_Chess960 reached the engine's Configure: %v", eng.options)
	}
	eng.mu.Unlock()
	// Castling as king takes rook (king f1, rook h1, g1 and the squares
	// between now empty): legal in Chess960 mode.
	g.send("position fen " + start + " moves g2g3 g7g6 g1g2 g8g7 f1h1")
	g.send("isready")
	if l, skipped := g.expect("readyok"); len(skipped) != 0 {
		t.Errorf("castling refused: %q before %q", skipped, l)
	}
	g.send("setoption name UCI_Chess960 value false")
	g.send("position fen " + start)
	g.info("castling right 'K'", "standard mode again")

	// An engine that plays no Chess960 neither announces nor takes it.
	g2 := newGUI(t, &standardOnly{testEngine{options: map[string]string{}}}, Config{})
	g2.send("uci")
	if _, before := g2.expect("uciok"); strings.Contains(strings.Join(before, "\n"), "UCI_Chess960") {
		t.Errorf("announced for a standard-only engine: %q", before)
	}
	g2.send("setoption name UCI_Chess960 value true")
	g2.info("Chess960", "UCI_Chess960 on a standard-only engine")
}
