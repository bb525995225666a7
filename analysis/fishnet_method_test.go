package analysis

import (
	"bufio"
	"fmt"
	"io"
	"os/exec"
	"strconv"
	"strings"
	"testing"

	"github.com/outpostchess/outpost/bots/enginepath"
	"github.com/outpostchess/outpost/bots/uci"
	"github.com/outpostchess/outpost/internal/testkit"
)

// rawSearch is what Stockfish printed for one search of a raw UCI session:
// the last info line with a score, and the best move.
type rawSearch struct {
	depth int
	nodes int64
	cp    int // side to move; mate scores are written as ±(100000 − plies)
	best  string
}

// fishnetSession drives Stockfish directly with the commands fishnet sends
// (src/stockfish.rs, StockfishActor::init and go): UCI_Chess960 true once;
// then per position MultiPV 1, the position, "go nodes N" — after one
// ucinewgame for the whole chunk (2.8 and later: the warm-up position,
// then the chunk's positions from the last to the first), or after a
// ucinewgame before every position (fresh, as 2.6.x did). It returns
// Stockfish's own output per search, in the order searched.
func fishnetSession(t *testing.T, bin string, positions [][]string, nodes int64, fresh bool) []rawSearch {
	t.Helper()
	ctx := t.Context() // the searches are bounded by nodes; go test -timeout bounds the rest
	cmd := exec.CommandContext(ctx, bin)
	in, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { _ = cmd.Wait() }()
	defer in.Close()
	sc := bufio.NewScanner(out)
	sc.Buffer(make([]byte, 0, 64*1024), 1<<20)
	send := func(s string) {
		if _, err := io.WriteString(in, s+"\n"); err != nil {
			t.Fatal(err)
		}
	}
	send("uci")
	send("setoption name UCI_Chess960 value true")
	send("ucinewgame")
	var res []rawSearch
	for i, moves := range positions {
		if fresh && i > 0 {
			send("ucinewgame")
		}
		send("setoption name MultiPV value 1")
		send("position startpos moves " + strings.Join(chess960Castling(moves), " "))
		send(fmt.Sprintf("go nodes %d", nodes))
		res = append(res, readSearch(t, sc))
	}
	send("quit")
	return res
}

// chess960Castling writes a standard game's castling moves as fishnet does
// with UCI_Chess960 on (shakmaty's Chess960 castling mode): the king takes
// its rook, e1g1 → e1h1, e8c8 → e8a8. A king move from e1 or e8 before the
// king has moved is castling when it goes two files.
func chess960Castling(moves []string) []string {
	out := make([]string, len(moves))
	moved := map[byte]bool{}
	for i, m := range moves {
		out[i] = m
		for _, rank := range []byte{'1', '8'} {
			from := "e" + string(rank)
			if moved[rank] || !strings.HasPrefix(m, from) {
				continue
			}
			moved[rank] = true
			switch m[2:] {
			case "g" + string(rank):
				out[i] = from + "h" + string(rank)
			case "c" + string(rank):
				out[i] = from + "a" + string(rank)
			}
		}
	}
	return out
}

// readSearch reads one search's output up to bestmove.
func readSearch(t *testing.T, sc *bufio.Scanner) rawSearch {
	t.Helper()
	var r rawSearch
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		if len(f) >= 2 && f[0] == "bestmove" {
			r.best = f[1]
			return r
		}
		if len(f) == 0 || f[0] != "info" || !strings.Contains(sc.Text(), " score ") {
			continue
		}
		for i := 1; i+1 < len(f); i++ {
			switch f[i] {
			case "depth":
				r.depth, _ = strconv.Atoi(f[i+1])
			case "nodes":
				r.nodes, _ = strconv.ParseInt(f[i+1], 10, 64)
			case "score":
				v, _ := strconv.Atoi(f[i+2])
				if f[i+1] == "mate" {
					v = 100000 - v
				}
				r.cp = v
			}
		}
	}
	t.Fatalf("no bestmove: %v", sc.Err())
	return r
}

// chunkFirst is the first position of TestChunkMethodIsFishnets's chunk
// (it searched 88 to 92 until issue 40: 74 s of engine time a run, now
// two thirds of it; the three positions still show the order and the warm-up's hash).
const chunkFirst = 90

