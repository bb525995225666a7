package knobs

import (
	"math"
	"slices"
	"strconv"
	"strings"
)

// CheckValue checks one value as a TOML decoder gives it (int64, float64,
// bool, string; int is accepted too) against the knob's type and range. It
// returns ok false with what is wrong ("wrong type: string", "out of
// range", "not allowed") and what would fit ("an integer", "0..12", the
// choices). It is the one place that knows how a knob's value is typed;
// the config's validation reports its answers.
func (k KnobInfo) CheckValue(v any) (problem, allowed string, ok bool) {
	switch k.Type {
	case TypeInt, TypeFloat:
		x, ok := TOMLNumber(v)
		if !ok {
			return "wrong type: " + TOMLType(v), "a number", false
		}
		if _, isInt := TOMLInt(v); k.Type == TypeInt && !isInt {
			return "wrong type: float", "an integer", false
		}
		if math.IsNaN(x) || x < k.Min || x > k.Max {
			return "out of range", fmtNum(k.Min) + ".." + fmtNum(k.Max), false
		}
	case TypeBool:
		if _, isBool := v.(bool); !isBool {
			return "wrong type: " + TOMLType(v), "true or false", false
		}
	case TypeEnum:
		s, isString := v.(string)
		if !isString || !slices.Contains(k.Choices, s) {
			return "not allowed", strings.Join(k.Choices, ", "), false
		}
	}
	return "", "", true
}

func fmtNum(f float64) string { return strconv.FormatFloat(f, 'g', -1, 64) }
