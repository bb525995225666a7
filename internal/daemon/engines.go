package daemon

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"strings"

	"github.com/rs/zerolog"

	"github.com/outpostchess/outpost/bots"
	"github.com/outpostchess/outpost/bots/engine"
	"github.com/outpostchess/outpost/bots/knobs"
	"github.com/outpostchess/outpost/bots/uci"
	"github.com/outpostchess/outpost/config"
)

// NewEngineFactory returns the factory that builds the engines the
// configuration names: an [engines.NAME] definition, or else a built-in
// spec (easy, medium, hard, knobs, stockfish, uci:/path). Every engine is
// wrapped in a fallback so that a failing engine never loses a game by
// itself. extra options (a Maia predictor, for example) apply to all.
func NewEngineFactory(cfg *config.Config, log zerolog.Logger, extra ...bots.Option) EngineFactory {
	online := newOnlineServices(cfg, log) // shared by every game: one 429 lockout per host
	return func(ctx context.Context, name string) (engine.Engine, error) {
		ctx = withOnlineServices(ctx, online)
		spec, opts, err := engineSpec(cfg, name)
		if err != nil {
			return nil, err
		}
		glog := gameLogger(ctx, log)
		opts = append(opts, bots.WithLogger(glog), bots.WithFallback(), bots.WithName(name))
		opts = append(opts, extra...)
		e, err := bots.New(ctx, spec, opts...)
		if err != nil {
			return nil, fmt.Errorf("engine %s: %w", name, err)
		}
		w, err := withMoveSources(ctx, cfg, name, e, glog)
		if err != nil {
			return nil, errors.Join(err, e.Close())
		}
		return w, nil
	}
}

// gameLogger is the logger of the game an engine is built for (the
// daemon's, naming the game and the bot, carried by ctx), else log.
func gameLogger(ctx context.Context, log zerolog.Logger) zerolog.Logger {
	if l := zerolog.Ctx(ctx); l.GetLevel() != zerolog.Disabled {
		return *l
	}
	return log
}

// engineSpec turns an engine name into a bots spec and options.
func engineSpec(cfg *config.Config, name string) (string, []bots.Option, error) {
	def, ok := cfg.Engines.Defs[name]
	if !ok {
		return name, nil, nil
	}
	var opts []bots.Option
	switch def.Type {
	case "easy", "medium", "hard":
		return def.Type, append(syzygySearchOptions(def), builtinOptions(def)...), nil
	case "knobs":
		k := knobs.Defaults()
		if def.Knobs != "" {
			set, ok := cfg.Knobs[def.Knobs]
			if !ok {
				return "", nil, fmt.Errorf("engine %s: no knob set %q", name, def.Knobs)
			}
			var err error
			if k, err = knobs.FromMap(set); err != nil {
				return "", nil, fmt.Errorf("engine %s: knob set %s: %w", name, def.Knobs, err)
			}
		}
		return "knobs", append(append(opts, bots.WithKnobs(k)), syzygySearchOptions(def)...), nil
	case "uci":
		uopts := map[string]string{}
		keys := make([]string, 0, len(def.Options))
		for k := range def.Options {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			uopts[k] = fmt.Sprint(def.Options[k])
		}
		if def.SkillLevel != nil {
			uopts["Skill Level"] = fmt.Sprint(*def.SkillLevel)
		}
		uopts = syzygyUCIOptions(def, uopts)
		opts = append(opts, bots.WithUCIOptions(uopts), bots.WithUCIClient(uci.Config{Path: def.Path, Args: def.Args}))
		if def.Elo > 0 {
			opts = append(opts, bots.WithElo(def.Elo))
		}
		if def.HashMB > 0 {
			opts = append(opts, bots.WithHashMB(def.HashMB))
		}
		return "uci:" + def.Path, opts, nil
	case "maia":
		spec := fmt.Sprintf("maia-%d", def.Rating)
		if def.Temperature > 0 {
			spec += fmt.Sprintf(",temperature=%g", def.Temperature)
		}
		return spec, builtinOptions(def), nil
	}
	return "", nil, fmt.Errorf("engine %s: unknown type %q (want %s)", name, def.Type,
		strings.Join([]string{"easy", "medium", "hard", "knobs", "uci", "maia"}, ", "))
}
