package config

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// Engine types an [engines.NAME] definition can have.
const (
	EngineEasy   = "easy"
	EngineMedium = "medium"
	EngineHard   = "hard"
	EngineKnobs  = "knobs"
	EngineUCI    = "uci"
	EngineMaia   = "maia"
)

// EngineTypes lists the engine types in the order the documentation uses.
func EngineTypes() []string {
	return []string{EngineEasy, EngineMedium, EngineHard, EngineKnobs, EngineUCI, EngineMaia}
}

// MaiaRatings lists the ratings of the Maia-1 models (1100 to 1900).
func MaiaRatings() []int {
	out := make([]int, 0, 9)
	for r := 1100; r <= 1900; r += 100 {
		out = append(out, r)
	}
	return out
}

// BuiltinEngines lists the engine names usable without a definition: easy,
// medium, hard, knobs (the default knob set) and maia-1100 … maia-1900.
func BuiltinEngines() []string {
	out := []string{EngineEasy, EngineMedium, EngineHard, EngineKnobs}
	for _, r := range MaiaRatings() {
		out = append(out, "maia-"+strconv.Itoa(r))
	}
	return out
}

// builtinEngine returns the definition behind a built-in name.
func builtinEngine(name string) (EngineConfig, bool) {
	switch name {
	case EngineEasy, EngineMedium, EngineHard, EngineKnobs:
		return EngineConfig{Type: name}, true
	}
	if r, ok := strings.CutPrefix(name, "maia-"); ok {
		n, err := strconv.Atoi(r)
		if err == nil && slices.Contains(MaiaRatings(), n) && strconv.Itoa(n) == r {
			return EngineConfig{Type: EngineMaia, Rating: n}, true
		}
	}
	return EngineConfig{}, false
}

// EngineNames lists every engine name the configuration can refer to: the
// built-ins followed by the defined names, sorted.
func (c *Config) EngineNames() []string {
	defined := make([]string, 0, len(c.Engines.Defs))
	for n := range c.Engines.Defs {
		if _, builtin := builtinEngine(n); !builtin {
			defined = append(defined, n)
		}
	}
	slices.Sort(defined)
	return append(BuiltinEngines(), defined...)
}

// ResolveEngine returns the definition of the named engine: an
// [engines.NAME] table, or the implied definition of a built-in name.
func (c *Config) ResolveEngine(name string) (EngineConfig, error) {
	if def, ok := c.Engines.Defs[name]; ok {
		return def, nil
	}
	if def, ok := builtinEngine(name); ok {
		return def, nil
	}
	return EngineConfig{}, fmt.Errorf("config: unknown engine %q (known: %s)", name, strings.Join(c.EngineNames(), ", "))
}

// Opponent describes a challenge as the engine rules see it.
type Opponent struct {
	Speed    string // bullet, blitz, rapid, classical, correspondence
	Variant  string // Lichess variant key
	Rated    bool
	Rating   int    // opponent's rating in this speed; 0 = unknown
	Title    string // "" when untitled
	Bot      bool   // a BOT account
	Username string
	// Tournament is the arena id of an arena game ("" otherwise).
	Tournament string
}

// EngineFor returns the engine that plays against o: the engine of the
// first matching rule and that rule's index, or Engines.Default and -1.
func (c *Config) EngineFor(o Opponent) (name string, rule int) {
	for i, r := range c.Rules {
		if r.Matches(o) {
			return r.Engine, i
		}
	}
	return c.Engines.Default, -1
}

// Matches reports whether every match field the rule sets agrees with o.
func (r Rule) Matches(o Opponent) bool {
	if len(r.Speeds) > 0 && !slices.Contains(r.Speeds, o.Speed) {
		return false
	}
	if len(r.Variants) > 0 && !slices.Contains(r.Variants, o.Variant) {
		return false
	}
	if r.Rated != nil && *r.Rated != o.Rated {
		return false
	}
	if r.MinRating > 0 && (o.Rating == 0 || o.Rating < r.MinRating) {
		return false
	}
	if r.MaxRating > 0 && (o.Rating == 0 || o.Rating > r.MaxRating) {
		return false
	}
	if len(r.Titles) > 0 {
		title := o.Title
		if title == "" {
			title = "none"
		}
		if !slices.ContainsFunc(r.Titles, func(t string) bool { return strings.EqualFold(t, title) }) {
			return false
		}
	}
	if r.Bot != nil && *r.Bot != o.Bot {
		return false
	}
	if r.Human != nil && *r.Human == o.Bot {
		return false
	}
	if len(r.Users) > 0 && !slices.ContainsFunc(r.Users, func(u string) bool { return strings.EqualFold(u, o.Username) }) {
		return false
	}
	return r.matchesTournament(o.Tournament)
}
