package main

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"os"

	"github.com/outpostchess/outpost/bots/match"
)

// runMatch plays two engines against each other.
// Long: sixteen flag definitions and their checks (--sprt, --nodes); the
// games are bots/match's.
func runMatch(ctx context.Context, env *Env, args []string) error {
	fs := newFlags(env, "match", "--engine-a SPEC --engine-b SPEC [--games N] [--tc SECONDS | --nodes N] [--sprt ELO0,ELO1] [--concurrency N] [--openings FILE] [--pgn FILE] [--json]")
	specA := fs.String("engine-a", "", engineSpecUsage("engine A"))
	specB := fs.String("engine-b", "", "engine B, same forms as --engine-a")
	games := fs.Int("games", 10, "number of games (colours alternate within each opening pair); with --sprt the cap (default then 20000)")
	nodes := fs.Int64("nodes", 0, "nodes per move (fixed-node games do not depend on the machine's load); alone unless --tc is given too")
	sprtFlag := fs.String("sprt", "", "run a sequential probability ratio test of H0 elo0 against H1 elo1 (α = β = 0.05, game pairs): stop when it decides")
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
	set := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
	moveTime := play.moveTime()
	if *nodes < 0 {
		return fmt.Errorf("--nodes %d: must not be negative", *nodes)
	}
	if *nodes > 0 && !set["tc"] {
		moveTime = 0 // fixed nodes alone
	}
	var sprt *match.SPRT
	if *sprtFlag != "" {
		t, err := match.ParseSPRT(*sprtFlag)
		if err != nil {
			return fmt.Errorf("--sprt: %w", err)
		}
		sprt = &t
		if !set["games"] {
			*games = sprtMaxGames
		}
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
	cfg := match.Config{
		A: factory(*specA), B: factory(*specB), Games: *games,
		MoveTime: moveTime, Nodes: *nodes, SPRT: sprt,
		Tolerance:   play.overrun(),
		Concurrency: *play.concurrency, Openings: ops, MaxPlies: *maxPlies, Logger: log,
	}
	if sprt != nil && !*asJSON {
		cfg.OnSPRT = func(r match.SPRTResult) {
			if r.Decision == "" && r.Pentanomial.Pairs()%sprtProgressPairs == 0 {
				fmt.Fprintln(env.Stdout, r.String())
			}
		}
	}
	sum, err := match.Run(ctx, cfg)
	if err != nil && len(sum.Games) == 0 {
		return err
	}
	if *pgnFile != "" {
		if werr := writePGN(*pgnFile, sum.Games); werr != nil {
			return werr
		}
	}
	if *asJSON {
		if werr := sum.WriteJSON(env.Stdout); werr != nil {
			return werr
		}
	} else {
		sum.WriteReport(env.Stdout, *specA, *specB)
	}
	return err
}

// sprtMaxGames caps an SPRT match without --games: far more than a test
// between versions a few Elo apart needs at the usual bounds (a few
// thousand games), so the test, not the cap, ends it.
const sprtMaxGames = 20000

// sprtProgressPairs: an SPRT match prints its state every this many pairs.
const sprtProgressPairs = 10

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
