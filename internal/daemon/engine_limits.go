package daemon

import (
	"context"
	"fmt"

	"github.com/outpostchess/outpost/bots"
	"github.com/outpostchess/outpost/bots/engine"
	"github.com/outpostchess/outpost/bots/enginelimits"
	"github.com/outpostchess/outpost/config"
)

// withEngineLimits applies the engine definition's limits for the game's
// speed ([engines.NAME.limits.SPEED], go_commands) and its think time; e is
// returned as is when the definition sets none (or the name is a plain
// spec).
func (d *Daemon) withEngineLimits(ctx context.Context, gameID, name string, e engine.Engine) engine.Engine {
	def, err := d.cfg.ResolveEngine(name)
	if err != nil {
		return e
	}
	speed := ""
	if g, err := d.store.Game(ctx, gameID); err == nil {
		speed = g.Speed
	}
	caps := def.Caps(speed)
	t := def.ThinkTime
	w := enginelimits.Wrap(e, enginelimits.Options{
		Caps:  enginelimits.Caps{Nodes: int64(caps.Nodes), Depth: caps.Depth, MoveTime: caps.MoveTime},
		Think: enginelimits.ThinkTime{Min: t.Min, Max: t.Max, ShortClock: t.ShortClock},
	})
	if w != e {
		d.log.Debug().Str("game", gameID).Str("engine", name).Str("speed", speed).Int("nodes", caps.Nodes).
			Int("depth", caps.Depth).Dur("movetime", caps.MoveTime).Dur("think_max", t.Max).Msg("engine limits")
	}
	return w
}

// builtinOptions passes [engines.NAME.options] of a built-in engine
// (medium, hard: Hash, Features, Disable; maia: temperature, seed) to its
// Configure.
func builtinOptions(def config.EngineConfig) []bots.Option {
	if len(def.Options) == 0 {
		return nil
	}
	opts := make(map[string]string, len(def.Options))
	for k, v := range def.Options {
		opts[k] = fmt.Sprint(v)
	}
	return []bots.Option{bots.WithUCIOptions(opts)}
}
