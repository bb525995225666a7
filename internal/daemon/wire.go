package daemon

import (
	"fmt"
	"time"

	"github.com/rs/zerolog"

	"github.com/outpostchess/outpost/analysis"
	"github.com/outpostchess/outpost/config"
	"github.com/outpostchess/outpost/internal/comparerun"
	"github.com/outpostchess/outpost/lichess"
	"github.com/outpostchess/outpost/lichess/runner"
)

// ClientOptions maps [lichess] and [ratelimit] to the Lichess client's
// options for the server at url, with token (empty: none) and log.
func ClientOptions(cfg *config.Config, url string, token lichess.Token, log zerolog.Logger) lichess.Options {
	return lichess.Options{
		BaseURL: url, Token: token, Logger: log,
		RateLimit:      time.Duration(cfg.RateLimit.Seconds) * time.Second,
		RequestTimeout: cfg.Lichess.RequestTimeout,
		StreamTimeout:  cfg.Lichess.StreamTimeout,
	}
}

// Conduct maps the [game] section of the config to the runner's conduct
// settings. The runner library does not read the config itself.
func Conduct(g config.GameConfig) runner.Conduct {
	return runner.Conduct{
		MoveOverhead:           g.MoveOverhead,
		AbortAfter:             g.AbortAfter,
		AcceptDraw:             g.AcceptDraw,
		DrawEvalCP:             g.DrawEvalCP,
		DrawMinPly:             g.DrawMinPly,
		ResignEnabled:          g.ResignEnabled,
		ResignBelowCP:          g.ResignBelowCP,
		ResignMoves:            g.ResignMoves,
		ClaimVictory:           g.ClaimVictory,
		Greeting:               g.Greeting,
		Goodbye:                g.Goodbye,
		GreetingRooms:          g.GreetingRooms,
		ChatCommands:           g.ChatCommands,
		CorrespondenceMoveTime: g.CorrespondenceMoveTime,
		EngineOutputRooms:      g.EngineOutputRooms,
		TakebacksPerGame:       g.TakebacksPerGame,
		OfferDraw:              g.OfferDraw,
		OfferDrawMoves:         g.OfferDrawMoves,
	}
}

// CompareSchedule maps the [compare] section (and the [analysis] hash) to
// the comparison scheduler's settings. Errors name the config key.
func CompareSchedule(c config.CompareConfig, a config.AnalysisConfig) (comparerun.Schedule, error) {
	budget, err := CompareBudget(c)
	if err != nil {
		return comparerun.Schedule{}, err
	}
	return comparerun.Schedule{
		Enabled: c.Enabled, Users: c.Users, Interval: c.Interval, MaxGames: c.MaxGames, Since: c.Since,
		Budget: budget, Engine: c.Engine, HashMB: a.HashMB,
	}, nil
}

// CompareBudget is the budget of the [compare] section: compare.nodes when
// set, else compare.preset (default by-date: each game with its period's
// preset and engine).
func CompareBudget(c config.CompareConfig) (analysis.Budget, error) {
	var b analysis.Budget
	var err error
	if c.Nodes > 0 {
		b, err = analysis.ParseBudget(int64(c.Nodes), 0, "")
	} else {
		b, err = analysis.ParseBudget(0, 0, c.Preset)
	}
	if err != nil {
		return analysis.Budget{}, fmt.Errorf("config: compare.preset: %w", err)
	}
	return b, nil
}
