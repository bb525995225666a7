package config

import (
	"regexp"
	"strconv"
	"strings"
	"time"
)

// TournamentsConfig is the [tournaments] section: Lichess arenas the bot
// joins (lila admits BOT accounts to arenas whose conditions allow bots,
// never to Swiss tournaments). The daemon joins each arena JoinBefore its
// start (or at once when it has started), keeps a real-time game slot free
// for it while joined, and withdraws when it stops or the arena ends.
type TournamentsConfig struct {
	Enabled bool `toml:"enabled"`
	// Arenas are arena ids to join.
	Arenas []string `toml:"arenas"`
	// Creators and Teams: also join every upcoming arena allowing bots
	// that one of these users created, or that one of these teams holds.
	Creators []string `toml:"creators"`
	Teams    []string `toml:"teams"`
	// Team is the team to play for in a team battle ("" = none).
	Team string `toml:"team"`
	// EntryCodes are the entry codes (passwords) of private arenas, by id.
	EntryCodes map[string]string `toml:"entry_codes"`
	// JoinBefore is how long before its start an arena is joined.
	JoinBefore time.Duration `toml:"join_before"`
	// Poll is how often the arenas are looked at (their state, and the
	// creators' and teams' new arenas).
	Poll time.Duration `toml:"poll"`
}

// defaultTournaments is the section's default: off.
func defaultTournaments() TournamentsConfig {
	return TournamentsConfig{Arenas: []string{}, Creators: []string{}, Teams: []string{}, EntryCodes: map[string]string{},
		JoinBefore: time.Minute, Poll: 30 * time.Second}
}

// tournamentID is the shape of a Lichess arena id (8 letters and digits).
var tournamentID = regexp.MustCompile(`^[A-Za-z0-9]{8}$`)

// teamID is the shape of a Lichess team id (its slug).
var teamID = regexp.MustCompile(`^[a-z0-9][a-z0-9-]{0,59}$`)

func (c *Config) checkTournaments(ch *checker) {
	t := c.Tournaments
	for _, id := range t.Arenas {
		if !tournamentID.MatchString(id) {
			ch.fail("tournaments.arenas", id, "not an arena id", "the 8 letters and digits of lichess.org/tournament/ID")
		}
	}
	for id := range t.EntryCodes {
		if !tournamentID.MatchString(id) {
			ch.fail("tournaments.entry_codes", id, "key is not an arena id", "the 8 letters and digits of lichess.org/tournament/ID")
		}
	}
	ch.users("tournaments.creators", t.Creators)
	for _, team := range append(append([]string(nil), t.Teams...), nonEmpty(t.Team)...) {
		if !teamID.MatchString(team) {
			ch.fail("tournaments.teams", team, "not a team id", "the lower-case id of lichess.org/team/ID")
		}
	}
	if t.Enabled && len(t.Arenas)+len(t.Creators)+len(t.Teams) == 0 {
		ch.fail("tournaments.arenas", rawValue("[]"), "nothing to join: arenas, creators and teams are all empty",
			`arena ids such as ["hL7vMrFQ"], or creators or teams`)
	}
	ch.durRange("tournaments.join_before", t.JoinBefore, 0, 24*time.Hour)
	ch.durRange("tournaments.poll", t.Poll, time.Second, time.Hour)
	if t.Enabled && c.Challenge.MaxGames < 2 {
		ch.fail("tournaments.enabled", true, "challenge.max_games is "+strconv.Itoa(c.Challenge.MaxGames)+
			": a slot kept free for the arena leaves no room for challenges", "challenge.max_games of at least 2")
	}
	for i, r := range c.Rules {
		if r.Tournament != "" && r.Tournament != "any" && r.Tournament != "none" && !tournamentID.MatchString(r.Tournament) {
			ch.fail(indexKey("rules", i)+".tournament", r.Tournament, "not an arena id", `an arena id, "any" (every arena game) or "none" (no arena game)`)
		}
	}
}

// matchesTournament is the rule's tournament condition: "" matches every
// game, "any" every arena game, "none" the others, an id that arena's.
func (r Rule) matchesTournament(id string) bool {
	switch r.Tournament {
	case "":
		return true
	case "any":
		return id != ""
	case "none":
		return id == ""
	}
	return strings.EqualFold(r.Tournament, id)
}

func nonEmpty(s string) []string {
	if s == "" {
		return nil
	}
	return []string{s}
}
