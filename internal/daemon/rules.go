package daemon

import (
	"fmt"

	"github.com/outpostchess/outpost/config"
)

// selectEngine returns the engine for an offer by the configuration's
// [[rules]], and a label naming the rule that chose it (for the log).
func selectEngine(cfg *config.Config, o Offer) (engine, label string) {
	name, i := cfg.EngineFor(config.Opponent{Speed: o.Speed, Variant: o.Variant, Rated: o.Rated, Rating: o.Rating,
		Title: o.Title, Bot: o.Bot, Username: o.Challenger})
	switch {
	case i < 0:
		return name, "default"
	case cfg.Rules[i].Name != "":
		return name, cfg.Rules[i].Name
	}
	return name, fmt.Sprintf("rules[%d]", i)
}
