package knobs

import (
	"fmt"
	"math"
	"testing"
	"time"
)

// TestCheckValue: a knob value's type and range, as the config reports
// them.
func TestCheckValue(t *testing.T) {
	depth, _ := Lookup("opponent_ply_depth")
	scale, _ := Lookup("gain_scale")
	debug, _ := Lookup("debug")
	mode, _ := Lookup("search_mode")
	for _, tc := range []struct {
		name    string
		k       KnobInfo
		v       any
		problem string
		allowed string
	}{
		{"int in range", depth, int64(3), "", ""},
		{"int as Go int", depth, 3, "", ""},
		{"int too high", depth, int64(13), "out of range", "0..12"},
		{"float for int", depth, 2.5, "wrong type: float", "an integer"},
		{"string for int", depth, "3", "wrong type: string", "a number"},
		{"integer for float", scale, int64(1), "", ""},
		{"float NaN", scale, math.NaN(), "out of range", fmtNum(scale.Min) + ".." + fmtNum(scale.Max)},
		{"bool", debug, true, "", ""},
		{"integer for bool", debug, int64(1), "wrong type: integer", "true or false"},
		{"enum", mode, mode.Choices[0], "", ""},
		{"enum not a choice", mode, "sideways", "not allowed", ""},
		{"bool for enum", mode, true, "not allowed", ""},
	} {
		problem, allowed, ok := tc.k.CheckValue(tc.v)
		if ok != (tc.problem == "") || problem != tc.problem || (tc.allowed != "" && allowed != tc.allowed) {
			t.Errorf("%s: %q %q %v, want %q %q", tc.name, problem, allowed, ok, tc.problem, tc.allowed)
		}
	}
}

// TestTOMLNumbers: integers (int64 as decoded, int as Go code passes
// them) and floats are numbers, only the integers are integers.
func TestTOMLNumbers(t *testing.T) {
	for v, want := range map[any]string{
		int64(-7): "integer true -7, number true -7",
		12:        "integer true 12, number true 12",
		2.5:       "integer false 0, number true 2.5",
		"3":       "integer false 0, number false 0",
		true:      "integer false 0, number false 0",
		uint8(1):  "integer false 0, number false 0",
	} {
		n, isInt := TOMLInt(v)
		x, isNum := TOMLNumber(v)
		if got := fmt.Sprintf("integer %v %d, number %v %g", isInt, n, isNum, x); got != want {
			t.Errorf("%#v: %s, want %s", v, got, want)
		}
	}
}

func TestTOMLType(t *testing.T) {
	for _, tc := range []struct {
		v    any
		want string
	}{
		{"x", "string"}, {int64(1), "integer"}, {1, "integer"}, {1.5, "float"}, {true, "boolean"},
		{[]any{1}, "array"}, {[]map[string]any{{}}, "array of tables"}, {map[string]any{}, "table"},
		{time.Time{}, "date/time"}, {uint8(1), "uint8"},
	} {
		if got := TOMLType(tc.v); got != tc.want {
			t.Errorf("TOMLType(%#v) = %q, want %q", tc.v, got, tc.want)
		}
	}
}
