package main

import (
	"bytes"
	"context"
	"fmt"
	"math"
	"os"
	"strings"
	"sync/atomic"
	"time"

	"github.com/outpostchess/outpost/bots"
	"github.com/outpostchess/outpost/bots/engine"
	"github.com/outpostchess/outpost/bots/match"
)

// runMatch plays two engines against each other.
func runMatch(ctx context.Context, env *Env, args []string) error {
	fs := newFlags(env, "match", "--engine-a SPEC --engine-b SPEC [--games N] [--tc SECONDS] [--concurrency N] [--openings FILE] [--pgn FILE] [--json]")
	specA := fs.String("engine-a", "", "engine A: "+strings.Join(bots.Names(), ", ")+", or uci:/path/to/engine[,Option=Value…]")
	specB := fs.String("engine-b", "", "engine B, same forms as --engine-a")
	games := fs.Int("games", 10, "number of games (colours alternate within each opening pair)")
	tc := fs.Float64("tc", 0.1, "seconds per move")
	tolerance := fs.Float64("tolerance", 0, "seconds a move may overrun --tc before forfeiting (0 = max(0.1, tc/2))")
	concurrency := fs.Int("concurrency", 2, "games played at once")
	openings := fs.String("openings", "", "file of openings: FEN/EPD lines or move lists (default: 100 ECO openings)")
	maxPlies := fs.Int("max-plies", match.DefaultMaxPlies, "adjudicate a draw after this many plies")
	seed := fs.Uint64("seed", 1, "seed for random engines (each engine instance gets seed+i)")
	asJSON := fs.Bool("json", false, "print only the summary as JSON")
	pgnFile := fs.String("pgn", "", "also write the games to this PGN file")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if *specA == "" || *specB == "" || fs.NArg() > 0 {
		fs.Usage()
		return errUsage
	}
	if *tc <= 0 || math.IsInf(*tc, 0) || math.IsNaN(*tc) || *tolerance < 0 {
		return fmt.Errorf("--tc must be positive and --tolerance non-negative")
	}
	log := env.logger()
	var ops []match.Opening
	if *openings != "" {
		f, err := os.Open(*openings)
		if err != nil {
			return err
		}
		ops, err = match.ParseOpenings(f)
		f.Close()
		if err != nil {
			return err
		}
	}
	var instance atomic.Uint64
	factory := func(spec string) match.Factory {
		return func(ctx context.Context) (engine.Engine, error) {
			return bots.New(ctx, spec, bots.WithLogger(log), bots.WithSeed(*seed+instance.Add(1)))
		}
	}
	sum, err := match.Run(ctx, match.Config{
		A: factory(*specA), B: factory(*specB), Games: *games,
		MoveTime:    seconds(*tc),
		Tolerance:   seconds(*tolerance),
		Concurrency: *concurrency, Openings: ops, MaxPlies: *maxPlies, Logger: log,
	})
	if err != nil && len(sum.Games) == 0 {
		return err
	}
	if *pgnFile != "" {
		if werr := writePGN(*pgnFile, sum.Games); werr != nil {
			return werr
		}
	}
	if *asJSON {
		if werr := sum.Stats.WriteJSON(env.Stdout); werr != nil {
			return werr
		}
	} else {
		sum.WriteReport(env.Stdout, *specA, *specB)
	}
	return err
}

func seconds(s float64) time.Duration { return time.Duration(s * float64(time.Second)) }

// writePGN writes the games to path, one PGN after another.
func writePGN(path string, games []match.Game) error {
	var b bytes.Buffer
	if err := match.WritePGN(&b, games); err != nil {
		return err
	}
	if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
		return fmt.Errorf("writing games: %w", err)
	}
	return nil
}
