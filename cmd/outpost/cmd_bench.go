package main

import (
	"context"
	"fmt"
	"time"

	"github.com/outpostchess/outpost/bots/enginepath"
	"github.com/outpostchess/outpost/internal/app"
)

// runBench measures hard's nodes per second against Stockfish's (or, with
// the perft subcommand, our move generator against notnil/chess).
func runBench(ctx context.Context, env *Env, args []string) error {
	if len(args) > 0 && args[0] == "perft" {
		return runBenchPerft(ctx, env, args[1:])
	}
	fs := newFlags(env, "bench", "[--movetime D] [--stockfish PATH] [--hash MB]   |   bench perft [--fen FEN] [--depth N] [--min-time D]")
	movetime := fs.Duration("movetime", 2*time.Second, "search time per position for each engine")
	sfPath := fs.String("stockfish", enginepath.Stockfish15, "Stockfish to compare with: an engine name (sf15, sf18) or a path (empty to skip)")
	hash := fs.Int("hash", 64, "hash size in MiB for both engines")
	if err := parseOnlyFlags(fs, args); err != nil {
		return err
	}
	if err := checkMin(fs, 1, "hash"); err != nil {
		return err
	}
	if *movetime <= 0 {
		return fmt.Errorf("--movetime must be positive")
	}
	return app.BenchNPS(ctx, env.Stdout, env.Stderr, app.NPSBench{MoveTime: *movetime, Stockfish: *sfPath, HashMB: *hash})
}

// runBenchPerft runs full make/unmake perft with our board and with
// notnil/chess on the same position, each for at least --min-time.
func runBenchPerft(ctx context.Context, env *Env, args []string) error {
	fs := newFlags(env, "bench perft", "[--fen FEN] [--depth N] [--min-time D]")
	fen := fs.String("fen", app.BenchFENs[1], "position (default Kiwipete)")
	depth := fs.Int("depth", 3, "perft depth (1-6)")
	minTime := fs.Duration("min-time", 2*time.Second, "minimum measuring time per library")
	if err := parseOnlyFlags(fs, args); err != nil {
		return err
	}
	return app.BenchPerft(ctx, env.Stdout, app.PerftBench{FEN: *fen, Depth: *depth, MinTime: *minTime})
}
