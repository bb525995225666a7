package app

import (
	"context"
	"fmt"
	"io"
	"os"
	"strconv"
	"time"

	"github.com/notnil/chess"

	"github.com/outpostchess/outpost/bots/board"
	"github.com/outpostchess/outpost/bots/engine"
	"github.com/outpostchess/outpost/bots/enginepath"
	"github.com/outpostchess/outpost/bots/search"
	"github.com/outpostchess/outpost/bots/uci"
)

// BenchFENs are the fixed positions of `outpost bench`: the start, the
// standard perft positions 2 (Kiwipete), 4 and 6, a quiet middlegame and a
// rook endgame.
var BenchFENs = []string{
	board.StartFEN,
	"r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
	"r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
	"r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
	"r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP3PPP/R2QKB1R w KQ - 0 8",
	"8/5pk1/6p1/1r5p/7P/4R1P1/5PK1/8 w - - 0 40",
}

// NPSBench is what BenchNPS measures.
type NPSBench struct {
	// MoveTime is each engine's search time per position.
	MoveTime time.Duration
	// Stockfish is the engine compared with: a name (sf15, sf18) or a
	// path; "" measures hard alone.
	Stockfish string
	// HashMB is both engines' hash size.
	HashMB int
}

// BenchNPS measures hard's nodes per second against Stockfish's (one
// thread) on BenchFENs, the engines interleaved position by position, and
// writes a table and the totals to w. A Stockfish that cannot be found is
// reported on warn and hard is measured alone.
func BenchNPS(ctx context.Context, w, warn io.Writer, o NPSBench) error {
	hard, err := search.NewHard(search.WithHashMB(o.HashMB))
	if err != nil {
		return err
	}
	defer hard.Close()
	sf, err := startBenchStockfish(ctx, warn, o)
	if err != nil {
		return err
	}
	if sf != nil {
		defer sf.Close()
	}
	fmt.Fprintf(w, "%-3s %12s %10s %12s %10s\n", "pos", "hard nodes", "hard nps", "sf nodes", "sf nps")
	var hNodes, sNodes int64
	var hTime, sTime time.Duration
	for i, fen := range BenchFENs {
		// Interleave the engines position by position so that both see the
		// same machine load.
		if err := hard.NewGame(ctx); err != nil {
			return err
		}
		start := time.Now()
		m, err := hard.SelectMove(ctx, engine.Position{StartFEN: fen}, engine.Limits{MoveTime: o.MoveTime})
		if err != nil {
			return fmt.Errorf("hard on position %d: %w", i+1, err)
		}
		el := time.Since(start)
		hNodes += m.Nodes
		hTime += el
		line := fmt.Sprintf("%-3d %12d %10.0f", i+1, m.Nodes, float64(m.Nodes)/el.Seconds())
		if sf != nil {
			n, t, err := benchNodes(ctx, sf, fen, o.MoveTime)
			if err != nil {
				return fmt.Errorf("stockfish on position %d: %w", i+1, err)
			}
			sNodes += n
			sTime += t
			line += fmt.Sprintf(" %12d %10.0f", n, float64(n)/t.Seconds())
		}
		fmt.Fprintln(w, line)
	}
	hNPS := float64(hNodes) / hTime.Seconds()
	fmt.Fprintf(w, "hard: %d nodes in %v = %.0f nodes/s\n", hNodes, hTime.Round(time.Millisecond), hNPS)
	if sf != nil {
		sNPS := float64(sNodes) / sTime.Seconds()
		fmt.Fprintf(w, "stockfish (Threads=1): %d nodes in %v = %.0f nodes/s\n", sNodes, sTime.Round(time.Millisecond), sNPS)
		fmt.Fprintf(w, "ratio hard/stockfish: %.2f\n", hNPS/sNPS)
	}
	return nil
}

