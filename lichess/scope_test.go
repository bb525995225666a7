package lichess_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/outpostchess/outpost/lichess"
)

// TestMissingScopeFromAnEndpoint: Lichess's 403 for a token without the
// endpoint's scope (sent by the sandbox as lila does: "Missing scope: …"
// and the X-OAuth-Scopes / X-Accepted-OAuth-Scopes headers) is
// ErrMissingScope, and its message says which scopes the token has and
// which the endpoint accepts. Before, it was only a 403 ErrForbidden.
func TestMissingScopeFromAnEndpoint(t *testing.T) {
	e := newE2E(t)
	// alice's token has board:play, not bot:play
	err := e.alice.UpgradeToBot(e.ctx)
	if !errors.Is(err, lichess.ErrMissingScope) || !errors.Is(err, lichess.ErrForbidden) {
		t.Fatalf("upgrade with a board:play token: %v", err)
	}
	var api *lichess.APIError
	if !errors.As(err, &api) || api.AcceptedScopes != "bot:play" || !strings.Contains(api.TokenScopes, "board:play") {
		t.Fatalf("scope headers: %+v", api)
	}
	for _, want := range []string{"Missing scope: bot:play", "the token has [board:play,", "accepts any of [bot:play]"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("%q lacks %q", err, want)
		}
	}
	// Another 403 is no missing scope.
	if (&lichess.APIError{Status: 403, Message: "You can't do that"}).MissingScope() {
		t.Error("a plain 403 taken for a missing scope")
	}
}
