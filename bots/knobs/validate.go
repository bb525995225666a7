package knobs

import (
	"errors"
	"fmt"
	"math"
	"reflect"
	"sort"
	"strconv"
	"strings"
)

// Validate checks every knob against its range or choices and the
// cross-knob constraints. The error names the key, the bad value and what is
// allowed; several problems are joined.
func (c Config) Validate() error {
	v := reflect.ValueOf(c)
	var errs []error
	for _, k := range knobTable {
		f := v.Field(knobField[k.Key])
		switch k.Type {
		case TypeInt:
			x := f.Int()
			if float64(x) < k.Min || float64(x) > k.Max {
				errs = append(errs, fmt.Errorf("knobs: %s = %d is out of range [%g, %g]", k.Key, x, k.Min, k.Max))
			}
		case TypeFloat:
			x := f.Float()
			if math.IsNaN(x) || x < k.Min || x > k.Max {
				errs = append(errs, fmt.Errorf("knobs: %s = %g is out of range [%g, %g]", k.Key, x, k.Min, k.Max))
			}
		case TypeEnum:
			s := f.String()
			if !contains(k.Choices, s) {
				errs = append(errs, fmt.Errorf("knobs: %s = %q is not one of %s", k.Key, s, strings.Join(k.Choices, ", ")))
			}
		}
	}
	if c.EndgameFewPiecesStrength >= c.EndgameMidgameStrength {
		errs = append(errs, fmt.Errorf("knobs: endgame_few_pieces_strength = %g must be below endgame_midgame_strength = %g",
			c.EndgameFewPiecesStrength, c.EndgameMidgameStrength))
	}
	if c.EndgamishnessMin > c.EndgamishnessMax {
		errs = append(errs, fmt.Errorf("knobs: endgamishness_min = %g must not exceed endgamishness_max = %g",
			c.EndgamishnessMin, c.EndgamishnessMax))
	}
	return errors.Join(errs...)
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// FromMap starts from Defaults, applies the given keys as decoded by a TOML
// decoder (int64, float64, bool, string; int is accepted too; integers are
// accepted for float knobs) and validates the result. Unknown keys and wrong
// types are errors naming the key.
func FromMap(m map[string]any) (Config, error) {
	c := Defaults()
	if err := c.apply(m); err != nil {
		return Config{}, err
	}
	if err := c.Validate(); err != nil {
		return Config{}, err
	}
	return c, nil
}

// apply sets the keys of m in sorted order so that errors are deterministic.
func (c *Config) apply(m map[string]any) error {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		if err := c.setValue(k, m[k]); err != nil {
			return err
		}
	}
	return nil
}

func (c *Config) setValue(key string, val any) error {
	idx, ok := knobField[key]
	if !ok {
		return fmt.Errorf("knobs: unknown key %q", key)
	}
	f := reflect.ValueOf(c).Elem().Field(idx)
	bad := func() error {
		return fmt.Errorf("knobs: %s: wrong type %T (want %s)", key, val, knobTable[knobIndex[key]].Type)
	}
	switch f.Kind() {
	case reflect.Int:
		x, ok := TOMLInt(val)
		if !ok {
			return bad()
		}
		if x < math.MinInt32 || x > math.MaxInt32 {
			return fmt.Errorf("knobs: %s = %d is out of range", key, x)
		}
		f.SetInt(x)
	case reflect.Float64:
		x, ok := TOMLNumber(val)
		if !ok {
			return bad()
		}
		f.SetFloat(x)
	case reflect.Bool:
		b, ok := val.(bool)
		if !ok {
			return bad()
		}
		f.SetBool(b)
	case reflect.String:
		s, ok := val.(string)
		if !ok {
			return bad()
		}
		f.SetString(s)
	}
	return nil
}

// NormalizeKey turns a knob name as a user may type it (UCI option names,
// camelCase from the specification, dashes or spaces) into its TOML key.
func NormalizeKey(name string) string {
	var b strings.Builder
	prevLower, prevLetter := false, false
	for _, r := range strings.TrimSpace(name) {
		switch {
		case r == ' ' || r == '-' || r == '.':
			b.WriteByte('_')
			prevLower = false
		case r >= 'A' && r <= 'Z':
			if prevLower {
				b.WriteByte('_')
			}
			b.WriteRune(r + ('a' - 'A'))
			prevLower = false
		case r >= '0' && r <= '9':
			if prevLetter {
				b.WriteByte('_')
			}
			b.WriteRune(r)
			prevLower, prevLetter = true, false
			continue
		default:
			b.WriteRune(r)
			prevLower = r >= 'a' && r <= 'z'
		}
		prevLetter = (r >= 'a' && r <= 'z') || (r >= 'A' && r <= 'Z')
	}
	return b.String()
}

// ParseStrings applies textual knob values (as from UCI setoption or a
// command line) to c and validates the result; c is unchanged on error.
// Keys are normalised with NormalizeKey.
func (c Config) ParseStrings(opts map[string]string) (Config, error) {
	keys := make([]string, 0, len(opts))
	for k := range opts {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	out := c
	for _, name := range keys {
		key := NormalizeKey(name)
		i, ok := knobIndex[key]
		if !ok {
			return c, fmt.Errorf("knobs: unknown key %q", name)
		}
		raw := strings.TrimSpace(opts[name])
		var val any
		switch knobTable[i].Type {
		case TypeInt:
			x, err := strconv.ParseInt(raw, 10, 64)
			if err != nil {
				return c, fmt.Errorf("knobs: %s: %q is not an integer", key, raw)
			}
			val = x
		case TypeFloat:
			x, err := strconv.ParseFloat(raw, 64)
			if err != nil {
				return c, fmt.Errorf("knobs: %s: %q is not a number", key, raw)
			}
			val = x
		case TypeBool:
			x, err := strconv.ParseBool(raw)
			if err != nil {
				return c, fmt.Errorf("knobs: %s: %q is not a boolean", key, raw)
			}
			val = x
		default:
			val = strings.ToLower(raw)
		}
		if err := out.setValue(key, val); err != nil {
			return c, err
		}
	}
	if err := out.Validate(); err != nil {
		return c, err
	}
	return out, nil
}
