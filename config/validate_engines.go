package config

import (
	"fmt"
	"math"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/outpostchess/outpost/bots/enginepath"
)

// engineNamePattern is the shape of an engine or knob set name (also typed
// in chat, so kept simple).
var engineNamePattern = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9_-]{0,39}$`)

// engineField says which engine types a field of EngineConfig applies to.
type engineField struct {
	key   string
	set   func(e EngineConfig) bool
	types []string
}

// engineFields lists the type-specific fields of EngineConfig.
func engineFields() []engineField {
	uci := []string{EngineUCI}
	return []engineField{
		{"knobs", func(e EngineConfig) bool { return e.Knobs != "" }, []string{EngineKnobs}},
		{"path", func(e EngineConfig) bool { return e.Path != "" }, uci},
		{"args", func(e EngineConfig) bool { return len(e.Args) > 0 }, uci},
		{"options", func(e EngineConfig) bool { return len(e.Options) > 0 }, []string{EngineUCI, EngineMedium, EngineHard, EngineMaia}},
		{"elo", func(e EngineConfig) bool { return e.Elo != 0 }, uci},
		{"skill_level", func(e EngineConfig) bool { return e.SkillLevel != nil }, uci},
		{"hash_mb", func(e EngineConfig) bool { return e.HashMB != 0 }, uci},
		{"rating", func(e EngineConfig) bool { return e.Rating != 0 }, []string{EngineMaia}},
		{"temperature", func(e EngineConfig) bool { return e.Temperature != 0 }, []string{EngineMaia}},
		{"go_commands", func(e EngineConfig) bool { return !e.GoCommands.IsZero() }, uci},
	}
}

func (c *Config) checkEngines(ch *checker) {
	if c.Engines.Default == "" {
		ch.fail("engines.default", "", "must not be empty", strings.Join(c.EngineNames(), ", "))
	} else if _, err := c.ResolveEngine(c.Engines.Default); err != nil {
		ch.fail("engines.default", c.Engines.Default, "unknown engine"+didYouMean(c.Engines.Default, c.EngineNames()),
			strings.Join(c.EngineNames(), ", "))
	}
	names := make([]string, 0, len(c.Engines.Defs))
	for n := range c.Engines.Defs {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, name := range names {
		c.checkEngine(ch, name, c.Engines.Defs[name])
		c.checkEnginePonder(ch, name, c.Engines.Defs[name])
	}
	c.checkSyzygyShared(ch, names)
}

func (c *Config) checkEngine(ch *checker, name string, e EngineConfig) {
	key := joinKey("engines", name)
	if !engineNamePattern.MatchString(name) {
		ch.fail(key, name, "not a usable engine name", "1 to 40 letters, digits, '_' or '-', starting with a letter or digit")
	}
	if _, builtin := builtinEngine(name); builtin {
		ch.fail(key, name, "redefines a built-in engine name", "a name other than "+strings.Join(BuiltinEngines(), ", "))
	}
	if !slices.Contains(EngineTypes(), e.Type) {
		if e.Type == "" {
			ch.fail(key+".type", nil, "missing", strings.Join(EngineTypes(), ", "))
		} else {
			ch.fail(key+".type", e.Type, unknownWord(e.Type, EngineTypes()), strings.Join(EngineTypes(), ", "))
		}
	}
	for _, f := range engineFields() {
		if f.set(e) && e.Type != "" && !slices.Contains(f.types, e.Type) {
			ch.fail(key+"."+f.key, nil, "does not apply to type "+e.Type, "only for type "+strings.Join(f.types, ", "))
		}
	}
	ch.durRange(key+".move_overhead", e.MoveOverhead, 0, 10*time.Second)
	checkEngineSyzygy(ch, key, e)
	checkEngineBook(ch, key, e.Book)
	checkEngineLimits(ch, key, e)
	checkOnline(ch, key, e.Online)
	checkBuiltinOptions(ch, key, e)
	switch e.Type {
	case EngineKnobs:
		if e.Knobs != "" {
			if _, ok := c.Knobs[e.Knobs]; !ok {
				ch.fail(key+".knobs", e.Knobs, "no such knob set", knobSetNames(c)+" (define it as [knobs."+e.Knobs+"])")
			}
		}
	case EngineUCI:
		if strings.TrimSpace(e.Path) == "" {
			ch.fail(key+".path", nil, "missing: a uci engine needs its executable", `a path such as "/usr/local/bin/stockfish", or an engine name: `+strings.Join(enginepath.Names(), ", "))
		}
		ch.intRangeOrZero(key+".elo", e.Elo, 500, 3500, "(UCI_Elo; Stockfish 15.1 accepts 1350..2850)", "no limit")
		if e.SkillLevel != nil {
			ch.intRange(key+".skill_level", *e.SkillLevel, 0, 20, "(Stockfish's Skill Level)")
		}
		ch.intRange(key+".hash_mb", e.HashMB, 0, 65536, "MiB (0 = engine default)")
		optNames := make([]string, 0, len(e.Options))
		for o := range e.Options {
			optNames = append(optNames, o)
		}
		sort.Strings(optNames)
		for _, o := range optNames {
			checkUCIOption(ch, key, o, e)
		}
	case EngineMaia:
		ch.intRange(key+".rating", e.Rating, 1100, 1900, "(nearest of the nine Maia models)")
		if math.IsNaN(e.Temperature) || e.Temperature < 0 || e.Temperature > 2 {
			ch.fail(key+".temperature", e.Temperature, "out of range", "0..2 (0 = always the most likely move)")
		}
	}
}

// checkUCIOption checks one entry of an engine's options table.
func checkUCIOption(ch *checker, key, name string, e EngineConfig) {
	okey := joinKey(key+".options", name)
	if strings.TrimSpace(name) == "" || strings.ContainsAny(name, "\n\r") || strings.Contains(" "+name+" ", " value ") {
		ch.fail(okey, nil, "not a usable UCI option name", "an option name the engine reports (no line breaks, not containing the word \"value\")")
	}
	switch {
	case strings.EqualFold(name, "Hash") && e.HashMB != 0:
		ch.fail(okey, nil, "conflicts with hash_mb", "Hash in options or hash_mb, not both")
	case strings.EqualFold(name, "UCI_Elo") && e.Elo != 0:
		ch.fail(okey, nil, "conflicts with elo", "UCI_Elo in options or elo, not both")
	case strings.EqualFold(name, "Skill Level") && e.SkillLevel != nil:
		ch.fail(okey, nil, "conflicts with skill_level", "Skill Level in options or skill_level, not both")
	}
	if s, ok := e.Options[name].(string); ok && strings.ContainsAny(s, "\n\r") {
		ch.fail(okey, s, "contains a line break", "a single-line value")
	}
	// the options that size the engine's memory and threads have the same
	// bounds as hash_mb and `outpost analyse --threads`: an engine asked
	// for more takes the machine down, or silently ignores the value
	for _, b := range []struct {
		name    string
		max     int
		allowed string
	}{{"Hash", 65536, "1..65536 MiB (an integer), as hash_mb"}, {"Threads", 512, "1..512 (an integer; Stockfish 15.1's maximum)"}} {
		if !strings.EqualFold(name, b.name) {
			continue
		}
		if n, err := strconv.Atoi(fmt.Sprint(e.Options[name])); err != nil || n < 1 || n > b.max {
			ch.fail(okey, e.Options[name], "out of range", b.allowed)
		}
	}
}

// knobSetNames lists the defined knob sets for an error message.
func knobSetNames(c *Config) string {
	if len(c.Knobs) == 0 {
		return "no [knobs.NAME] sets are defined"
	}
	names := make([]string, 0, len(c.Knobs))
	for n := range c.Knobs {
		names = append(names, n)
	}
	sort.Strings(names)
	return strings.Join(names, ", ")
}

func (c *Config) checkKnobs(ch *checker) {
	names := make([]string, 0, len(c.Knobs))
	for n := range c.Knobs {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		key := joinKey("knobs", n)
		if !engineNamePattern.MatchString(n) {
			ch.fail(key, n, "not a usable knob set name", "1 to 40 letters, digits, '_' or '-', starting with a letter or digit")
		}
		for _, fe := range validateKnobSet(c.Knobs[n]) {
			if fe.Key == "" {
				fe.Key = key
			} else {
				fe.Key = joinKey(key, fe.Key)
			}
			ch.errs = append(ch.errs, fe)
		}
	}
}
