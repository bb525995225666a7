package bots

import (
	"fmt"
	"strings"
	"unicode"
)

// Spec is a parsed engine specification: a built-in name or "uci" with the
// path of an external engine, plus options for the engine's Configure (or
// UCI setoption).
type Spec struct {
	Name    string            // "easy", "medium", "hard", "knobs", "stockfish", "uci", …
	Path    string            // the executable, for "uci"
	Options map[string]string // Key=Value pairs from the spec, in no order
}

// ParseSpec parses "NAME[,Key=Value…]" or "uci:/path/to/engine[,Key=Value…]".
// Option names may contain spaces ("uci:/usr/games/stockfish,Skill Level=5");
// values may not contain commas.
func ParseSpec(spec string) (Spec, error) {
	spec = strings.TrimSpace(spec)
	if spec == "" {
		return Spec{}, fmt.Errorf("bots: empty engine spec (want one of %s or uci:/path/to/engine)", strings.Join(Names(), ", "))
	}
	parts := strings.Split(spec, ",")
	var s Spec
	head := strings.TrimSpace(parts[0])
	if path, ok := strings.CutPrefix(head, "uci:"); ok {
		s.Name, s.Path = "uci", strings.TrimSpace(path)
		if s.Path == "" {
			return Spec{}, fmt.Errorf("bots: engine spec %q: uci: needs a path", spec)
		}
	} else {
		s.Name = strings.ToLower(head)
		if s.Name == "" || strings.ContainsAny(s.Name, "=:") || strings.ContainsFunc(s.Name, unicode.IsSpace) {
			return Spec{}, fmt.Errorf("bots: engine spec %q: %q is not an engine name", spec, head)
		}
		if s.Name == "uci" {
			return Spec{}, fmt.Errorf("bots: engine spec %q: uci needs a path: uci:/path/to/engine", spec)
		}
	}
	for _, p := range parts[1:] {
		k, v, ok := strings.Cut(p, "=")
		k = strings.TrimSpace(k)
		if !ok || k == "" {
			return Spec{}, fmt.Errorf("bots: engine spec %q: option %q is not Key=Value", spec, strings.TrimSpace(p))
		}
		if s.Options == nil {
			s.Options = map[string]string{}
		}
		if _, dup := s.Options[k]; dup {
			return Spec{}, fmt.Errorf("bots: engine spec %q: option %q given twice", spec, k)
		}
		s.Options[k] = strings.TrimSpace(v)
	}
	return s, nil
}

// String renders the spec in the form ParseSpec reads (options sorted).
func (s Spec) String() string {
	var b strings.Builder
	if s.Name == "uci" {
		b.WriteString("uci:" + s.Path)
	} else {
		b.WriteString(s.Name)
	}
	for _, k := range sortedKeys(s.Options) {
		fmt.Fprintf(&b, ",%s=%s", k, s.Options[k])
	}
	return b.String()
}
