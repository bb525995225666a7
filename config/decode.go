package config

import (
	"errors"
	"fmt"
	"math"
	"reflect"
	"sort"
	"strings"
	"time"

	"github.com/BurntSushi/toml"

	"github.com/outpostchess/outpost/analysis/duration"
	"github.com/outpostchess/outpost/bots/knobs"
)

// MaxFileSize bounds the size of a configuration file (a complete one,
// every knob included, is about 30 KiB).
const MaxFileSize = 256 << 10

// maxProblems bounds how many problems Parse reports.
const maxProblems = 200

// maxLineProbes bounds how many keys get a line number: finding one costs a
// pass over the file, so a pathological file with a huge number of keys
// gets line numbers for the first ones only.
const maxLineProbes = 1000

// Load reads, decodes and validates the configuration file at path. Keys the
// file does not set keep their defaults. On any problem it returns a nil
// Config and an error wrapping ValidationErrors that lists them all.
func Load(path string) (*Config, error) {
	data, err := ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("config: %w", err)
	}
	return Parse(data, path)
}

// Parse decodes and validates a configuration held in memory; name (usually
// the file name) prefixes the error. Unknown keys, wrong types and invalid
// values are all reported at once in a ValidationErrors, each naming its
// key, its line when known, the bad value and what is allowed.
func Parse(data []byte, name string) (*Config, error) {
	if name == "" {
		name = "(config)"
	}
	if len(data) > MaxFileSize {
		return nil, fmt.Errorf("config %s: %w", name, ValidationErrors{{
			Problem: fmt.Sprintf("file too large (%d bytes)", len(data)),
			Allowed: fmt.Sprintf("at most %d bytes", MaxFileSize),
		}})
	}
	cfg := Default()
	d, errs := decodeFile(data, cfg)
	if d == nil { // syntax error: nothing was decoded
		return nil, fmt.Errorf("config %s: %w", name, errs)
	}
	verrs := cfg.validate()
	for i := range verrs {
		if verrs[i].Line == 0 {
			verrs[i].Line = d.lineOf(verrs[i].Key)
		}
	}
	errs = append(errs, verrs...)
	errs.sortByLine()
	if len(errs) > maxProblems {
		more := len(errs) - maxProblems
		errs = append(errs[:maxProblems], FieldError{Problem: fmt.Sprintf("%d more problems not shown", more)})
	}
	if len(errs) > 0 {
		return nil, fmt.Errorf("config %s: %w", name, errs)
	}
	return cfg, nil
}

// decoder turns a raw TOML document into a Config, collecting every
// problem instead of stopping at the first.
type decoder struct {
	md        *toml.MetaData
	prims     map[string]toml.Primitive // key path → its undecoded value, for line lookups
	lines     map[string]int            // key path → line of its definition (cache)
	tableRows map[string][]int          // array-of-tables key → line of each [[header]]
	probes    int                       // keys probed for their line so far
	errs      ValidationErrors
}

// decodeFile decodes data into cfg. On a TOML syntax error it returns a nil
// decoder and that one error.
func decodeFile(data []byte, cfg *Config) (*decoder, ValidationErrors) {
	var prims map[string]toml.Primitive
	md, err := toml.Decode(string(data), &prims)
	if err != nil {
		return nil, ValidationErrors{syntaxError(err, data)}
	}
	d := &decoder{md: &md, prims: map[string]toml.Primitive{}, lines: map[string]int{}, tableRows: map[string][]int{}}
	raw := make(map[string]any, len(prims))
	for k, p := range prims {
		var v any
		if err := md.PrimitiveDecode(p, &v); err != nil { // cannot happen: any accepts every value
			return nil, ValidationErrors{syntaxError(err, data)}
		}
		raw[k] = v
		d.collectPrims(joinKey("", k), p)
	}
	d.collectArrayTables(data)
	d.decodeTable("", raw, reflect.ValueOf(cfg).Elem())
	return d, d.errs
}

// syntaxError turns a TOML parse error into a FieldError naming its line. A
// line that assigns a token-like key has its text withheld from the message.
func syntaxError(err error, data []byte) FieldError {
	var pe toml.ParseError
	if !errors.As(err, &pe) {
		return FieldError{Problem: "TOML syntax error: " + err.Error()}
	}
	msg := pe.Message
	if lineHasSecret(data, pe.Position.Line) {
		msg = "invalid value in a line that sets a token (text withheld)"
	}
	return FieldError{Key: syntaxKey(data, pe.Position.Line), Line: pe.Position.Line, Problem: "TOML syntax error: " + msg}
}

