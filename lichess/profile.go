package lichess

import (
	"fmt"
	"io"
	"sort"
	"strings"
	"time"
)

// WriteProfile writes a short profile of an account for a terminal: name
// and id, BOT or human, title, creation date, game counts, ratings of the
// categories played, a disabled or TOS-flagged status, and — with info —
// the token's scopes and expiry. It never writes the token itself.
func WriteProfile(w io.Writer, u *User, info *TokenInfo) {
	kind := "human (Board API)"
	if u.IsBot() {
		kind = "BOT (BOT API)"
	}
	fmt.Fprintf(w, "account:  %s (id %s)\n", u.Username, u.ID)
	fmt.Fprintf(w, "type:     %s\n", kind)
	if u.Title != "" && !u.IsBot() {
		fmt.Fprintf(w, "title:    %s\n", u.Title)
	}
	if u.CreatedAt > 0 {
		fmt.Fprintf(w, "created:  %s\n", time.UnixMilli(u.CreatedAt).UTC().Format("2006-01-02"))
	}
	if u.Count != nil {
		fmt.Fprintf(w, "games:    %d (won %d, drawn %d, lost %d; playing now %d)\n", u.Count.All, u.Count.Win, u.Count.Draw, u.Count.Loss, u.Count.Playing)
	}
	var perfs []string
	for name, p := range u.Perfs {
		if p.Games > 0 && p.Rating > 0 {
			prov := ""
			if p.Prov {
				prov = "?"
			}
			perfs = append(perfs, fmt.Sprintf("%s %d%s (%d games)", name, p.Rating, prov, p.Games))
		}
	}
	sort.Strings(perfs)
	if len(perfs) > 0 {
		fmt.Fprintf(w, "ratings:  %s\n", strings.Join(perfs, ", "))
	}
	if u.Disabled || u.TosViolation {
		fmt.Fprintf(w, "status:   disabled=%v tosViolation=%v\n", u.Disabled, u.TosViolation)
	}
	if info != nil {
		scopes := strings.Join(info.Scopes, ", ")
		if scopes == "" {
			scopes = "(none)"
		}
		fmt.Fprintf(w, "token:    scopes %s", scopes)
		if !info.Expires.IsZero() {
			fmt.Fprintf(w, "; expires %s", info.Expires.UTC().Format(time.RFC3339))
		}
		fmt.Fprintln(w)
	}
}
