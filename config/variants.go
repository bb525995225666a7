package config

import (
	"fmt"
	"slices"
	"strings"

	"github.com/outpostchess/outpost/bots/engine"
)

// Variants returns the Lichess variants an engine of this definition plays
// (see bots/engine): the built-in search engines play
// engine.BuiltinVariants (Chess960 included), Maia engine.NeuralVariants; an
// external UCI engine is taken to offer UCI_Chess960, as Stockfish and most
// current engines do (the daemon checks the running engine when a game
// starts and aborts, before any move, a game its engine cannot play).
func (e EngineConfig) Variants() []string {
	switch e.Type {
	case EngineUCI:
		return engine.UCIVariants(true)
	case EngineMaia:
		return engine.NeuralVariants()
	}
	return engine.BuiltinVariants()
}

// PlaysVariant reports whether the named engine plays variant v: an
// [engines.NAME] definition or a built-in name, or else an engine spec the
// daemon's factory builds directly ("stockfish", "uci:/path" as UCI engines,
// anything else as a built-in).
func (c *Config) PlaysVariant(name, v string) bool {
	def, err := c.ResolveEngine(name)
	if err != nil {
		def = EngineConfig{Type: EngineEasy}
		if name == "stockfish" || strings.HasPrefix(name, "uci:") {
			def.Type = EngineUCI
		}
	}
	return slices.Contains(def.Variants(), v)
}

// variantEngines lists, without duplicates, the engines that may be chosen
// for a game in variant v: the default engine and the engine of every rule
// that does not exclude v.
func (c *Config) variantEngines(v string) []string {
	names := []string{c.Engines.Default}
	for _, r := range c.Rules {
		if (len(r.Variants) == 0 || slices.Contains(r.Variants, v)) && !slices.Contains(names, r.Engine) {
			names = append(names, r.Engine)
		}
	}
	return names
}

// checkVariantsPlayable rejects an accepted (or matchmaking) variant that no
// engine the daemon may choose for it can play: such a challenge would be
// accepted and then lost.
func (c *Config) checkVariantsPlayable(ch *checker) {
	playable := func(v string) ([]string, bool) {
		names := c.variantEngines(v)
		for _, n := range names {
			if c.PlaysVariant(n, v) {
				return names, true
			}
		}
		return names, false
	}
	for _, v := range c.Challenge.Variants {
		if !slices.Contains(Variants(), v) {
			continue // reported by the vocabulary check
		}
		if names, ok := playable(v); !ok {
			ch.fail("challenge.variants", v,
				fmt.Sprintf("no configured engine plays this variant (engines that may be chosen for it: %s)", strings.Join(names, ", ")),
				"variants an engine plays: "+strings.Join(c.playableVariants(), ", "))
		}
	}
	if m := c.Matchmaking; m.Enabled && m.Variant != "" && slices.Contains(Variants(), m.Variant) {
		if names, ok := playable(m.Variant); !ok {
			ch.fail("matchmaking.variant", m.Variant,
				fmt.Sprintf("no configured engine plays this variant (engines that may be chosen for it: %s)", strings.Join(names, ", ")),
				"variants an engine plays: "+strings.Join(c.playableVariants(), ", "))
		}
	}
}

// playableVariants lists the Lichess variants some configured engine plays.
func (c *Config) playableVariants() []string {
	var out []string
	for _, v := range Variants() {
		for _, n := range c.variantEngines(v) {
			if c.PlaysVariant(n, v) {
				out = append(out, v)
				break
			}
		}
	}
	return out
}
