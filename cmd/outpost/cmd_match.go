package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"math"
	"os"
	"slices"
	"strings"
	"sync/atomic"
	"time"

	"github.com/outpostchess/outpost/bots"
	"github.com/outpostchess/outpost/bots/engine"
	"github.com/outpostchess/outpost/bots/match"
)

// matchJSON is the exact --json output of outpost match.
type matchJSON struct {
	Games    int     `json:"games"`
	WinsA    int     `json:"wins_a"`
	WinsB    int     `json:"wins_b"`
	Draws    int     `json:"draws"`
	ScoreA   float64 `json:"score_a"`
	EloDiff  float64 `json:"elo_diff"`
	EloError float64 `json:"elo_error"`
	LOS      float64 `json:"los"`
}

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
		if werr := writeMatchJSON(env.Stdout, sum.Stats); werr != nil {
			return werr
		}
	} else {
		printMatch(env.Stdout, *specA, *specB, sum)
	}
	return err
}

func seconds(s float64) time.Duration { return time.Duration(s * float64(time.Second)) }

func round(x float64, digits int) float64 {
	p := math.Pow(10, float64(digits))
	return math.Round(x*p) / p
}

func writeMatchJSON(w io.Writer, st match.Stats) error {
	return json.NewEncoder(w).Encode(matchJSON{
		Games: st.Games, WinsA: st.Wins, WinsB: st.Losses, Draws: st.Draws,
		ScoreA: round(st.Score, 4), EloDiff: round(st.EloDiff, 1), EloError: round(st.EloError, 1), LOS: round(st.LOS, 4),
	})
}

func printMatch(w io.Writer, specA, specB string, sum match.Summary) {
	st := sum.Stats
	fmt.Fprintf(w, "A: %s (%s)\nB: %s (%s)\n", sum.NameA, specA, sum.NameB, specB)
	fmt.Fprintf(w, "games %d: A won %d, B won %d, %d drawn; A scored %.1f%%\n",
		st.Games, st.Wins, st.Losses, st.Draws, 100*st.Score)
	fmt.Fprintf(w, "Elo difference (A-B): %+.0f ± %.0f (95%%), LOS %.1f%%\n", round(st.EloDiff, 0)+0, st.EloError, 100*st.LOS)
	reasons := map[string]int{}
	for _, g := range sum.Games {
		r := g.Reason
		if i := strings.Index(r, ":"); i > 0 {
			r = r[:i]
		}
		reasons[r]++
	}
	var parts []string
	for _, r := range slices.Sorted(maps.Keys(reasons)) {
		parts = append(parts, fmt.Sprintf("%s %d", r, reasons[r]))
	}
	fmt.Fprintf(w, "endings: %s\n", strings.Join(parts, ", "))
}

// writePGN writes the games to path, one PGN after another.
func writePGN(path string, games []match.Game) error {
	var b strings.Builder
	for _, g := range games {
		p, err := g.PGN()
		if err != nil {
			return err
		}
		b.WriteString(p)
		b.WriteString("\n")
	}
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		return fmt.Errorf("writing games: %w", err)
	}
	return nil
}
