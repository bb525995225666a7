package config

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"reflect"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/BurntSushi/toml"

	"github.com/outpostchess/outpost/bots/knobs"
)

var update = flag.Bool("update", false, "rewrite the generated knob block of config.example.toml (both copies)")

const (
	knobsBegin = "# BEGIN KNOBS"
	knobsEnd   = "# END KNOBS"
	rootCopy   = "../config.example.toml"
)

// knobsBlock renders [knobs.example] with every knob at its default.
func knobsBlock() string {
	var b strings.Builder
	b.WriteString("[knobs.example]\n")
	group := ""
	for _, k := range knobs.Knobs() {
		if k.Group != group {
			group = k.Group
			fmt.Fprintf(&b, "# -- %s --\n", group)
		}
		doc := k.Help
		switch k.Type {
		case knobs.TypeInt, knobs.TypeFloat:
			doc += fmt.Sprintf(" Range %s..%s.", fmtFloat(k.Min), fmtFloat(k.Max))
		case knobs.TypeEnum:
			doc += " Allowed: " + strings.Join(k.Choices, ", ") + "."
		}
		for _, line := range wrap(doc, 84) {
			b.WriteString("# " + line + "\n")
		}
		var v string
		switch x := k.Default.(type) {
		case float64:
			v = strconv.FormatFloat(x, 'f', -1, 64)
			if !strings.ContainsAny(v, ".eE") {
				v += ".0"
			}
		case string:
			v = strconv.Quote(x)
		default:
			v = fmt.Sprint(x)
		}
		fmt.Fprintf(&b, "%s = %s\n", k.Key, v)
	}
	return b.String()
}

// wrap splits text into lines of at most width characters at spaces.
func wrap(text string, width int) []string {
	var lines []string
	line := ""
	for _, w := range strings.Fields(text) {
		if line != "" && len(line)+1+len(w) > width {
			lines = append(lines, line)
			line = ""
		}
		if line != "" {
			line += " "
		}
		line += w
	}
	if line != "" {
		lines = append(lines, line)
	}
	return lines
}

// withKnobsBlock replaces the generated region of an example file.
func withKnobsBlock(t *testing.T, data []byte) []byte {
	t.Helper()
	s := string(data)
	i := strings.Index(s, knobsBegin)
	j := strings.Index(s, knobsEnd)
	if i < 0 || j < i {
		t.Fatalf("example lacks the %q … %q markers", knobsBegin, knobsEnd)
	}
	start := i + strings.IndexByte(s[i:], '\n') + 1
	return []byte(s[:start] + knobsBlock() + s[j:])
}

// TestExampleKnobs keeps the example's knob set equal to the knob table of
// bots/knobs (run with -update to regenerate it).
func TestExampleKnobs(t *testing.T) {
	want := withKnobsBlock(t, example)
	if *update {
		for _, p := range []string{"config.example.toml", rootCopy} {
			if err := os.WriteFile(p, want, 0o644); err != nil {
				t.Fatal(err)
			}
		}
		return
	}
	if !bytes.Equal(want, example) {
		t.Fatal("the [knobs.example] block of config.example.toml is out of date with bots/knobs; run: go test ./config -run TestExampleKnobs -update")
	}
}

// TestRootExampleIdentical: the root config.example.toml is the embedded one.
func TestRootExampleIdentical(t *testing.T) {
	root, err := os.ReadFile(rootCopy)
	if err != nil {
		t.Fatalf("read root copy: %v", err)
	}
	if !bytes.Equal(root, example) {
		t.Fatal("config.example.toml at the repository root differs from config/config.example.toml; copy config/config.example.toml over it")
	}
	if !bytes.Equal(Example(), example) {
		t.Fatal("Example() differs from the embedded file")
	}
}

