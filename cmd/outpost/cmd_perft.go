package main

import (
	"context"
	"fmt"
	"sort"
	"time"

	"github.com/outpostchess/outpost/bots/board"
)

// runPerft counts the legal move tree of a position with Outpost's board,
// printing the count as the last line of stdout (timing goes to stderr).
// With --chess960 the FEN is read with Chess960 castling (X-FEN or
// Shredder-FEN) and castling is written king takes rook, as Stockfish's
// go perft writes it with UCI_Chess960 set.
func runPerft(ctx context.Context, env *Env, args []string) error {
	fs := newFlags(env, "perft", "[--fen FEN] [--chess960] --depth N [--divide]")
	fen := fs.String("fen", board.StartFEN, "position to count from")
	depth := fs.Int("depth", 0, "depth in plies (1-12)")
	divide := fs.Bool("divide", false, "print the count below each root move first")
	chess960 := fs.Bool("chess960", false, "Chess960 castling rules (implied by a Shredder-FEN castling field such as HAha)")
	if err := parseOnlyFlags(fs, args); err != nil {
		return err
	}
	if *depth < 1 || *depth > 12 {
		fmt.Fprintf(env.Stderr, "outpost perft: --depth must be 1-12, got %d\n", *depth)
		fs.Usage()
		return errUsage
	}
	b, err := board.FromFENChecked(*fen, *chess960)
	if err != nil {
		return err
	}
	start := time.Now()
	entries, err := b.DivideContext(ctx, *depth)
	if err != nil {
		return fmt.Errorf("interrupted: %w", err)
	}
	var total int64
	var lines []string
	for _, e := range entries {
		total += e.Nodes
		lines = append(lines, fmt.Sprintf("%s: %d", e.Move, e.Nodes))
	}
	if *divide {
		sort.Strings(lines)
		for _, l := range lines {
			fmt.Fprintln(env.Stdout, l)
		}
		fmt.Fprintln(env.Stdout)
	}
	el := time.Since(start)
	fmt.Fprintf(env.Stderr, "perft(%d) in %v, %.1f M nodes/s\n", *depth, el.Round(time.Millisecond), float64(total)/el.Seconds()/1e6)
	fmt.Fprintln(env.Stdout, total)
	return nil
}
