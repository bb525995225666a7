package uci

import (
	"fmt"
	"strconv"
	"strings"
)

// OptionType is the type of an engine option as declared in its "option"
// line.
type OptionType string

// The option types of the UCI specification.
const (
	OptionCheck  OptionType = "check"  // a boolean: "true" or "false"
	OptionSpin   OptionType = "spin"   // an integer between Min and Max
	OptionCombo  OptionType = "combo"  // one of Vars
	OptionButton OptionType = "button" // an action without a value
	OptionString OptionType = "string" // free text
)

// OptionSpec is an option the engine declared during the handshake.
type OptionSpec struct {
	Name     string
	Type     OptionType
	Default  string
	Min, Max int      // for spin options
	Vars     []string // for combo options
}

// optionKeywords delimit the fields of an "option" line.
var optionKeywords = map[string]bool{"name": true, "type": true, "default": true, "min": true, "max": true, "var": true}

// ParseOption parses an "option name … type … [default …] [min …] [max …]
// [var …]…" line. Names and string defaults may contain spaces; the default
// "<empty>" stands for the empty string.
func ParseOption(line string) (OptionSpec, error) {
	toks := strings.Fields(line)
	if len(toks) < 2 || toks[0] != "option" {
		return OptionSpec{}, fmt.Errorf("uci: option line %q does not start with \"option\"", clip(line))
	}
	var spec OptionSpec
	var haveMin, haveMax bool
	for i := 1; i < len(toks); {
		key := toks[i]
		if !optionKeywords[key] {
			return OptionSpec{}, fmt.Errorf("uci: option line %q: unexpected %q", clip(line), clip(key))
		}
		j := i + 1
		// The name runs to "type"; other values run to the next keyword.
		for j < len(toks) && !(optionKeywords[toks[j]] && (key != "name" || toks[j] == "type")) {
			j++
		}
		val := strings.Join(toks[i+1:j], " ")
		switch key {
		case "name":
			spec.Name = val
		case "type":
			spec.Type = OptionType(val)
		case "default":
			if val == "<empty>" {
				val = ""
			}
			spec.Default = val
		case "min", "max":
			n, err := strconv.Atoi(val)
			if err != nil {
				return OptionSpec{}, fmt.Errorf("uci: option %q: %s %q is not an integer", spec.Name, key, clip(val))
			}
			if key == "min" {
				spec.Min, haveMin = n, true
			} else {
				spec.Max, haveMax = n, true
			}
		case "var":
			spec.Vars = append(spec.Vars, val)
		}
		i = j
	}
	if spec.Name == "" {
		return OptionSpec{}, fmt.Errorf("uci: option line %q has no name", clip(line))
	}
	switch spec.Type {
	case OptionCheck, OptionCombo, OptionButton, OptionString:
	case OptionSpin:
		if !haveMin || !haveMax || spec.Min > spec.Max {
			return OptionSpec{}, fmt.Errorf("uci: spin option %q needs min <= max", spec.Name)
		}
	default:
		return OptionSpec{}, fmt.Errorf("uci: option %q has unknown type %q", spec.Name, clip(string(spec.Type)))
	}
	return spec, nil
}

// Validate checks value against the option's type and range and returns it
// in canonical form ("true"/"false" for checks, the declared spelling for
// combo values).
func (o OptionSpec) Validate(value string) (string, error) {
	switch o.Type {
	case OptionCheck:
		switch strings.ToLower(strings.TrimSpace(value)) {
		case "true", "1", "on", "yes":
			return "true", nil
		case "false", "0", "off", "no":
			return "false", nil
		}
		return "", fmt.Errorf("uci: option %q: %q is not true or false", o.Name, clip(value))
	case OptionSpin:
		n, err := strconv.Atoi(strings.TrimSpace(value))
		if err != nil {
			return "", fmt.Errorf("uci: option %q: %q is not an integer", o.Name, clip(value))
		}
		if n < o.Min || n > o.Max {
			return "", fmt.Errorf("uci: option %q: %d is outside [%d, %d]", o.Name, n, o.Min, o.Max)
		}
		return strconv.Itoa(n), nil
	case OptionCombo:
		for _, v := range o.Vars {
			if strings.EqualFold(v, strings.TrimSpace(value)) {
				return v, nil
			}
		}
		return "", fmt.Errorf("uci: option %q: %q is not one of %s", o.Name, clip(value), strings.Join(o.Vars, ", "))
	case OptionButton:
		return "", nil
	}
	if strings.ContainsAny(value, "\r\n") {
		return "", fmt.Errorf("uci: option %q: value contains a line break", o.Name)
	}
	return value, nil
}

// Format renders the option as the "option" line an engine would send.
func (o OptionSpec) Format() string {
	var b strings.Builder
	fmt.Fprintf(&b, "option name %s type %s", o.Name, o.Type)
	switch o.Type {
	case OptionButton:
		return b.String()
	case OptionString:
		d := o.Default
		if d == "" {
			d = "<empty>"
		}
		fmt.Fprintf(&b, " default %s", d)
	default:
		fmt.Fprintf(&b, " default %s", o.Default)
	}
	if o.Type == OptionSpin {
		fmt.Fprintf(&b, " min %d max %d", o.Min, o.Max)
	}
	for _, v := range o.Vars {
		fmt.Fprintf(&b, " var %s", v)
	}
	return b.String()
}

// findOption looks an option up by name, case-insensitively as the UCI
// specification requires.
func findOption(specs []OptionSpec, name string) (OptionSpec, bool) {
	for _, o := range specs {
		if strings.EqualFold(o.Name, strings.TrimSpace(name)) {
			return o, true
		}
	}
	return OptionSpec{}, false
}

// setOptionCommand renders a "setoption" command, rejecting names and values
// that would smuggle in another command.
func setOptionCommand(name, value string, button bool) (string, error) {
	if strings.ContainsAny(name, "\r\n") || strings.ContainsAny(value, "\r\n") {
		return "", fmt.Errorf("uci: setoption %q: line break in name or value", clip(name))
	}
	if button {
		return "setoption name " + name, nil
	}
	return "setoption name " + name + " value " + value, nil
}