// syntaxKey names the key assigned on line n (1-based) of data with the
// table it is in ("lichess.stream_timeout"), read from the text: the
// parser's ParseError.LastKey names the table rather than the key for
// some errors ("threads = 4x"). "" when the line assigns nothing, or
// follows a broken table header (the parser reports "[matchmaking" on the
// line after it).
func syntaxKey(data []byte, n int) string {
	lines := strings.Split(string(data), "\n")
	if n < 1 || n > len(lines) {
		return ""
	}
	key, _, ok := strings.Cut(lines[n-1], "=")
	key = strings.TrimSpace(key)
	if !ok || key == "" || strings.HasPrefix(key, "[") || strings.HasPrefix(key, "#") {
		return ""
	}
	key = strings.Trim(key, "\"'")
	for i := n - 2; i >= 0; i-- {
		if !strings.HasPrefix(strings.TrimSpace(lines[i]), "[") {
			continue
		}
		if table, ok := headerName(lines[i]); ok {
			return joinKey(table, key)
		}
		return "" // under a broken header, which the error is about
	}
	return key
}

// headerName returns the table a "[table]" or "[[table]]" header line
// names (tableHeader, normalized).
func headerName(line string) (string, bool) {
	if t := strings.TrimSpace(line); strings.HasPrefix(t, "[[") {
		line = strings.Replace(strings.Replace(t, "[[", "[", 1), "]]", "]", 1)
	}
	m := tableHeader.FindStringSubmatch(strings.TrimRight(line, "\r\n"))
	if m == nil {
		return "", false
	}
	return normalizeHeader(m[1]), true
}

// lineHasSecret reports whether line n (1-based) of data assigns a key whose
// name mentions a token (other than a *_file key) or holds something shaped
// like a Lichess token.
func lineHasSecret(data []byte, n int) bool {
	lines := strings.Split(string(data), "\n")
	if n < 1 || n > len(lines) {
		return false
	}
	if strings.Contains(lines[n-1], "lip_") || strings.Contains(lines[n-1], "lio_") {
		return true
	}
	key, _, ok := strings.Cut(lines[n-1], "=")
	if !ok {
		return false
	}
	key = strings.ToLower(key)
	return strings.Contains(key, "token") && !strings.Contains(key, "file")
}

// lineProbe makes the TOML decoder report where a key is defined: decoding
// into it always fails with a ParseError carrying the key's position.
type lineProbe struct{}

var errProbe = errors.New("line probe")

// UnmarshalTOML always fails; see lineProbe.
func (lineProbe) UnmarshalTOML(any) error { return errProbe }

// collectPrims records the undecoded value of key path and, for tables, of
// every key below it, so that lineOf can find where a key is defined. Keys
// inside arrays are skipped: the decoder cannot tell their elements apart
// (collectArrayTables covers [[rules]]).
func (d *decoder) collectPrims(path string, p toml.Primitive) {
	d.prims[path] = p
	var sub map[string]toml.Primitive
	if err := d.md.PrimitiveDecode(p, &sub); err != nil {
		return // not a table
	}
	for k, sp := range sub {
		d.collectPrims(joinKey(path, k), sp)
	}
}

// probeLine returns the line where key path is defined, 0 when unknown.
func (d *decoder) probeLine(path string) (int, bool) {
	if n, ok := d.lines[path]; ok {
		return n, true
	}
	p, ok := d.prims[path]
	if !ok || d.probes >= maxLineProbes {
		return 0, false
	}
	d.probes++
	var probe lineProbe
	var pe toml.ParseError
	line := 0
	if err := d.md.PrimitiveDecode(p, &probe); errors.As(err, &pe) && pe.Position.Line > 0 {
		line = pe.Position.Line
	}
	d.lines[path] = line
	return line, line > 0
}

// collectArrayTables records the line of every top-level [[NAME]] header.
func (d *decoder) collectArrayTables(data []byte) {
	for i, line := range strings.Split(string(data), "\n") {
		t := strings.TrimSpace(line)
		if !strings.HasPrefix(t, "[[") {
			continue
		}
		end := strings.Index(t, "]]")
		if end < 0 {
			continue
		}
		name := strings.TrimSpace(t[2:end])
		d.tableRows[name] = append(d.tableRows[name], i+1)
	}
}

// lineOf returns the line where key (a path as built by joinKey and
// indexKey) is defined, 0 when unknown. A key inside the i-th element of an
// array of tables gets the line of that element's header; a key the file
// does not set gets the line of its table's header.
func (d *decoder) lineOf(key string) int {
	for k := key; k != ""; {
		if n, ok := d.probeLine(k); ok {
			return n
		}
		i := strings.LastIndexByte(k, '.')
		if i < 0 || strings.Contains(k, "[") {
			break
		}
		k = k[:i]
	}
	name, rest, ok := strings.Cut(key, "[")
	if !ok {
		return 0
	}
	var i int
	if _, err := fmt.Sscanf(rest, "%d]", &i); err != nil {
		return 0
	}
	if rows := d.tableRows[name]; i >= 0 && i < len(rows) {
		return rows[i]
	}
	return 0
}

