package config

import (
	"errors"
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/outpostchess/outpost/bots/knobs"
)

// maxKnobProblems bounds the problems reported for one knob set.
const maxKnobProblems = 50

// validateKnobSet checks one [knobs.NAME] table against the knob table of
// the eval-knob engine: every key a known knob, every value of the knob's
// type and within its range, then the cross-knob constraints of
// knobs.FromMap. Keys of the returned problems are relative to the set (a
// knob name, or "" for the whole set).
func validateKnobSet(set KnobSet) []FieldError {
	if set == nil {
		return []FieldError{{Problem: "not a table", Allowed: "a table of knob = value"}}
	}
	names := make([]string, 0, len(set))
	for k := range set {
		names = append(names, k)
	}
	sort.Strings(names)
	var errs []FieldError
	for i, k := range names {
		if len(errs) == maxKnobProblems {
			errs = append(errs, FieldError{Problem: fmt.Sprintf("further knobs not checked (%d more)", len(names)-i),
				Allowed: "fix the problems above first"})
			break
		}
		if fe, bad := checkKnob(k, set[k]); bad {
			errs = append(errs, fe)
		}
	}
	if len(errs) > 0 {
		return errs
	}
	if _, err := knobs.FromMap(set); err != nil {
		for _, e := range splitJoined(err) {
			errs = append(errs, FieldError{Problem: strings.TrimPrefix(e.Error(), "knobs: "),
				Allowed: "values that satisfy the knobs' constraints"})
		}
	}
	return errs
}

// checkKnob checks one knob's name, type and range.
func checkKnob(k string, v any) (FieldError, bool) {
	info, ok := knobs.Lookup(k)
	if !ok {
		all := knobs.Knobs()
		keys := make([]string, len(all))
		for i, ki := range all {
			keys[i] = ki.Key
		}
		problem := "unknown knob"
		if s := closest(k, keys); s != "" {
			problem += " (did you mean " + strconv.Quote(s) + "?)"
		} else if s := closest(knobs.NormalizeKey(k), keys); s != "" {
			problem += " (did you mean " + strconv.Quote(s) + "?)"
		}
		return FieldError{Key: k, Problem: problem, Allowed: "a knob name as listed in config.example.toml [knobs.example]"}, true
	}
	if problem, allowed, ok := info.CheckValue(v); !ok {
		return FieldError{Key: k, Value: formatValue(v), Problem: problem, Allowed: allowed}, true
	}
	return FieldError{}, false
}

// splitJoined undoes errors.Join.
func splitJoined(err error) []error {
	var j interface{ Unwrap() []error }
	if errors.As(err, &j) {
		return j.Unwrap()
	}
	return []error{err}
}

// KnobConfig returns the eval-knob settings of the knob set name, validated
// by the knobs package; "" means the knobs' defaults.
func (c *Config) KnobConfig(name string) (knobs.Config, error) {
	if name == "" {
		return knobs.Defaults(), nil
	}
	set, ok := c.Knobs[name]
	if !ok {
		return knobs.Config{}, fmt.Errorf("config: no knob set %q (%s)", name, knobSetNames(c))
	}
	kc, err := knobs.FromMap(set)
	if err != nil {
		return knobs.Config{}, fmt.Errorf("config: knob set %s: %w", name, err)
	}
	return kc, nil
}
