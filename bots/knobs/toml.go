package knobs

import (
	"fmt"
	"strconv"
	"strings"
	"time"
)

// TOMLInt returns v as an int64 when it is a TOML integer as
// BurntSushi/toml decodes it (an int64; an int counts too).
func TOMLInt(v any) (int64, bool) {
	switch n := v.(type) {
	case int64:
		return n, true
	case int:
		return int64(n), true
	}
	return 0, false
}

// TOMLNumber returns v as a float64 when it is a TOML number: a float, or
// an integer as TOMLInt takes it.
func TOMLNumber(v any) (float64, bool) {
	if x, ok := v.(float64); ok {
		return x, true
	}
	n, ok := TOMLInt(v)
	return float64(n), ok
}

// TOMLType names the TOML type of a value as BurntSushi/toml decodes it
// (an int counting as an integer too), for the "wrong type" errors of the
// knobs and of the config decoder.
func TOMLType(v any) string {
	switch v.(type) {
	case string:
		return "string"
	case int64, int:
		return "integer"
	case float64:
		return "float"
	case bool:
		return "boolean"
	case []any:
		return "array"
	case []map[string]any:
		return "array of tables"
	case map[string]any:
		return "table"
	case time.Time:
		return "date/time"
	}
	return fmt.Sprintf("%T", v)
}

// RenderTOML renders c as commented TOML key/value lines, grouped and in the
// order of Knobs, each preceded by its help text, default and range. It is
// meant for config.example.toml (under the caller's table header, e.g.
// [engines.knobs]) and decodes back to c with FromMap.
func RenderTOML(c Config) string {
	var b strings.Builder
	group := ""
	for _, k := range knobTable {
		if k.Group != group {
			if group != "" {
				b.WriteByte('\n')
			}
			group = k.Group
			fmt.Fprintf(&b, "# --- %s ---\n", group)
		}
		fmt.Fprintf(&b, "# %s\n# %s\n", k.Help, describeRange(k))
		v, _ := c.Get(k.Key)
		fmt.Fprintf(&b, "%s = %s\n", k.Key, tomlValue(v))
	}
	return b.String()
}

func describeRange(k KnobInfo) string {
	def := tomlValue(k.Default)
	switch k.Type {
	case TypeInt, TypeFloat:
		s := fmt.Sprintf("%s, %g to %g, default %s", k.Type, k.Min, k.Max, def)
		if k.ZeroDisables {
			s += " (0 disables)"
		}
		return s
	case TypeEnum:
		return fmt.Sprintf("one of %s, default %s", strings.Join(k.Choices, ", "), def)
	}
	return "true or false, default " + def
}

func tomlValue(v any) string {
	switch x := v.(type) {
	case float64:
		s := strconv.FormatFloat(x, 'f', -1, 64)
		if !strings.ContainsAny(s, ".eE") {
			s += ".0"
		}
		return s
	case string:
		return strconv.Quote(x)
	default:
		return fmt.Sprint(x)
	}
}