// TestChunkMethodIsFishnets: for fishnet 2.8's method with Stockfish 16
// and for Stockfish 17.1 and 18 (fishnet 2.9.5, 2.13.0), periods with no
// game with Lichess's analysis here, the lichess-sf16-2.8, lichess-sf17.1
// and lichess-sf18 presets give exactly what the engine itself prints when
// driven with fishnet's commands: one chunk of the lila fixture (one
// ucinewgame, the warm-up search of position 93, then positions 92 to 90:
// three, enough to show the order, at a fifth of the engine time of
// fishnet's 20-position chunks),
// at "go nodes 1250000" (2.8.2: 1.5M × 5/6) or "go nodes 857142" (1M ×
// 6/7) — the same depth, nodes, score and best move for every position.
// With a chunk not searched backwards, without the warm-up or at other
// nodes they differ (the hash state changes the search).
func TestChunkMethodIsFishnets(t *testing.T) {
	if testing.Short() {
		t.Skip("short mode: 16 searches of 857,142 nodes and 8 of 1,250,000")
	}
	moves := strings.Fields(lilaFixture1)
	for _, preset := range []string{"lichess-sf16-2.8", "lichess-sf17.1", "lichess-sf18"} {
		t.Run(preset, func(t *testing.T) {
			b := Presets[preset]
			testkit.AwaitEngine(t, b.Engine)
			bin, err := enginepath.Locator{}.Native(b.Engine)
			if err != nil {
				t.Fatal(err)
			}
			if bin == "" {
				t.Skipf("no %s build (outpost engines install %s)", b.Engine, b.Engine)
			}
			lim := b.FishnetLimits()
			var raw [][]string
			raw = append(raw, moves[:93])
			for k := 92; k >= chunkFirst; k-- {
				raw = append(raw, moves[:k])
			}
			want := fishnetSession(t, bin, raw, lim.Nodes, false)[1:] // the warm-up's result is discarded

			ctx := t.Context() // the searches are bounded by nodes; go test -timeout bounds the rest
			p, err := NewPool(ctx, PoolConfig{Command: []string{b.Engine}, Workers: 1})
			if err != nil {
				t.Fatal(err)
			}
			defer p.Close()
			job := func(k int) Job { return Job{Pos: uci.Position{Moves: moves[:k]}, WhiteToMove: k%2 == 0, Limits: lim} }
			c := Chunk{Warmup: new(job(93))}
			for k := chunkFirst; k <= 92; k++ {
				c.Jobs = append(c.Jobs, job(k))
			}
			got, err := p.SearchChunk(ctx, c)
			if err != nil {
				t.Fatal(err)
			}
			for i, w := range want {
				k := 92 - i
				checkRaw(t, k, got[k-chunkFirst], w)
			}
		})
	}
}

// TestFreshMethodIsFishnets: lichess-sf16 (fishnet 2.7.x: every position
// after its own ucinewgame) gives exactly what Stockfish 16 prints when
// driven with fishnet's commands, for three positions of the lila fixture
// searched in any order: the same depth, nodes, score and best move.
func TestFreshMethodIsFishnets(t *testing.T) {
	if testing.Short() {
		t.Skip("short mode: 6 searches of 1.5M nodes")
	}
	b := Presets["lichess-sf16"]
	testkit.AwaitEngine(t, b.Engine)
	bin, err := enginepath.Locator{}.Native(b.Engine)
	if err != nil {
		t.Fatal(err)
	}
	if bin == "" {
		t.Skipf("no %s build (outpost engines install %s)", b.Engine, b.Engine)
	}
	moves := strings.Fields(lilaFixture1)
	lim := b.FishnetLimits()
	ks := []int{92, 90, 91} // not in the game's order
	var raw [][]string
	for _, k := range ks {
		raw = append(raw, moves[:k])
	}
	want := fishnetSession(t, bin, raw, lim.Nodes, true)

	ctx := t.Context() // the searches are bounded by nodes; go test -timeout bounds the rest
	p, err := NewPool(ctx, PoolConfig{Command: []string{b.Engine}, Workers: 1})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	var jobs []Job
	for k := 90; k <= 92; k++ {
		jobs = append(jobs, Job{Pos: uci.Position{Moves: moves[:k]}, WhiteToMove: k%2 == 0, Limits: lim})
	}
	got, err := p.Search(ctx, jobs, SearchOptions{ChunkSize: 1})
	if err != nil {
		t.Fatal(err)
	}
	for i, w := range want {
		checkRaw(t, ks[i], got[ks[i]-90], w)
	}
}

// checkRaw compares our outcome of position k with Stockfish's own output.
func checkRaw(t *testing.T, k int, o Outcome, w rawSearch) {
	t.Helper()
	sign := 1
	if k%2 == 1 {
		sign = -1 // ours is White's view, Stockfish's the side to move's
	}
	cp := sign * o.Eval.CP
	if o.Eval.IsMate() {
		cp = 100000 - sign*o.Eval.Mate
	}
	if o.Depth != w.depth || o.Nodes != w.nodes || cp != w.cp || o.BestUCI != w.best {
		t.Errorf("position %d: ours depth %d nodes %d cp %d best %s, Stockfish's depth %d nodes %d cp %d best %s",
			k, o.Depth, o.Nodes, cp, o.BestUCI, w.depth, w.nodes, w.cp, w.best)
	}
}

func TestChess960Castling(t *testing.T) {
	got := strings.Join(chess960Castling(strings.Fields("e2e4 e7e5 g1f3 e8e7 e1g1 e7e8 f1e1 e8c8")), " ")
	if want := "e2e4 e7e5 g1f3 e8e7 e1h1 e7e8 f1e1 e8c8"; got != want {
		t.Errorf("got %s, want %s", got, want)
	}
	if got := strings.Join(chess960Castling(strings.Fields("e2e4 e7e5 e1c1 e8g8")), " "); got != "e2e4 e7e5 e1a1 e8h8" {
		t.Errorf("got %s", got)
	}
}
