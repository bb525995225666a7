package config

import (
	"errors"
	"net/url"
	"regexp"
	"strings"
)

// Lichess limits and vocabularies the configuration is checked against.
const (
	maxClockBase      = 10800 // seconds: Lichess's longest initial clock (180 minutes)
	maxClockIncrement = 180   // seconds: Lichess's largest increment
	maxCorrDays       = 14    // days per move: Lichess's longest correspondence setting
	maxRating         = 4000  // a bound above every Lichess rating
	maxBotDailyBudget = 100   // Lichess: bot-vs-bot games per day
	chatLineMax       = 140   // Lichess: characters in one chat message
)

// Variants lists the Lichess variant keys.
func Variants() []string {
	return []string{"standard", "fromPosition", "chess960", "crazyhouse", "antichess", "atomic",
		"horde", "kingOfTheHill", "racingKings", "threeCheck"}
}

// BotSpeeds lists the speeds a BOT account may play (Lichess forbids bots
// UltraBullet).
func BotSpeeds() []string {
	return []string{"bullet", "blitz", "rapid", "classical", "correspondence"}
}

// Titles lists the Lichess titles a rule can match; "none" matches an
// untitled player.
func Titles() []string {
	return []string{"GM", "WGM", "IM", "WIM", "FM", "WFM", "NM", "CM", "WCM", "WNM", "LM", "BOT", "none"}
}

// usernamePattern is the shape of a Lichess username.
var usernamePattern = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9_-]{0,28}[A-Za-z0-9]$`)

// ValidUsername reports whether name has the shape of a Lichess username.
func ValidUsername(name string) bool { return usernamePattern.MatchString(name) }

// looksLikeToken reports whether s has the shape of a Lichess API token
// (personal "lip_…" or OAuth "lio_…").
func looksLikeToken(s string) bool {
	s = strings.TrimSpace(s)
	return len(s) >= 12 && (strings.HasPrefix(s, "lip_") || strings.HasPrefix(s, "lio_")) &&
		!strings.ContainsAny(s, "/\\. ")
}

// CheckBlockListSource checks a [matchmaking] block_list_sources entry: an
// http(s) URL with a host, or a non-empty file path.
func CheckBlockListSource(src string) error {
	switch {
	case strings.TrimSpace(src) == "":
		return errors.New("empty source")
	case strings.HasPrefix(src, "http://") || strings.HasPrefix(src, "https://"):
		u, err := url.Parse(src)
		if err != nil || u.Host == "" {
			return errors.New("not a valid http(s) URL")
		}
	case strings.Contains(src, "://"):
		return errors.New("unsupported URL scheme (want http or https)")
	}
	return nil
}