// TestExampleLoads: the example is a valid configuration as it is.
func TestExampleLoads(t *testing.T) {
	cfg, err := Parse(Example(), "config.example.toml")
	if err != nil {
		t.Fatalf("example does not load: %v", err)
	}
	if len(cfg.Rules) == 0 || len(cfg.Engines.Defs) == 0 || len(cfg.Knobs) == 0 {
		t.Fatalf("example should show rules, engines and knob sets: %d rules, %d engines, %d knob sets",
			len(cfg.Rules), len(cfg.Engines.Defs), len(cfg.Knobs))
	}
	if len(cfg.Knobs["example"]) != len(knobs.Knobs()) {
		t.Fatalf("knob set has %d knobs, the knob table %d", len(cfg.Knobs["example"]), len(knobs.Knobs()))
	}
}

// TestExampleMatchesDefaults: apart from the illustrative rules, engines
// and knob sets, the example states exactly the defaults of Default.
func TestExampleMatchesDefaults(t *testing.T) {
	cfg, err := Parse(Example(), "config.example.toml")
	if err != nil {
		t.Fatal(err)
	}
	def := Default()
	cfg.Rules, def.Rules = nil, nil
	cfg.Engines.Defs, def.Engines.Defs = nil, nil
	cfg.Knobs, def.Knobs = nil, nil
	if !reflect.DeepEqual(cfg, def) {
		t.Fatalf("example and Default() disagree:\nexample: %+v\ndefault: %+v", *cfg, *def)
	}
}

// TestExampleCoversEveryKey: every key the Config struct knows is set in
// the example, and the example sets nothing else, so the two cannot drift.
func TestExampleCoversEveryKey(t *testing.T) {
	var raw map[string]any
	md, err := toml.Decode(string(example), &raw)
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	for _, k := range md.Keys() {
		seen[normalizeKey(k)] = true
	}
	known := knownKeys()
	if len(known) < 100 {
		t.Fatalf("knownKeys found only %d keys", len(known))
	}
	var missing []string
	for _, k := range known {
		if !seen[k] {
			missing = append(missing, k)
		}
	}
	if len(missing) > 0 {
		t.Fatalf("config.example.toml does not show: %s", strings.Join(missing, ", "))
	}
	// Every key line sits in a paragraph that has a comment, or is described
	// in a comment listing ("#   name ...").
	for _, para := range strings.Split(string(example), "\n\n") {
		commented := strings.HasPrefix(para, "#") || strings.Contains(para, "\n#")
		for _, line := range strings.Split(para, "\n") {
			name, _, ok := strings.Cut(line, " = ")
			if !ok || strings.HasPrefix(line, "#") || commented {
				continue
			}
			doc := string(example)
			if !strings.Contains(doc, "#   "+name+" ") && !strings.Contains(doc, "#   "+name+",") &&
				!strings.Contains(doc, ", "+name+" ") {
				t.Errorf("key %q has no comment in config.example.toml", name)
			}
		}
	}
}

// normalizeKey maps a concrete key of the example to knownKeys' pattern:
// rules.x → rules[].x, engines.NAME.x → engines.*.x, knobs.NAME.k → knobs.*.
func normalizeKey(k toml.Key) string {
	parts := append([]string(nil), k...)
	switch {
	case len(parts) >= 2 && parts[0] == "rules":
		return "rules[]." + strings.Join(parts[1:], ".")
	case len(parts) >= 3 && parts[0] == "engines":
		if len(parts) > 3 && parts[2] == "options" {
			parts = parts[:3]
		}
		return "engines.*." + strings.Join(parts[2:], ".")
	case len(parts) >= 2 && parts[0] == "knobs":
		return "knobs.*"
	}
	return strings.Join(parts, ".")
}

func TestKnownKeysSorted(t *testing.T) {
	keys := knownKeys()
	set := map[string]bool{}
	for _, k := range keys {
		if set[k] {
			t.Fatalf("duplicate key %s", k)
		}
		set[k] = true
	}
	for _, want := range []string{"lichess.url", "rules[].engine", "engines.default", "engines.*.type", "engines.*.options", "knobs.*", "ewr.opponent_maia"} {
		if !set[want] {
			t.Errorf("knownKeys lacks %s (have %v)", want, sortedCopy(keys))
		}
	}
}

func sortedCopy(s []string) []string {
	out := append([]string(nil), s...)
	sort.Strings(out)
	return out
}
