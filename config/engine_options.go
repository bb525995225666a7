package config

import (
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/outpostchess/outpost/bots/search"
)

// builtinOptions lists, per built-in engine type, the options its Configure
// takes through [engines.NAME.options] (matched case-insensitively).
func builtinOptions(typ string) []string {
	switch typ {
	case EngineMedium, EngineHard:
		return []string{"Hash", "Features", "Disable"} // bots/search: TT MiB, feature set, features off
	case EngineMaia:
		return []string{"temperature", "seed"}
	}
	return nil
}

// checkBuiltinOptions checks [engines.NAME.options] of a built-in engine:
// known names, and values of the right kind.
func checkBuiltinOptions(ch *checker, key string, e EngineConfig) {
	allowed := builtinOptions(e.Type)
	if allowed == nil || len(e.Options) == 0 {
		return
	}
	names := make([]string, 0, len(e.Options))
	for n := range e.Options {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		okey := joinKey(key+".options", n)
		i := slices.IndexFunc(allowed, func(a string) bool { return strings.EqualFold(a, n) })
		if i < 0 {
			ch.fail(okey, nil, "not an option of type "+e.Type+didYouMean(n, allowed), strings.Join(allowed, ", "))
			continue
		}
		v := fmt.Sprint(e.Options[n])
		switch allowed[i] {
		case "Hash":
			if mb, err := strconv.Atoi(v); err != nil || mb < 1 || mb > 4096 {
				ch.fail(okey, e.Options[n], "out of range", "1..4096 MiB (an integer)")
			}
		case "seed":
			if _, err := strconv.ParseUint(v, 10, 64); err != nil {
				ch.fail(okey, e.Options[n], "not a seed", "an integer 0..18446744073709551615")
			}
		case "temperature":
			t, err := strconv.ParseFloat(v, 64)
			switch {
			case e.Temperature != 0:
				ch.fail(okey, e.Options[n], "conflicts with temperature", "temperature in options or the temperature key, not both")
			case err != nil || t < 0 || t > 2:
				ch.fail(okey, e.Options[n], "out of range", "0..2")
			}
		case "Features", "Disable":
			s, ok := e.Options[n].(string)
			if _, err := search.ParseFeatures(s); !ok || err != nil {
				ch.fail(okey, e.Options[n], "not a list of search features", `comma-separated names from: `+strings.Join(search.FeatureNames(), ", "))
			}
		}
	}
}
