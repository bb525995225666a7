package daemon

import (
	"context"
	"fmt"

	"github.com/rs/zerolog"

	"github.com/outpostchess/outpost/bots/engine"
	"github.com/outpostchess/outpost/bots/movesource"
	"github.com/outpostchess/outpost/config"
)

// sourceBuilder turns one kind of [engines.NAME] setting (book, Syzygy,
// Lichess move sources) into move sources. It returns none when the
// definition does not ask for that kind.
type sourceBuilder func(ctx context.Context, cfg *config.Config, name string, def config.EngineConfig) ([]movesource.Bounded, error)

// sourceBuilders lists the kinds of move source in the order they are asked
// before an engine searches: opening books, then local tablebases, then
// Lichess's services.
func sourceBuilders() []sourceBuilder {
	return []sourceBuilder{
		bookSources,
		syzygySources,
		onlineSources,
	}
}

// withMoveSources wraps e in the move sources its definition names; e is
// returned as is when there are none. The sources are outside the
// fallback: each must return only legal moves.
func withMoveSources(ctx context.Context, cfg *config.Config, name string, e engine.Engine, log zerolog.Logger) (engine.Engine, error) {
	def, err := cfg.ResolveEngine(name)
	if err != nil {
		return e, nil // a plain spec (uci:/path, stockfish): no sources
	}
	var all []movesource.Bounded
	for _, build := range sourceBuilders() {
		s, err := build(ctx, cfg, name, def)
		if err != nil {
			return nil, fmt.Errorf("engine %s: %w", name, err)
		}
		all = append(all, s...)
	}
	if len(all) == 0 {
		return e, nil
	}
	return movesource.Wrap(e, all, func(ev movesource.Event) {
		l := log.Debug()
		if ev.Move != "" {
			l = log.Info() // which source gave which move
		}
		if ev.Err != nil && ev.Err != movesource.ErrNoMove {
			l = log.Warn().Err(ev.Err)
		}
		l.Str("engine", name).Str("source", ev.Source).Str("move", ev.Move).Dur("elapsed", ev.Elapsed).Msg("move source")
	}), nil
}
