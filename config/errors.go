package config

import (
	"fmt"
	"math"
	"sort"
	"strings"
)

// FieldError is one problem with a configuration: the key it concerns (a
// dotted path such as "challenge.min_base" or "rules[2].engine"), the
// offending value as written, what is wrong and what is allowed. Line is the
// line in the file when known (0 otherwise). A syntax error has no key.
type FieldError struct {
	Key     string // dotted key path; empty for a TOML syntax error
	Value   string // the bad value, formatted; "(hidden)" for secrets; empty when not meaningful
	Problem string // what is wrong, e.g. "out of range" or "unknown key"
	Allowed string // what is allowed, e.g. "0..10800 (seconds)"
	Line    int    // 1-based line in the file, 0 when unknown
}

// Error formats the problem on one line:
// "line 12: challenge.min_base: out of range (got -5); allowed: 0..10800 seconds".
func (e FieldError) Error() string {
	if e.Line > 0 {
		return fmt.Sprintf("line %d: %s", e.Line, e.Message())
	}
	return e.Message()
}

// Message is Error without the line prefix, for callers that print the
// position their own way ("FILE:LINE: message").
func (e FieldError) Message() string {
	var b strings.Builder
	if e.Key != "" {
		b.WriteString(e.Key)
		b.WriteString(": ")
	}
	if e.Problem != "" {
		b.WriteString(e.Problem)
	} else {
		b.WriteString("invalid value")
	}
	if e.Value != "" {
		fmt.Fprintf(&b, " (got %s)", e.Value)
	}
	if e.Allowed != "" {
		b.WriteString("; allowed: ")
		b.WriteString(e.Allowed)
	}
	return b.String()
}

// ValidationErrors is every problem found in a configuration, in a stable
// order. Its Error method lists them one per line.
type ValidationErrors []FieldError

// Error lists every problem, one per line.
func (v ValidationErrors) Error() string {
	switch len(v) {
	case 0:
		return "no problems"
	case 1:
		return v[0].Error()
	}
	lines := make([]string, 0, len(v)+1)
	lines = append(lines, fmt.Sprintf("%d problems:", len(v)))
	for _, e := range v {
		lines = append(lines, "  "+e.Error())
	}
	return strings.Join(lines, "\n")
}

// err returns v as an error, or nil when it is empty (so that a nil
// ValidationErrors never becomes a non-nil error interface).
func (v ValidationErrors) err() error {
	if len(v) == 0 {
		return nil
	}
	return v
}

// add appends one problem.
func (v *ValidationErrors) add(key string, value any, problem, allowed string) {
	*v = append(*v, FieldError{Key: key, Value: formatValue(value), Problem: problem, Allowed: allowed})
}

// sortByLine orders problems by line, keeping the order of equal lines;
// problems without a line come last.
func (v ValidationErrors) sortByLine() {
	line := func(e FieldError) int {
		if e.Line == 0 {
			return math.MaxInt
		}
		return e.Line
	}
	sort.SliceStable(v, func(i, j int) bool { return line(v[i]) < line(v[j]) })
}

// maxValueLen bounds how much of a bad value an error repeats.
const maxValueLen = 80

// formatValue renders a value as it would appear in TOML, shortened. A nil
// value renders as empty; a string that is already formatted (a rawValue)
// is kept as is.
func formatValue(value any) string {
	var s string
	switch x := value.(type) {
	case nil:
		return ""
	case rawValue:
		s = string(x)
	case string:
		s = fmt.Sprintf("%q", x)
	case []string:
		parts := make([]string, len(x))
		for i, p := range x {
			parts[i] = fmt.Sprintf("%q", p)
		}
		s = "[" + strings.Join(parts, ", ") + "]"
	case []any:
		parts := make([]string, len(x))
		for i, p := range x {
			parts[i] = formatValue(p)
		}
		s = "[" + strings.Join(parts, ", ") + "]"
	case map[string]any:
		s = "a table"
	case []map[string]any:
		s = "an array of tables"
	default:
		s = fmt.Sprint(x)
	}
	if r := []rune(s); len(r) > maxValueLen {
		s = string(r[:maxValueLen-1]) + "…"
	}
	return s
}

// rawValue is a value already formatted for an error message.
type rawValue string

// hidden is what an error shows instead of a secret.
const hidden = rawValue("(hidden)")