// startBenchStockfish starts the Stockfish of o (one thread), or returns
// nil when there is none: not asked for, or not found (said on warn).
func startBenchStockfish(ctx context.Context, warn io.Writer, o NPSBench) (*uci.Engine, error) {
	if o.Stockfish == "" {
		return nil, nil
	}
	r, err := enginepath.Resolve([]string{o.Stockfish})
	if err == nil {
		_, err = os.Stat(r.Command[0])
	}
	if err != nil {
		fmt.Fprintf(warn, "stockfish %s: %v; measuring hard only\n", o.Stockfish, err)
		return nil, nil
	}
	sf, err := uci.Start(ctx, uci.Config{Path: r.Command[0], Args: r.Command[1:],
		Options: map[string]string{"Threads": "1", "Hash": strconv.Itoa(o.HashMB)}})
	if err != nil {
		return nil, fmt.Errorf("stockfish: %w", err)
	}
	return sf, nil
}

// benchNodes searches fen with a bots/uci engine for movetime after
// ucinewgame and returns the engine's own node count and time from its
// last info line.
func benchNodes(ctx context.Context, sf *uci.Engine, fen string, movetime time.Duration) (int64, time.Duration, error) {
	if err := sf.NewGame(ctx); err != nil {
		return 0, 0, err
	}
	res, err := sf.Analyse(ctx, uci.Position{FEN: fen}, uci.Limits{MoveTime: movetime})
	if err != nil {
		return 0, 0, err
	}
	if res.Nodes == 0 || res.Time == 0 {
		return 0, 0, fmt.Errorf("no nodes/time in the engine's info output")
	}
	return res.Nodes, res.Time, nil
}

// PerftBench is what BenchPerft measures.
type PerftBench struct {
	// FEN is the position, Depth the perft depth (1-6).
	FEN   string
	Depth int
	// MinTime is the least measuring time per library.
	MinTime time.Duration
}

// BenchPerft runs full make/unmake perft with our board and with
// notnil/chess on the same position, each for at least o.MinTime, checks
// that they agree and writes both speeds and their ratio to w.
func BenchPerft(ctx context.Context, w io.Writer, o PerftBench) error {
	if o.Depth < 1 || o.Depth > 6 {
		return fmt.Errorf("--depth must be 1-6, got %d", o.Depth)
	}
	b, err := board.FromFEN(o.FEN)
	if err != nil {
		return err
	}
	pos := &chess.Position{}
	if err := pos.UnmarshalText([]byte(o.FEN)); err != nil {
		return fmt.Errorf("notnil rejects the FEN: %w", err)
	}
	measure := func(f func() int64) (int64, float64, error) {
		var nodes, count int64
		start := time.Now()
		for time.Since(start) < o.MinTime || nodes == 0 {
			if err := ctx.Err(); err != nil {
				return 0, 0, err
			}
			count = f()
			nodes += count
		}
		return count, float64(nodes) / time.Since(start).Seconds(), nil
	}
	ours, oursNPS, err := measure(func() int64 { return b.Perft(o.Depth) })
	if err != nil {
		return err
	}
	theirs, theirNPS, err := measure(func() int64 { return notnilPerft(pos, o.Depth) })
	if err != nil {
		return err
	}
	if ours != theirs {
		return fmt.Errorf("perft(%d) disagrees: ours %d, notnil %d", o.Depth, ours, theirs)
	}
	fmt.Fprintf(w, "perft(%d) = %d\n", o.Depth, ours)
	fmt.Fprintf(w, "outpost board: %.0f nodes/s\n", oursNPS)
	fmt.Fprintf(w, "notnil/chess:  %.0f nodes/s\n", theirNPS)
	fmt.Fprintf(w, "ratio: %.1fx\n", oursNPS/theirNPS)
	return nil
}

// notnilPerft is perft computed with notnil/chess (allocating a new
// position per move, as that library does), for the side-by-side speed
// comparison; notnil/chess is otherwise only the oracle of tests.
func notnilPerft(pos *chess.Position, depth int) int64 {
	if depth <= 0 {
		return 1
	}
	var n int64
	for _, m := range pos.ValidMoves() {
		n += notnilPerft(pos.Update(m), depth-1)
	}
	return n
}
