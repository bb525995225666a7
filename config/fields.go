package config

import (
	"fmt"
	"reflect"
	"strings"
)

// restTag marks the map field that receives every sub-table of a section
// not named by another field (the [engines.NAME] definitions).
const restTag = "*"

// tableFields describes how a struct maps to a TOML table.
type tableFields struct {
	names []string       // key names in declaration order
	index map[string]int // key name → field index
	rest  int            // index of the restTag field, -1 if none
}

// fieldsOf reads the toml tags of struct type t.
func fieldsOf(t reflect.Type) tableFields {
	f := tableFields{index: map[string]int{}, rest: -1}
	for i := 0; i < t.NumField(); i++ {
		name, _, _ := strings.Cut(t.Field(i).Tag.Get("toml"), ",")
		switch name {
		case "", "-":
			continue
		case restTag:
			f.rest = i
			continue
		}
		f.names = append(f.names, name)
		f.index[name] = i
	}
	return f
}

// joinKey appends the key k to the dotted path parent, quoting k as TOML
// does when it is not a bare key (matching toml.Key.String).
func joinKey(parent, k string) string {
	q := k
	if !isBareKey(k) {
		q = fmt.Sprintf("%q", k)
	}
	if parent == "" {
		return q
	}
	return parent + "." + q
}

// indexKey names element i of the array at path.
func indexKey(path string, i int) string { return fmt.Sprintf("%s[%d]", path, i) }

// isBareKey reports whether k can be written unquoted in TOML.
func isBareKey(k string) bool {
	if k == "" {
		return false
	}
	for _, r := range k {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '_' || r == '-') {
			return false
		}
	}
	return true
}

// knownKeys lists every key the Config struct knows, as patterns:
// "lichess.url", "rules[].engine", "engines.*.type", "knobs.*".
func knownKeys() []string {
	var out []string
	var walk func(prefix string, t reflect.Type)
	walk = func(prefix string, t reflect.Type) {
		f := fieldsOf(t)
		if f.rest >= 0 {
			walk(prefix+".*", t.Field(f.rest).Type.Elem())
		}
		for _, name := range f.names {
			ft := t.Field(f.index[name]).Type
			key := joinKey(prefix, name)
			switch {
			case ft.Kind() == reflect.Struct && ft != durationType:
				walk(key, ft)
			case ft.Kind() == reflect.Slice && ft.Elem().Kind() == reflect.Struct:
				walk(key+"[]", ft.Elem())
			case ft.Kind() == reflect.Map && ft.Elem().Kind() == reflect.Struct:
				walk(key+".*", ft.Elem())
			case ft.Kind() == reflect.Map && ft.Elem().Kind() == reflect.Map:
				out = append(out, key+".*")
			default:
				out = append(out, key)
			}
		}
	}
	walk("", reflect.TypeOf(Config{}))
	return out
}
