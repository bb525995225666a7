package sandbox

import (
	"slices"
	"strings"
)

// Game rules, as lila names them (lila.core.game.GameRule,
// modules/core/src/main/game/misc.scala), in lila's order. A challenge to a
// human or a bulk pairing may set them; lila's API refuses them in a
// challenge to a bot (controllers.Challenge.apiCreate: "Rules not
// applicable for bots").
const (
	RuleNoAbort     = "noAbort"     // Game.abortableByUser is false: no abort
	RuleNoRematch   = "noRematch"   // Rematcher.couldRematch is false: no rematch
	RuleNoGiveTime  = "noGiveTime"  // RoundGame.moretimeable is false: no extra time
	RuleNoClaimWin  = "noClaimWin"  // Game.forceResignable and forceDrawable are false: no claims
	RuleNoEarlyDraw = "noEarlyDraw" // Game.rulePreventsDraw before ply 60: no draw
)

// gameRuleOrder lists the rules in lila's enum order, which is the order
// the sandbox writes them in.
var gameRuleOrder = []string{RuleNoAbort, RuleNoRematch, RuleNoGiveTime, RuleNoClaimWin, RuleNoEarlyDraw}

// earlyDrawPlies is the ply before which noEarlyDraw forbids a draw: lila's
// Game.rulePreventsDraw is hasRule(noEarlyDraw) && playedTurns < 60, the
// plies played in the game (not counting a FEN's move number).
const earlyDrawPlies = 60

// parseRules reads a rules parameter as lila's SetupForm.api.rules does:
// names separated by commas, every one a GameRule, kept as a set. It
// returns the rules in lila's order, or ok false when a name is unknown.
func parseRules(v string) (rules []string, ok bool) {
	seen := map[string]bool{}
	for _, name := range strings.Split(v, ",") {
		name = strings.TrimSpace(name)
		if name == "" {
			continue
		}
		if !slices.Contains(gameRuleOrder, name) {
			return nil, false
		}
		seen[name] = true
	}
	for _, r := range gameRuleOrder {
		if seen[r] {
			rules = append(rules, r)
		}
	}
	return rules, true
}

// hasRule reports whether the game was created with a rule.
func (g *game) hasRule(rule string) bool { return slices.Contains(g.rules, rule) }

// abortableByUser is lila's Game.abortableByUser: abortable and no
// noAbort rule.
func (g *game) abortableByUser() bool { return g.abortable() && !g.hasRule(RuleNoAbort) }

// rulePreventsDraw is lila's Game.rulePreventsDraw: noEarlyDraw forbids
// draws (offers, acceptance, claims) for the first 60 plies played.
func (g *game) rulePreventsDraw() bool {
	return g.hasRule(RuleNoEarlyDraw) && g.plies() < earlyDrawPlies
}