// fail records a problem at key, with its line when known.
func (d *decoder) fail(key string, value any, problem, allowed string) {
	d.errs = append(d.errs, FieldError{
		Key: key, Value: formatValue(value), Problem: problem, Allowed: allowed, Line: d.lineOf(key),
	})
}

// typeError records that key holds a value of the wrong TOML type.
func (d *decoder) typeError(key string, v any, want string) {
	d.fail(key, v, "wrong type: "+knobs.TOMLType(v), want)
}

// typed returns v as a T; when v is not one it records a type error at key
// saying what is allowed (want).
func typed[T any](d *decoder, key string, v any, want string) (T, bool) {
	x, ok := v.(T)
	if !ok {
		d.typeError(key, v, want)
	}
	return x, ok
}

// orderedKeys returns m's keys sorted, so that decoding is deterministic
// (Parse puts the problems in file order afterwards).
func (d *decoder) orderedKeys(m map[string]any) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// decodeTable decodes the TOML table raw into the struct dst, reporting
// unknown keys (with a suggestion) and secrets.
func (d *decoder) decodeTable(path string, raw map[string]any, dst reflect.Value) {
	fields := fieldsOf(dst.Type())
	for _, k := range d.orderedKeys(raw) {
		v := raw[k]
		key := joinKey(path, k)
		if i, ok := fields.index[k]; ok {
			d.decodeValue(key, v, dst.Field(i))
			continue
		}
		if isSecretKey(k) {
			d.secret(key, k)
			continue
		}
		if fields.rest >= 0 {
			if _, isTable := v.(map[string]any); isTable {
				d.decodeRest(key, k, v, dst.Field(fields.rest))
				continue
			}
		}
		d.unknown(path, k, fields)
	}
}

// decodeRest stores the table v under name k in the catch-all map field dst.
func (d *decoder) decodeRest(key, k string, v any, dst reflect.Value) {
	if dst.IsNil() {
		dst.Set(reflect.MakeMap(dst.Type()))
	}
	elem := reflect.New(dst.Type().Elem()).Elem()
	d.decodeValue(key, v, elem)
	dst.SetMapIndex(reflect.ValueOf(k), elem)
}

// secret reports a token written into the config file, never showing it.
func (d *decoder) secret(key, name string) {
	allowed := "lichess.token_file (a file only you can read) or the LICHESS_TOKEN environment variable"
	if strings.HasPrefix(key, "web.") {
		allowed = "web.access_token_file (a file only you can read)"
	}
	d.errs = append(d.errs, FieldError{
		Key: key, Value: string(hidden), Line: d.lineOf(key),
		Problem: fmt.Sprintf("a %s must never be written in the config file", strings.ReplaceAll(name, "_", " ")),
		Allowed: allowed,
	})
}

// isSecretKey reports whether an unknown key looks like it holds a secret.
func isSecretKey(k string) bool {
	l := strings.ToLower(k)
	return (strings.Contains(l, "token") || strings.Contains(l, "password") || strings.Contains(l, "secret")) &&
		!strings.Contains(l, "file")
}

var (
	durationType = reflect.TypeOf(time.Duration(0))
	anyMapType   = reflect.TypeOf(map[string]any{})
	knobSetType  = reflect.TypeOf(KnobSet{})
)

// decodeValue decodes one TOML value v into dst according to dst's type,
// recording a type error (and leaving dst at its default) on mismatch.
func (d *decoder) decodeValue(key string, v any, dst reflect.Value) {
	t := dst.Type()
	switch {
	case t == durationType:
		s, ok := typed[string](d, key, v, `a duration string such as "20s", "1m30s", "24h" or "30d"`)
		if !ok {
			return
		}
		dur, err := duration.Parse(s)
		if errors.Is(err, duration.ErrNegative) {
			d.fail(key, s, "negative duration not allowed", `a duration of zero or more such as "0s", "20s" or "30d"`)
			return
		}
		if err != nil {
			d.fail(key, s, "not a duration", `a duration such as "100ms", "20s", "1m30s", "24h" or "30d"`)
			return
		}
		dst.SetInt(int64(dur))
	case t == anyMapType || t == knobSetType:
		m, ok := typed[map[string]any](d, key, v, "a table")
		if !ok {
			return
		}
		out := reflect.MakeMapWithSize(t, len(m))
		for _, k := range d.orderedKeys(m) {
			if t == anyMapType && !isScalar(m[k]) {
				d.typeError(joinKey(key, k), m[k], "a string, integer, float or boolean")
				continue
			}
			out.SetMapIndex(reflect.ValueOf(k), reflect.ValueOf(m[k]))
		}
		dst.Set(out)
	default:
		d.decodeKind(key, v, dst)
	}
}

