package config

import (
	"strings"
	"testing"
)

// TestRuleTournamentCondition: "" matches every game, "any" arena games,
// "none" the others, an id that arena only (any letter case).
func TestRuleTournamentCondition(t *testing.T) {
	cases := []struct {
		cond, game string
		want       bool
	}{
		{"", "", true}, {"", "abcd1234", true},
		{"any", "abcd1234", true}, {"any", "", false},
		{"none", "", true}, {"none", "abcd1234", false},
		{"abcd1234", "abcd1234", true}, {"ABCD1234", "abcd1234", true}, {"abcd1234", "zzzz9999", false}, {"abcd1234", "", false},
	}
	for _, c := range cases {
		r := Rule{Engine: "easy", Tournament: c.cond}
		if got := r.Matches(Opponent{Tournament: c.game}); got != c.want {
			t.Errorf("tournament = %q, game in %q: %v, want %v", c.cond, c.game, got, c.want)
		}
	}
}

// TestTournamentsValidation: bad ids, team ids, durations and a section
// with nothing to join are reported, naming the key.
func TestTournamentsValidation(t *testing.T) {
	cases := []struct {
		toml, key string
	}{
		{"[tournaments]\narenas = [\"short\"]", "tournaments.arenas"},
		{"[tournaments]\nenabled = true", "tournaments.arenas"},
		{"[tournaments]\nteams = [\"Bad Team\"]", "tournaments.teams"},
		{"[tournaments]\nentry_codes = { nope = \"x\" }", "tournaments.entry_codes"},
		{"[tournaments]\npoll = \"0s\"", "tournaments.poll"},
		{"[tournaments]\njoin_before = \"48h\"", "tournaments.join_before"},
		{"[[rules]]\ntournament = \"x\"\nengine = \"easy\"", "rules[0].tournament"},
		{"[challenge]\nmax_games = 1\n[tournaments]\nenabled = true\narenas = [\"abcd1234\"]", "tournaments.enabled"},
	}
	for _, c := range cases {
		_, err := Parse([]byte(c.toml), "t.toml")
		if err == nil || !strings.Contains(err.Error(), c.key) {
			t.Errorf("%q: %v, want a problem with %s", c.toml, err, c.key)
		}
	}
	cfg, err := Parse([]byte("[tournaments]\nenabled = true\narenas = [\"abcd1234\"]\nentry_codes = { abcd1234 = \"sesame\" }\n[[rules]]\ntournament = \"any\"\nengine = \"hard\""), "ok.toml")
	if err != nil {
		t.Fatal(err)
	}
	if cfg.Tournaments.EntryCodes["abcd1234"] != "sesame" || cfg.Rules[0].Tournament != "any" {
		t.Errorf("decoded %+v, rules %+v", cfg.Tournaments, cfg.Rules)
	}
}
