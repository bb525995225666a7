package daemon

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/outpostchess/outpost/lichess"
)

// TestChallengeRulesReachTheRunner (#31.4): the rules of a challenge (its
// JSON's rules, the only place lila names them) go into the offer, and
// from the accepted offer into the game's slot, where the runner's
// configuration reads them.
func TestChallengeRulesReachTheRunner(t *testing.T) {
	rules := []string{lichess.RuleNoAbort, lichess.RuleNoClaimWin}
	o := offerOf(&lichess.Challenge{ID: "c1", Rules: rules, TimeControl: lichess.TimeControl{Type: "clock", Limit: 60}})
	assert.Equal(t, rules, o.Rules, "the offer's rules")
	d := &Daemon{games: map[string]*gameSlot{"c1": {rules: o.Rules}, "g2": {}}}
	assert.Equal(t, rules, d.gameRules("c1"))
	assert.Empty(t, d.gameRules("g2"), "a game without rules")
	assert.Empty(t, d.gameRules("gone"), "a game not running")
}
