package config

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/outpostchess/outpost/analysis/duration"
	"github.com/outpostchess/outpost/bots/enginepath"
)

// checker accumulates validation problems.
type checker struct{ errs ValidationErrors }

// fail records one problem.
func (c *checker) fail(key string, value any, problem, allowed string) {
	c.errs.add(key, value, problem, allowed)
}

// intRange checks lo <= v <= hi and reports whether it holds.
func (c *checker) intRange(key string, v, lo, hi int, unit string) bool {
	if v < lo || v > hi {
		c.fail(key, v, "out of range", rangeText(strconv.Itoa(lo), strconv.Itoa(hi), unit))
		return false
	}
	return true
}

// intRangeOrZero checks v == 0 or lo <= v <= hi (0 meaning "off") and
// reports whether it holds.
func (c *checker) intRangeOrZero(key string, v, lo, hi int, unit, zero string) bool {
	if v != 0 && (v < lo || v > hi) {
		c.fail(key, v, "out of range", fmt.Sprintf("0 (%s) or %s", zero, rangeText(strconv.Itoa(lo), strconv.Itoa(hi), unit)))
		return false
	}
	return true
}

// floatRange checks lo <= v <= hi (and that v is a number).
func (c *checker) floatRange(key string, v, lo, hi float64) {
	if math.IsNaN(v) || v < lo || v > hi {
		c.fail(key, v, "out of range", rangeText(fmtFloat(lo), fmtFloat(hi), ""))
	}
}

// durRange checks lo <= v <= hi.
func (c *checker) durRange(key string, v, lo, hi time.Duration) {
	if v < lo || v > hi {
		c.fail(key, rawValue(strconv.Quote(duration.Format(v))), "out of range",
			rangeText(duration.Format(lo), duration.Format(hi), ""))
	}
}

// oneOf checks that v is one of allowed.
func (c *checker) oneOf(key, v string, allowed []string) {
	if !slices.Contains(allowed, v) {
		c.fail(key, v, unknownWord(v, allowed), strings.Join(allowed, ", "))
	}
}

// listOf checks that every element of vs is one of allowed, and, when
// nonEmpty, that there is at least one.
func (c *checker) listOf(key string, vs, allowed []string, nonEmpty bool) {
	if nonEmpty && len(vs) == 0 {
		c.fail(key, rawValue("[]"), "must not be empty", "one or more of "+strings.Join(allowed, ", "))
	}
	for _, v := range vs {
		if !slices.Contains(allowed, v) {
			c.fail(key, v, unknownWord(v, allowed), strings.Join(allowed, ", "))
		}
	}
}

// users checks a list of Lichess usernames.
func (c *checker) users(key string, names []string) {
	for _, n := range names {
		if !ValidUsername(n) {
			c.fail(key, n, "not a Lichess username", "2 to 30 letters, digits, '_' or '-', starting and ending with a letter or digit")
		}
	}
}

// ordered checks that the bounds lo <= hi when both are set (non-zero when
// zeroIsUnset).
func (c *checker) ordered(hiKey, loKey string, lo, hi int, zeroIsUnset bool) {
	if zeroIsUnset && (lo == 0 || hi == 0) {
		return
	}
	if lo > hi {
		c.fail(hiKey, hi, "smaller than "+loKey+" ("+strconv.Itoa(lo)+")", "at least "+loKey)
	}
}

// commandAllowed describes what an engine command line may be.
func commandAllowed() string {
	return "an engine name (" + strings.Join(enginepath.Names(), ", ") + `) or a command line such as ["/usr/local/bin/stockfish"]`
}

// command checks a command line: present, with a program, and a one-word
// name that looks like an engine name is one (sf15, sf18, sf19, auto, …).
func (c *checker) command(key string, cmd []string, required bool) {
	if len(cmd) == 0 {
		if required {
			c.fail(key, rawValue("[]"), "must not be empty", commandAllowed())
		}
		return
	}
	word := strings.ToLower(strings.TrimSpace(cmd[0]))
	switch {
	case word == "":
		c.fail(key, cmd, "the program is empty", commandAllowed())
	case len(cmd) == 1 && enginepath.Canonical(word) == "" && looksLikeEngineName(word):
		c.fail(key, cmd[0], "unknown engine name"+didYouMean(word, enginepath.Names()), commandAllowed())
	}
}

// looksLikeEngineName reports whether a one-word command is meant as an
// engine name rather than a program: "sf" or "stockfish" followed by a
// version ("sf17", "stockfish-16.1").
func looksLikeEngineName(word string) bool {
	for _, p := range []string{"stockfish-", "stockfish", "sf"} {
		if rest, ok := strings.CutPrefix(word, p); ok {
			return rest != "" && rest[0] >= '0' && rest[0] <= '9'
		}
	}
	return false
}

// unknownWord describes a value outside its allowed set, with a suggestion
// when one is close.
func unknownWord(v string, allowed []string) string { return "not allowed" + didYouMean(v, allowed) }

// didYouMean returns ` (did you mean "x"?)` when x in allowed is close to v,
// else "".
func didYouMean(v string, allowed []string) string {
	if s := closest(v, allowed); s != "" && s != v {
		return fmt.Sprintf(" (did you mean %q?)", s)
	}
	return ""
}

// rangeText writes "lo..hi unit".
func rangeText(lo, hi, unit string) string {
	if unit == "" {
		return lo + ".." + hi
	}
	return lo + ".." + hi + " " + unit
}

// fmtFloat writes a float compactly.
func fmtFloat(f float64) string { return strconv.FormatFloat(f, 'g', -1, 64) }
