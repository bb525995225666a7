package analysis

import (
	"net/url"
	"strings"
)

// IsLichessHost reports whether a host name is lichess.org or one of its
// subdomains (case and a trailing dot ignored).
func IsLichessHost(h string) bool {
	h = strings.ToLower(strings.TrimSuffix(h, "."))
	return h == "lichess.org" || strings.HasSuffix(h, ".lichess.org")
}

// ServerOf names the server whose analysis a game carries, from its Site
// tag: "" for Lichess — a lichess.org URL, or a Site that is no http(s)
// URL at all (a PGN written by hand or by another program; its [%eval]
// comments are taken as Lichess's, as before) — else the URL's host
// ("127.0.0.1:9663" for a game exported from `outpost sandbox`, whose
// analysis is our own Stockfish under Lichess's rules).
func ServerOf(site string) string {
	u, err := url.Parse(strings.TrimSpace(site))
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || IsLichessHost(u.Hostname()) {
		return ""
	}
	return u.Host
}

// AgainstName is what the reports call the analysis c compared with:
// "Lichess", or "the Lichess stand-in at HOST" when it came from another
// server (Against).
func (c *Comparison) AgainstName() string {
	if c.Against == "" {
		return "Lichess"
	}
	return "the Lichess stand-in at " + c.Against
}

// AgainstLabel is AgainstName for a column or a count: "Lichess" or
// "stand-in".
func (c *Comparison) AgainstLabel() string {
	if c.Against == "" {
		return "Lichess"
	}
	return "stand-in"
}
