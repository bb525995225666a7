package config

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"strings"

	"github.com/BurntSushi/toml"

	"github.com/outpostchess/outpost/bots/knobs"
)

// SetKnobSet returns the configuration text data with the knob set
// [knobs.NAME] replaced by values (or appended when the file has none),
// leaving every other line, comments included, as it was. values are
// knob = value as knobs.Knobs describes them (int, int64, float64, bool,
// string); they are validated first. A knob set the file defines in a form
// other than a [knobs.NAME] section is refused rather than rewritten.
func SetKnobSet(data []byte, name string, values map[string]any) ([]byte, error) {
	if !engineNamePattern.MatchString(name) {
		return nil, fmt.Errorf("config: knob set name %q: want 1 to 40 letters, digits, '_' or '-'", name)
	}
	set := KnobSet{}
	for k, v := range values {
		if n, ok := v.(int); ok {
			v = int64(n)
		}
		set[k] = v
	}
	if errs := validateKnobSet(set); len(errs) > 0 {
		for i := range errs {
			errs[i].Key = joinKey(joinKey("knobs", name), errs[i].Key)
		}
		return nil, fmt.Errorf("config: knob set %s: %w", name, ValidationErrors(errs))
	}
	block, err := knobSetBlock(name, set)
	if err != nil {
		return nil, err
	}
	lines := strings.SplitAfter(string(data), "\n")
	start, end := findTable(lines, name)
	var out string
	switch {
	case start >= 0:
		out = strings.Join(lines[:start], "") + block + strings.Join(lines[end:], "")
	default:
		var raw map[string]any
		if _, err := toml.Decode(string(data), &raw); err == nil {
			if ks, ok := raw["knobs"].(map[string]any); ok && ks[name] != nil {
				return nil, fmt.Errorf("config: knob set %s is not written as a [knobs.%s] section; edit it by hand", name, name)
			}
		}
		out = string(data)
		if out != "" && !strings.HasSuffix(out, "\n") {
			out += "\n"
		}
		if out != "" {
			out += "\n"
		}
		out += block
	}
	// Check the result: it must read back with exactly this knob set.
	var back struct {
		Knobs map[string]map[string]any `toml:"knobs"`
	}
	if _, err := toml.Decode(out, &back); err != nil {
		return nil, fmt.Errorf("config: rewriting knob set %s produced invalid TOML (edit it by hand): %w", name, err)
	}
	if !reflect.DeepEqual(map[string]any(set), back.Knobs[name]) {
		return nil, fmt.Errorf("config: knob set %s could not be rewritten in place; edit it by hand", name)
	}
	return []byte(out), nil
}

// WriteKnobSet applies SetKnobSet to the file at path and replaces the
// file atomically, keeping its permissions.
func WriteKnobSet(path, name string, values map[string]any) error {
	data, err := ReadFile(path)
	mode := os.FileMode(0o600)
	switch {
	case errors.Is(err, os.ErrNotExist):
		data = nil
	case err != nil:
		return fmt.Errorf("config: %w", err)
	default:
		if st, err := os.Stat(path); err == nil {
			mode = st.Mode().Perm()
		}
	}
	out, err := SetKnobSet(data, name, values)
	if err != nil {
		return err
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), ".outpost-config-*")
	if err != nil {
		return fmt.Errorf("config: write %s: %w", path, err)
	}
	defer os.Remove(tmp.Name())
	if _, err := tmp.Write(out); err != nil {
		tmp.Close()
		return fmt.Errorf("config: write %s: %w", path, err)
	}
	if err := tmp.Chmod(mode); err != nil {
		tmp.Close()
		return fmt.Errorf("config: write %s: %w", path, err)
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("config: write %s: %w", path, err)
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		return fmt.Errorf("config: write %s: %w", path, err)
	}
	return nil
}

// knobSetBlock renders [knobs.NAME] with the knobs in the knob table's
// display order.
func knobSetBlock(name string, set KnobSet) (string, error) {
	var b bytes.Buffer
	fmt.Fprintf(&b, "[%s]\n", joinKey("knobs", name))
	for _, info := range knobs.Knobs() {
		v, ok := set[info.Key]
		if !ok {
			continue
		}
		if err := toml.NewEncoder(&b).Encode(map[string]any{info.Key: v}); err != nil {
			return "", fmt.Errorf("config: knob %s: %w", info.Key, err)
		}
	}
	return b.String(), nil
}

// tableHeader matches a table header line and captures its key.
var tableHeader = regexp.MustCompile(`^\s*\[\s*([^\[\]]+?)\s*\]\s*(#.*)?$`)

// findTable returns the line range [start, end) of the section
// [knobs.NAME]: its header up to the next header, without the comment and
// blank lines that lead into the next section. start is -1 when absent.
func findTable(lines []string, name string) (int, int) {
	want := joinKey("knobs", name)
	start := -1
	for i, l := range lines {
		m := tableHeader.FindStringSubmatch(strings.TrimRight(l, "\r\n"))
		isHeader := m != nil || strings.HasPrefix(strings.TrimSpace(l), "[[")
		if start < 0 {
			if m != nil && normalizeHeader(m[1]) == want {
				start = i
			}
			continue
		}
		if isHeader {
			end := i
			for end > start+1 {
				t := strings.TrimSpace(lines[end-1])
				if t != "" && !strings.HasPrefix(t, "#") {
					break
				}
				end--
			}
			return start, end
		}
	}
	if start < 0 {
		return -1, -1
	}
	return start, len(lines)
}

// normalizeHeader writes a header key as joinKey would ("knobs . x" →
// "knobs.x", `knobs."x"` → "knobs.x").
func normalizeHeader(h string) string {
	var k toml.Key
	for _, part := range strings.Split(h, ".") {
		part = strings.TrimSpace(part)
		if len(part) >= 2 && (part[0] == '"' || part[0] == '\'') && part[len(part)-1] == part[0] {
			part = part[1 : len(part)-1]
		}
		k = append(k, part)
	}
	out := ""
	for _, p := range k {
		out = joinKey(out, p)
	}
	return out
}
