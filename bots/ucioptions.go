package bots

import (
	"fmt"
	"math"
	"strconv"

	"github.com/outpostchess/outpost/bots/engine"
	"github.com/outpostchess/outpost/bots/knobs"
	"github.com/outpostchess/outpost/bots/search"
	"github.com/outpostchess/outpost/bots/uci"
	"github.com/outpostchess/outpost/bots/uciengine"
)

// UCIOptions describes the options an engine accepts in Configure as UCI
// "option" declarations, for a UCI front-end to announce: an external
// engine's own options, every eval knob (integers as spin, decimals as
// string, flags as check, choices as combo, defaults = current values), and
// the search engines' Hash and Disable. Other engines have none.
func UCIOptions(e engine.Engine) []uci.OptionSpec {
	if f, ok := e.(*Fallback); ok {
		e = f.Primary()
	}
	switch e := e.(type) {
	case *uciengine.Engine:
		return e.Client().Options()
	case *knobs.Engine:
		return knobOptions(e.Config())
	case *search.Engine:
		return []uci.OptionSpec{
			{Name: "Hash", Type: uci.OptionSpin, Default: "64", Min: 1, Max: 4096},
			{Name: "Disable", Type: uci.OptionString, Default: ""},
		}
	}
	return nil
}

func knobOptions(cfg knobs.Config) []uci.OptionSpec {
	var out []uci.OptionSpec
	for _, k := range knobs.Knobs() {
		cur, ok := cfg.Get(k.Key)
		if !ok {
			cur = k.Default
		}
		o := uci.OptionSpec{Name: k.Key, Default: fmt.Sprint(cur)}
		switch k.Type {
		case knobs.TypeInt:
			o.Type, o.Min, o.Max = uci.OptionSpin, clampInt(k.Min), clampInt(k.Max)
		case knobs.TypeFloat:
			o.Type = uci.OptionString
			if f, ok := cur.(float64); ok {
				o.Default = strconv.FormatFloat(f, 'g', -1, 64)
			}
		case knobs.TypeBool:
			o.Type = uci.OptionCheck
		case knobs.TypeEnum:
			o.Type, o.Vars = uci.OptionCombo, append([]string(nil), k.Choices...)
		default:
			o.Type = uci.OptionString
		}
		out = append(out, o)
	}
	return out
}

func clampInt(f float64) int {
	return int(math.Max(math.Min(f, math.MaxInt32), math.MinInt32))
}
