package daemon

import (
	"fmt"

	"github.com/outpostchess/outpost/config"
)

// SelectEngine returns the engine for an offer: the first [[rules]] entry all
// of whose set fields match, else the default. label says which rule chose
// it, for the log and the greeting.
func SelectEngine(rules []config.Rule, def string, o Offer) (engine, label string) {
	for i, r := range rules {
		if ruleMatches(r, o) {
			label = r.Name
			if label == "" {
				label = fmt.Sprintf("rules[%d]", i)
			}
			return r.Engine, label
		}
	}
	return def, "default"
}

func ruleMatches(r config.Rule, o Offer) bool {
	if len(r.Speeds) > 0 && !containsFold(r.Speeds, o.Speed) {
		return false
	}
	if len(r.Variants) > 0 && !containsFold(r.Variants, o.Variant) {
		return false
	}
	if r.Rated != nil && *r.Rated != o.Rated {
		return false
	}
	if r.MinRating > 0 && o.Rating < r.MinRating {
		return false
	}
	if r.MaxRating > 0 && o.Rating > r.MaxRating {
		return false
	}
	if len(r.Titles) > 0 {
		title := o.Title
		if title == "" {
			title = "none"
		}
		if !containsFold(r.Titles, title) {
			return false
		}
	}
	if r.Bot != nil && *r.Bot != o.Bot {
		return false
	}
	if r.Human != nil && *r.Human == o.Bot {
		return false
	}
	if len(r.Users) > 0 && !containsFold(r.Users, o.Challenger) {
		return false
	}
	return true
}
