package lichess_test

import (
	"errors"
	"net/http"
	"reflect"
	"strings"
	"testing"

	"github.com/outpostchess/outpost/lichess"
)

// TestE2EChallengeRules: a challenge's rules go out as lila's rules
// parameter and come back in its JSON and the event stream's challenge
// event (lila's challenge JsonView); Lichess refuses them in a challenge to
// a bot; an unknown rule is refused before any request, naming it.
func TestE2EChallengeRules(t *testing.T) {
	e := newE2E(t)
	events, err := e.alice.StreamEvents(e.ctx)
	e.must(err)
	defer events.Close()
	rules := []string{lichess.RuleNoAbort, lichess.RuleNoEarlyDraw}
	ch, err := e.bot.CreateChallenge(e.ctx, "alice", lichess.ChallengeParams{Clock: &lichess.ChallengeClock{Limit: 60}, Rules: rules})
	e.must(err)
	if !reflect.DeepEqual(ch.Rules, rules) {
		t.Fatalf("the answer's rules: %v", ch.Rules)
	}
	if ev := next[*lichess.ChallengeEvent](t, events); !reflect.DeepEqual(ev.Challenge.Rules, rules) {
		t.Fatalf("the event's rules: %v", ev.Challenge.Rules)
	}
	_, err = e.alice.CreateChallenge(e.ctx, "bot1", lichess.ChallengeParams{Clock: &lichess.ChallengeClock{Limit: 60}, Rules: rules})
	var apiErr *lichess.APIError
	if !errors.As(err, &apiErr) || apiErr.Status != http.StatusBadRequest || !strings.Contains(err.Error(), "Rules not applicable for bots") {
		t.Fatalf("rules in a challenge to a bot: %v", err)
	}
	before := len(e.srv.Requests())
	_, err = e.alice.CreateChallenge(e.ctx, "bot1", lichess.ChallengeParams{Clock: &lichess.ChallengeClock{Limit: 60}, Rules: []string{"noTakeback"}})
	if err == nil || !strings.Contains(err.Error(), `"noTakeback"`) {
		t.Fatalf("an unknown rule: %v", err)
	}
	if len(e.srv.Requests()) != before {
		t.Fatal("an unknown rule was sent")
	}
}
