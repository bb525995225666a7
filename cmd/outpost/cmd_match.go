package main

import (
	"bytes"
	"context"
	"fmt"
	"os"

	"github.com/outpostchess/outpost/bots/match"
)

// runMatch plays two engines against each other.
func runMatch(ctx context.Context, env *Env, args []string) error {
	fs := newFlags(env, "match", "--engine-a SPEC --engine-b SPEC [--games N] [--tc SECONDS] [--concurrency N] [--openings FILE] [--pgn FILE] [--json]")
	specA := fs.String("engine-a", "", engineSpecUsage("engine A"))
	specB := fs.String("engine-b", "", "engine B, same forms as --engine-a")
	games := fs.Int("games", 10, "number of games (colours alternate within each opening pair)")
	play := addPlayFlags(fs, "seconds per move", "seed for random engines (each engine instance gets seed+i)")
	openings := fs.String("openings", "", "file of openings: FEN/EPD lines or move lists (default: 100 ECO openings)")
	maxPlies := fs.Int("max-plies", match.DefaultMaxPlies, "adjudicate a draw after this many plies")
	asJSON := fs.Bool("json", false, "print only the summary as JSON")
	pgnFile := fs.String("pgn", "", "also write the games to this PGN file")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if *specA == "" || *specB == "" || fs.NArg() > 0 {
		fs.Usage()
		return errUsage
	}
	if err := play.check(); err != nil {
		return err
	}
	if err := checkMin(fs, 1, "max-plies", "games"); err != nil {
		return err
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
	factory := play.engines(log)
	sum, err := match.Run(ctx, match.Config{
		A: factory(*specA), B: factory(*specB), Games: *games,
		MoveTime:    play.moveTime(),
		Tolerance:   play.overrun(),
		Concurrency: *play.concurrency, Openings: ops, MaxPlies: *maxPlies, Logger: log,
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
