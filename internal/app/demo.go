package app

import (
	"context"
	"errors"
	"fmt"
	"io"
	"time"

	"github.com/rs/zerolog"

	"github.com/outpostchess/outpost/bots/board"
	"github.com/outpostchess/outpost/config"
	"github.com/outpostchess/outpost/internal/demo"
	"github.com/outpostchess/outpost/internal/postgame"
)

// Demo is `outpost run --sandbox`: the sparring partner's games against
// the bot on an embedded sandbox.
type Demo struct {
	// Games ends the run once this many games are over and summarised (0:
	// until ctx ends).
	Games int
	// TC is the sparring partner's time control, MINUTES+SECONDS; Sparring
	// its engine.
	TC       string
	Sparring string
	// Days, when above 0, makes the sparring partner send correspondence
	// challenges with this many days per move instead of TC (Lichess's
	// choices: 1, 2, 3, 5, 7, 10 or 14).
	Days int
	// Variant is standard, chess960 or fromPosition; FEN the start
	// position of the challenges ("" for the standard one, or a random
	// Chess960 one).
	Variant string
	FEN     string
	// TimeScale multiplies the sandbox's real-time clocks and first-move
	// deadlines (sandbox.Config.TimeScale); 1 is Lichess's real time.
	TimeScale float64
	// Arena, when above 0, plays an arena of this many sparring bots
	// (games at TC) instead of the sparring partner's challenges, for
	// ArenaDuration (0: demo.DefaultArenaDuration).
	Arena         int
	ArenaDuration time.Duration
}

// Bounds of Demo.TimeScale: below 0.01 a bullet game's clock is a fraction
// of a second, less than the network-lag reserve the bot keeps; above 1 the
// sandbox would run slower than Lichess, which no test or demo needs.
const (
	MinTimeScale = 0.01
	MaxTimeScale = 1
)

// MaxArenaBots bounds --arena: the sandbox pairs up to 16 waiting players
// exactly, and a demo needs no more.
const MaxArenaBots = 15

// Check validates the variant, start position and time scale (naming them
// by their flags), and makes a standard game with a FEN fromPosition.
func (o *Demo) Check() error {
	switch o.Days {
	case 0, 1, 2, 3, 5, 7, 10, 14: // lila's correspondence choices (lichess.ChallengeParams)
	default:
		return fmt.Errorf("--days %d: want 1, 2, 3, 5, 7, 10 or 14 (days per move of a correspondence game)", o.Days)
	}
	if o.Arena < 0 || o.Arena > MaxArenaBots {
		return fmt.Errorf("--arena %d: want 1 to %d sparring bots (0: no arena)", o.Arena, MaxArenaBots)
	}
	if o.Arena > 0 && (o.Days > 0 || o.Variant == "chess960" || o.FEN != "") {
		return errors.New("--arena plays standard real-time games: leave out --days, --variant and --fen")
	}
	if !(o.TimeScale >= MinTimeScale && o.TimeScale <= MaxTimeScale) { // NaN too
		return fmt.Errorf("--time-scale %v: want %v to %v (1 = Lichess's real clocks)", o.TimeScale, MinTimeScale, MaxTimeScale)
	}
	switch o.Variant {
	case "standard", "":
		if o.FEN != "" {
			o.Variant = "fromPosition"
		}
	case "chess960":
		if _, ok := board.Chess960Number(o.FEN); o.FEN != "" && !ok {
			return fmt.Errorf("--fen %q: not a Chess960 start position", o.FEN)
		}
	case "fromPosition":
		if o.FEN == "" {
			return errors.New("--variant fromPosition needs --fen")
		}
	default:
		return fmt.Errorf("--variant %q: want standard, chess960 or fromPosition", o.Variant)
	}
	if o.FEN != "" {
		if _, err := board.FromFENVariant(o.FEN, o.Variant == "chess960"); err != nil {
			return fmt.Errorf("--fen: %w", err)
		}
	}
	return nil
}

// RunSandboxDemo runs the daemon against an embedded sandbox and writes
// each finished game's PGN and chat transcript to out.
func RunSandboxDemo(ctx context.Context, cfg *config.Config, o Demo, out io.Writer, log zerolog.Logger) error {
	sum := postgame.FromConfig(cfg, demo.BotName, log)
	defer sum.Close()
	maia, pred, closeMaia := MaiaOption(cfg, log)
	defer closeMaia()
	// A demo of N games exists to show its summaries: each waits for its
	// expected-winrate line up to the summary's own bound, [summary]
	// timeout, which also ends a demo on a machine too busy for the line;
	// an open-ended sandbox run keeps the daemon's bound for the line,
	// [summary] ewr_timeout.
	bound := cfg.Summary.EWRTimeout
	if o.Games > 0 {
		bound = 0
		if cfg.Summary.Enabled {
			fmt.Fprintf(out, "Each summary waits for its analysis and expected-winrate line up to [summary] timeout = %v; past it, it goes out with the parts that are ready (the log says which).\n",
				cfg.Summary.Timeout)
		}
	}
	sum.WithConfigEWR(cfg, pred, nil, bound, log)
	variant := o.Variant
	if variant == "standard" || variant == "fromPosition" {
		variant = "" // the sandbox makes a game with a FEN fromPosition
	}
	dopt := demo.Options{Config: cfg, Games: o.Games, TC: o.TC, Days: o.Days, Sparring: o.Sparring,
		SparringVariant: variant, SparringFEN: o.FEN,
		Out: out, Summariser: sum, Logger: log, EngineOptions: maia, Arena: o.Arena, ArenaDuration: o.ArenaDuration}
	dopt.Sandbox.TimeScale = o.TimeScale
	if cfg.Verify.Enabled {
		fish := SandboxFishnet(cfg, DemoFishnetNodes, DemoCloudDepth)
		defer fish.Close()
		dopt.Sandbox.Analyser = fish
	}
	res, err := demo.Run(ctx, dopt)
	if err != nil {
		if o.Games == 0 && o.Arena == 0 && ctx.Err() != nil {
			return nil // interrupted an open-ended run: a normal end
		}
		return err
	}
	fmt.Fprintf(out, "\n%d games played; store and PGNs in %s\n", len(res.Summary), res.StoreDir)
	return nil
}
