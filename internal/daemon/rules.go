package daemon

import (
	"fmt"

	"github.com/outpostchess/outpost/config"
)

// refuseUnplayable turns an accepting verdict into a decline with Lichess's
// "variant" reason when the engine the rules choose for the offer does not
// play its variant: a game the engine cannot play must never be accepted.
func refuseUnplayable(cfg *config.Config, o Offer, v Verdict) Verdict {
	// A variant refusal says "standard" (only standard chess wanted) when
	// the operator left the variant out; a variant the engine cannot play
	// at all is refused as "variant", as Lichess's DeclineReason.Variant
	// ("I'm not willing to play this variant right now").
	if !v.Accept && v.Reason != ReasonStandard {
		return v
	}
	name, _ := selectEngine(cfg, o)
	if !cfg.PlaysVariant(name, o.Variant) {
		return refuse(ReasonVariant, fmt.Sprintf("engine %s does not play %s", name, o.Variant))
	}
	return v
}

// selectEngine returns the engine for an offer by the configuration's
// [[rules]], and a label naming the rule that chose it (for the log).
func selectEngine(cfg *config.Config, o Offer) (engine, label string) {
	name, i := cfg.EngineFor(config.Opponent{Speed: o.Speed, Variant: o.Variant, Rated: o.Rated, Rating: o.Rating,
		Title: o.Title, Bot: o.Bot, Username: o.Challenger, Tournament: o.Tournament})
	switch {
	case i < 0:
		return name, "default"
	case cfg.Rules[i].Name != "":
		return name, cfg.Rules[i].Name
	}
	return name, fmt.Sprintf("rules[%d]", i)
}
