package daemon

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/outpostchess/outpost/config"
)

// TestRefuseUnplayable checks that a challenge the policy would accept is
// declined with Lichess's "variant" reason when the engine the rules choose
// for it does not play its variant, and accepted when it does.
func TestRefuseUnplayable(t *testing.T) {
	cfg := config.Default()
	cfg.Engines.Default = "medium"
	cfg.Challenge.Variants = []string{"standard", "fromPosition", "chess960", "crazyhouse"}
	cfg.Engines.Defs = map[string]config.EngineConfig{"sf": {Type: config.EngineUCI, Path: "/usr/games/stockfish"}}
	cfg.Rules = []config.Rule{{Variants: []string{"chess960"}, MinRating: 2000, Engine: "sf"}}
	tests := []struct {
		name    string
		variant string
		rating  int
		accept  bool
	}{
		{"standard", "standard", 1500, true},
		{"from position", "fromPosition", 1500, true},
		{"chess960 to a UCI engine", "chess960", 2100, true},
		{"chess960 to a built-in engine", "chess960", 1500, true},
		{"crazyhouse: nobody plays it", "crazyhouse", 2100, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			o := baseOffer()
			o.Variant, o.Rating = tc.variant, tc.rating
			v := refuseUnplayable(cfg, o, Verdict{Accept: true})
			assert.Equal(t, tc.accept, v.Accept, v.Why)
			if !tc.accept {
				assert.Equal(t, ReasonVariant, v.Reason)
				assert.Contains(t, v.Why, tc.variant)
			}
		})
	}
	// Maia plays standard chess only.
	maia := *cfg
	maia.Engines.Default = "maia-1500"
	o := baseOffer()
	o.Variant, o.Rating = "chess960", 1500
	if v := refuseUnplayable(&maia, o, Verdict{Accept: true}); v.Accept || v.Reason != ReasonVariant {
		t.Errorf("chess960 to Maia: %+v", v)
	}
	// A variant no engine plays is refused as "variant" even when the
	// policy left it out and accepts standard chess (it said "standard").
	std := *cfg
	std.Challenge.Variants = []string{"standard", "chess960"}
	for _, key := range []string{"crazyhouse", "atomic", "antichess", "horde", "kingOfTheHill", "racingKings", "threeCheck"} {
		o := baseOffer()
		o.Variant = key
		v := refuseUnplayable(&std, o, Decide(std.Challenge, o, Load{}))
		assert.Equal(t, ReasonVariant, v.Reason, "%s: %+v", key, v)
	}
	// A variant an engine plays but the operator refused stays "standard".
	o = baseOffer()
	o.Variant = "fromPosition"
	o.FEN = "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1"
	if v := refuseUnplayable(&std, o, Decide(std.Challenge, o, Load{})); v.Reason != ReasonStandard {
		t.Errorf("fromPosition left out by the operator: %+v", v)
	}
	// A refusal stays a refusal.
	v := refuseUnplayable(cfg, baseOffer(), refuse(ReasonTooFast, "too fast"))
	assert.Equal(t, ReasonTooFast, v.Reason)
}