// decodeKind handles the plain kinds: scalars, pointers, lists, tables.
func (d *decoder) decodeKind(key string, v any, dst reflect.Value) {
	t := dst.Type()
	switch t.Kind() {
	case reflect.String:
		if s, ok := typed[string](d, key, v, "a string"); ok {
			dst.SetString(s)
		}
	case reflect.Bool:
		if b, ok := typed[bool](d, key, v, "true or false"); ok {
			dst.SetBool(b)
		}
	case reflect.Int:
		n, ok := knobs.TOMLInt(v)
		if !ok {
			d.typeError(key, v, "an integer")
			return
		}
		if n < math.MinInt32 || n > math.MaxInt32 {
			d.fail(key, n, "integer too large", "an integer of at most 2147483647 in magnitude")
			return
		}
		dst.SetInt(n)
	case reflect.Float64:
		if x, ok := knobs.TOMLNumber(v); ok {
			dst.SetFloat(x)
		} else {
			d.typeError(key, v, "a number")
		}
	case reflect.Pointer:
		p := reflect.New(t.Elem())
		before := len(d.errs)
		d.decodeValue(key, v, p.Elem())
		if len(d.errs) == before {
			dst.Set(p)
		}
	case reflect.Slice:
		d.decodeSlice(key, v, dst)
	case reflect.Map:
		m, ok := typed[map[string]any](d, key, v, "a table")
		if !ok {
			return
		}
		if dst.IsNil() {
			dst.Set(reflect.MakeMap(t))
		}
		for _, k := range d.orderedKeys(m) {
			d.decodeRest(joinKey(key, k), k, m[k], dst)
		}
	case reflect.Struct:
		if m, ok := typed[map[string]any](d, key, v, "a table"); ok {
			d.decodeTable(key, m, dst)
		}
	default: // a Config field of a kind this decoder does not know: a bug
		d.fail(key, nil, "internal error: unsupported field type "+t.String(), "")
	}
}

// decodeSlice decodes a list of strings or an array of tables.
func (d *decoder) decodeSlice(key string, v any, dst reflect.Value) {
	t := dst.Type()
	if t.Elem().Kind() == reflect.Struct {
		tables, ok := asTables(v)
		if !ok {
			d.typeError(key, v, "an array of tables ([["+key+"]])")
			return
		}
		out := reflect.MakeSlice(t, 0, len(tables))
		for i, m := range tables {
			elem := reflect.New(t.Elem()).Elem()
			d.decodeTable(indexKey(key, i), m, elem)
			out = reflect.Append(out, elem)
		}
		dst.Set(out)
		return
	}
	if t.Elem().Kind() == reflect.Int {
		decodeList(d, key, v, dst, "an array of integers, e.g. [1600, 1800]", func(item any) (int, bool) {
			n, ok := knobs.TOMLInt(item)
			return int(n), ok && n >= math.MinInt32 && n <= math.MaxInt32
		})
		return
	}
	decodeList(d, key, v, dst, "an array of strings, e.g. [\"a\", \"b\"]", func(item any) (string, bool) {
		s, ok := item.(string)
		return s, ok
	})
}

// decodeList decodes an array into dst (a []T), each element converted by
// elem, which says false for an element of the wrong type; want says what
// the key allows.
func decodeList[T any](d *decoder, key string, v any, dst reflect.Value, want string, elem func(any) (T, bool)) {
	list, ok := typed[[]any](d, key, v, want)
	if !ok {
		return
	}
	out := make([]T, 0, len(list))
	for _, item := range list {
		x, ok := elem(item)
		if !ok {
			d.fail(key, v, "wrong type: an element is "+knobs.TOMLType(item), want)
			return
		}
		out = append(out, x)
	}
	dst.Set(reflect.ValueOf(out))
}

// asTables accepts an array of tables written either as [[key]] sections
// or as an inline array of inline tables.
func asTables(v any) ([]map[string]any, bool) {
	switch x := v.(type) {
	case []map[string]any:
		return x, true
	case []any:
		out := make([]map[string]any, 0, len(x))
		for _, e := range x {
			m, ok := e.(map[string]any)
			if !ok {
				return nil, false
			}
			out = append(out, m)
		}
		return out, true
	}
	return nil, false
}

// isScalar reports whether v is a TOML string, integer, float or boolean.
func isScalar(v any) bool {
	switch v.(type) {
	case string, int64, float64, bool:
		return true
	}
	return false
}
