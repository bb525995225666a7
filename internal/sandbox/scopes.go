package sandbox

import (
	"fmt"
	"net/http"
	"slices"
	"strings"
)

// Token scopes, as lila checks them (modules/oauth/src/main/OAuthScope.scala,
// OAuthServer.auth; app/controllers/LilaController.scala handleScopedCommon
// and handleScopedFail). A route accepts a list of scopes and a token with
// any one of them passes; one with none gets 403 {"error":"Missing scope:
// A || B"}. Every answer of a scoped route carries X-OAuth-Scopes (the
// token's scopes) and X-Accepted-OAuth-Scopes (the route's).

// AllScopes are lila's scope keys (OAuthScope.all), in lila's order.
var AllScopes = []string{
	"preference:read", "preference:write", "email:read",
	"challenge:read", "challenge:write", "challenge:bulk",
	"study:read", "study:write", "tournament:write", "racer:write",
	"puzzle:read", "puzzle:write", "team:read", "team:write", "team:lead",
	"follow:read", "follow:write", "msg:write", "board:play", "bot:play",
	"engine:read", "engine:write", "web:login", "web:mobile", "web:mod",
}

// ParseScopes parses a comma-separated list of lila scope keys ("" is no
// scope at all). An unknown or repeated key is an error naming it.
func ParseScopes(list string) ([]string, error) {
	out := []string{}
	if strings.TrimSpace(list) == "" {
		return out, nil
	}
	for _, s := range strings.Split(list, ",") {
		s = strings.TrimSpace(s)
		switch {
		case s == "":
			return nil, fmt.Errorf("scopes %q: an empty scope between commas", list)
		case !slices.Contains(AllScopes, s):
			return nil, fmt.Errorf("scopes %q: unknown scope %q (lila's scopes: %s)", list, s, strings.Join(AllScopes, ","))
		case slices.Contains(out, s):
			return nil, fmt.Errorf("scopes %q: scope %q given twice", list, s)
		}
		out = append(out, s)
	}
	return out, nil
}

// defaultScopes are the scopes of an account's token when its Account
// gives none: what a bot (or a player through the Board API) needs to
// play, challenge and join arenas, and the external-engine scopes.
func defaultScopes(bot bool) []string {
	play := "board:play"
	if bot {
		play = "bot:play"
	}
	return []string{play, "challenge:read", "challenge:write", "tournament:write", "engine:read", "engine:write"}
}

// tokenScopesOf is the scope list of a new account's token: the Account's
// own when set (even empty), else the defaults of its kind. It is fixed
// when the token is made: an upgrade to BOT changes the account, not the
// scopes of its token, as on Lichess.
func tokenScopesOf(a Account) []string {
	if a.Scopes != nil {
		return slices.Clone(a.Scopes)
	}
	return defaultScopes(a.Bot)
}

// scopes is the scope string of an account's token (lila's keyList: keys
// joined by commas).
func scopes(a *account) string { return strings.Join(a.tokenScopes, ",") }

// hasScope reports whether acc's token has scope.
func (a *account) hasScope(scope string) bool { return slices.Contains(a.tokenScopes, scope) }

// routeScopes are the scopes each authenticated route accepts, by "METHOD
// pattern", from lila's controllers: app/controllers/Bot.scala (every BOT
// endpoint and the upgrade: Bot.Play), PlayApi.scala (Board.Play),
// Api.scala eventStream, Challenge.scala (apiList, apiCreate, apiAccept,
// apiDecline, apiCancel), Tournament.scala (join, withdraw),
// ExternalEngine.scala (Engine.Read, Engine.Write), Account.scala (apiMe,
// apiNowPlaying: Scoped(), any token). A route not listed accepts any token
// (lila's Scoped(), OpenOrScoped(), AnonOrScoped()); TestEveryRouteHasScopes
// keeps the table in step with the route table.
var routeScopes = map[string][]string{
	"GET /api/account":                          {},
	"GET /api/account/playing":                  {},
	"POST /api/bot/account/upgrade":             {"bot:play"},
	"GET /api/stream/event":                     {"challenge:read", "bot:play", "board:play", "web:mobile"},
	"GET /api/challenge":                        {"challenge:read", "web:mobile"},
	"POST /api/challenge/{username}":            {"challenge:write", "bot:play", "board:play", "web:mobile"},
	"POST /api/bulk-pairing":                    {"challenge:bulk", "challenge:write"}, // lila controllers.BulkPairing create: Scoped(_.Challenge.Bulk); the sandbox also takes challenge:write (its default tokens have no bulk scope)
	"POST /api/challenge/{challengeId}/accept":  {"challenge:write", "bot:play", "board:play", "web:mobile"},
	"POST /api/challenge/{challengeId}/decline": {"challenge:write", "bot:play", "board:play", "web:mobile"},
	"POST /api/challenge/{challengeId}/cancel":  {"challenge:write", "bot:play", "board:play", "web:mobile"},
	"POST /api/tournament/{id}/join":            {"tournament:write"},
	"POST /api/tournament/{id}/withdraw":        {"tournament:write"},
	"GET /api/external-engine":                  {"engine:read"},
	"GET /api/external-engine/{id}":             {"engine:read"},
	"POST /api/external-engine":                 {"engine:write"},
	"PUT /api/external-engine/{id}":             {"engine:write"},
	"DELETE /api/external-engine/{id}":          {"engine:write"},
	"GET /api/bot/game/stream/{gameId}":         {"bot:play"},
	"GET /api/board/game/stream/{gameId}":       {"board:play"},
}

// acceptedScopes is what route r accepts: its entry in routeScopes, else
// the scope of its API (/api/bot: bot:play, /api/board: board:play), else
// nothing (any token).
func acceptedScopes(r route) []string {
	if s, ok := routeScopes[r.method+" "+r.pattern]; ok {
		return s
	}
	switch {
	case strings.HasPrefix(r.pattern, "/api/bot/"):
		return []string{"bot:play"}
	case strings.HasPrefix(r.pattern, "/api/board/"):
		return []string{"board:play"}
	}
	return nil
}

// scopeHeaders sets lila's scope headers (OAuthServer.responseHeaders):
// the token's scopes (none for a token that failed) and the route's.
func scopeHeaders(w http.ResponseWriter, acc *account, accepted []string) {
	have := ""
	if acc != nil {
		have = scopes(acc)
	}
	w.Header().Set("X-OAuth-Scopes", have)
	w.Header().Set("X-Accepted-OAuth-Scopes", strings.Join(accepted, ","))
}

// missingScope answers lila's 403 when acc's token has none of accepted
// (OAuthServer.MissingScope: "Missing scope: " and the accepted keys joined
// by " || "), and reports whether it did.
func missingScope(w http.ResponseWriter, acc *account, accepted []string) bool {
	if len(accepted) == 0 || slices.ContainsFunc(accepted, acc.hasScope) {
		return false
	}
	writeError(w, http.StatusForbidden, "Missing scope: "+strings.Join(accepted, " || "))
	return true
}
