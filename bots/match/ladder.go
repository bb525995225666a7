package match

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/rs/zerolog"

	"github.com/outpostchess/outpost/bots/engine"
)

// DefaultRungs returns the Stockfish UCI_Elo levels of the ladder: its
// whole range (1350 to 2850) in steps of 250.
func DefaultRungs() []int { return []int{1350, 1600, 1850, 2100, 2350, 2600, 2850} }

// LadderConfig describes a ladder run.
type LadderConfig struct {
	// Engine makes the engine under test.
	Engine Factory
	// Opponent makes the reference engine limited to elo (Stockfish with
	// UCI_LimitStrength).
	Opponent func(ctx context.Context, elo int) (engine.Engine, error)
	// Rungs are the opponent ratings in increasing order (default
	// DefaultRungs()).
	Rungs []int
	// GamesPerRung is the number of games at each rung visited (default 10).
	GamesPerRung int
	// MoveTime is the time per move (default 100 ms).
	MoveTime    time.Duration
	Tolerance   time.Duration
	Concurrency int
	Openings    []Opening
	Logger      zerolog.Logger
	// OnRung is called after each rung.
	OnRung func(Rung)
	// Clock is the referee's clock (nil: the wall clock; see Config.Clock).
	Clock func() time.Time
}

// LadderResult is a finished ladder.
type LadderResult struct {
	Rungs []Rung // in the order played
	Fit   Fit
}

// Ladder estimates the engine's rating against the opponent's rungs. It
// brackets: it starts at the middle rung and steps up while the engine
// scores more than 50%, or down while it scores less, until the score
// crosses 50% or the ladder ends; then it fits a logistic to all rung
// results (FitLogistic).
func Ladder(ctx context.Context, cfg LadderConfig) (LadderResult, error) {
	if cfg.Engine == nil || cfg.Opponent == nil {
		return LadderResult{}, errors.New("match: ladder needs an engine and an opponent")
	}
	rungs := cfg.Rungs
	if len(rungs) == 0 {
		rungs = DefaultRungs()
	}
	for i := 1; i < len(rungs); i++ {
		if rungs[i] <= rungs[i-1] {
			return LadderResult{}, fmt.Errorf("match: ladder rungs %v are not increasing", rungs)
		}
	}
	if cfg.GamesPerRung < 1 {
		cfg.GamesPerRung = 10
	}
	if cfg.MoveTime <= 0 {
		cfg.MoveTime = 100 * time.Millisecond
	}
	var res LadderResult
	i := len(rungs) / 2
	dir := 0
	for i >= 0 && i < len(rungs) {
		elo := rungs[i]
		sum, err := Run(ctx, Config{
			A:     cfg.Engine,
			B:     func(ctx context.Context) (engine.Engine, error) { return cfg.Opponent(ctx, elo) },
			Games: cfg.GamesPerRung, MoveTime: cfg.MoveTime, Tolerance: cfg.Tolerance,
			Concurrency: cfg.Concurrency, Openings: cfg.Openings, Logger: cfg.Logger, Clock: cfg.Clock,
		})
		if err != nil {
			return res, fmt.Errorf("match: ladder rung %d: %w", elo, err)
		}
		r := Rung{Elo: elo, Wins: sum.Wins, Losses: sum.Losses, Draws: sum.Draws}
		res.Rungs = append(res.Rungs, r)
		if cfg.OnRung != nil {
			cfg.OnRung(r)
		}
		step := 0
		switch sc := r.Score(); {
		case sc > 0.5:
			step = 1
		case sc < 0.5:
			step = -1
		}
		if step == 0 || (dir != 0 && step != dir) {
			break // the score crossed 50%: bracketed
		}
		dir = step
		i += step
	}
	fit, err := FitLogistic(res.Rungs)
	if err != nil {
		return res, err
	}
	res.Fit = fit
	return res, nil
}
