package comparerun

import (
	"errors"
	"fmt"
	"net/url"
	"strings"
)

// GameRef is a parsed reference to a Lichess game.
type GameRef struct {
	// ID is the 8-character game id.
	ID string
	// Color is "white" or "black" when a URL named a side with a /white
	// or /black suffix, else "".
	Color string
}

// ErrBadGameRef marks a string that is not a Lichess game id or URL.
var ErrBadGameRef = errors.New("not a Lichess game id or game URL")

// ParseGameRef reads a Lichess game reference: an 8-character game id
// ("AbCdEfGh"), a 12-character full id (game id plus a player's 4
// characters), or a URL whose path starts with one of them, optionally
// followed by /white or /black and a #ply or ?query
// ("https://lichess.org/AbCdEfGh/black#32"). The URL's host may be
// lichess.org or lichess.dev (any subdomain), a host without a scheme
// ("lichess.org/AbCdEfGh"), or any http(s) host when allowAnyHost is true
// (a sandbox or a self-hosted Lichess).
func ParseGameRef(s string, allowAnyHost bool) (GameRef, error) {
	s = strings.TrimSpace(s)
	if s == "" {
		return GameRef{}, fmt.Errorf("empty game reference: %w", ErrBadGameRef)
	}
	if isGameID(s) {
		return GameRef{ID: s[:8]}, nil
	}
	raw := s
	if !strings.Contains(s, "://") {
		if !lichessHost(strings.SplitN(s, "/", 2)[0]) {
			return GameRef{}, fmt.Errorf("%q: %w", raw, ErrBadGameRef)
		}
		s = "https://" + s
	}
	u, err := url.Parse(s)
	if err != nil {
		return GameRef{}, fmt.Errorf("%q: %w", raw, ErrBadGameRef)
	}
	if u.Scheme != "http" && u.Scheme != "https" {
		return GameRef{}, fmt.Errorf("%q: scheme %q: %w", raw, u.Scheme, ErrBadGameRef)
	}
	if !allowAnyHost && !lichessHost(u.Hostname()) {
		return GameRef{}, fmt.Errorf("%q: host %q is not lichess.org: %w", raw, u.Hostname(), ErrBadGameRef)
	}
	if u.Host == "" {
		return GameRef{}, fmt.Errorf("%q: no host: %w", raw, ErrBadGameRef)
	}
	parts := strings.Split(strings.Trim(u.Path, "/"), "/")
	if len(parts) > 0 && parts[0] == "game" && len(parts) > 2 && parts[1] == "export" {
		parts = parts[2:] // /game/export/{id}
	}
	if len(parts) == 0 || len(parts) > 2 || !isGameID(parts[0]) || reservedPaths[strings.ToLower(parts[0])] {
		return GameRef{}, fmt.Errorf("%q: path %q is not /GAMEID[/white|/black]: %w", raw, u.Path, ErrBadGameRef)
	}
	ref := GameRef{ID: parts[0][:8]}
	if len(parts) == 2 {
		switch parts[1] {
		case "white", "black":
			ref.Color = parts[1]
		default:
			return GameRef{}, fmt.Errorf("%q: %q after the game id: want white or black: %w", raw, parts[1], ErrBadGameRef)
		}
	}
	return ref, nil
}

// reservedPaths are lichess.org pages whose names look like game ids.
var reservedPaths = map[string]bool{"analysis": true, "training": true, "practice": true, "streamer": true,
	"insights": true, "tutorial": true, "features": true, "learning": true, "calendar": true, "security": true}

// isGameID reports whether s is an 8- or 12-character alphanumeric id.
func isGameID(s string) bool {
	if len(s) != 8 && len(s) != 12 {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9') {
			return false
		}
	}
	return true
}

// lichessHost reports whether host is lichess.org or lichess.dev or one of
// their subdomains.
func lichessHost(host string) bool {
	host = strings.ToLower(host)
	for _, d := range []string{"lichess.org", "lichess.dev"} {
		if host == d || strings.HasSuffix(host, "."+d) {
			return true
		}
	}
	return false
}
