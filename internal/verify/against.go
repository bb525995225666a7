package verify

import (
	"net/url"

	"github.com/outpostchess/outpost/analysis"
)

// Against names what a verification compared against, as the output says
// it: Lichess itself, or the sandbox standing in for it, whose analysis is
// our own Stockfish under Lichess's rules — a check against the stand-in
// shows that the pipeline works, not that our analysis matches Lichess's.
type Against string

// What a verification runs against.
const (
	Lichess Against = "Lichess"
	StandIn Against = "the sandbox's Lichess stand-in"
)

// Possessive is the name's possessive form ("Lichess's"); the zero value
// is Lichess.
func (a Against) Possessive() string { return a.Name() + "'s" }

// Name is the name; the zero value is Lichess.
func (a Against) Name() string {
	if a == "" {
		return string(Lichess)
	}
	return string(a)
}

// AgainstURL is what a verification against a Lichess API base URL
// ([lichess] url) compares with: Lichess for lichess.org and its
// subdomains (the default URL), the sandbox's stand-in for any other host
// — the only other server Outpost runs against is `outpost sandbox`
// (docs/sandbox.md).
func AgainstURL(baseURL string) Against {
	u, err := url.Parse(baseURL)
	if baseURL == "" || err == nil && analysis.IsLichessHost(u.Hostname()) {
		return Lichess
	}
	return StandIn
}
