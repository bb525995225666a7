package sandbox

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"mime"
	"net/http"
	"net/url"
	"strconv"
)

// readParams reads a request's parameters as Lichess (Play's form binding)
// does: from a JSON object body when the content type is JSON, else from
// the URL-encoded form. A JSON body is flattened to form keys: nested
// objects join their keys with dots ({"clock":{"limit":60}} is
// clock.limit, as is a flat "clock.limit" key), numbers and booleans
// become their text, arrays key[0], key[1]…, and null is absent.
func readParams(r *http.Request) (url.Values, *apiError) {
	media, _, _ := mime.ParseMediaType(r.Header.Get("Content-Type"))
	if media != "application/json" {
		if err := r.ParseForm(); err != nil {
			return nil, badRequest(formProblem(err))
		}
		return r.Form, nil
	}
	body, err := io.ReadAll(r.Body) // bounded by MaxRequestBody (see ServeHTTP)
	if err != nil {
		return nil, badRequest(formProblem(err))
	}
	var obj map[string]any
	d := json.NewDecoder(bytes.NewReader(body))
	d.UseNumber()
	if err := d.Decode(&obj); err != nil {
		return nil, badRequest("Invalid JSON body: " + err.Error())
	}
	vals := url.Values{}
	flattenJSON(vals, "", obj)
	return vals, nil
}

// flattenJSON adds the JSON value v under key to vals (see readParams).
func flattenJSON(vals url.Values, key string, v any) {
	join := func(k string) string {
		if key == "" {
			return k
		}
		return key + "." + k
	}
	switch x := v.(type) {
	case nil:
	case map[string]any:
		for k, sub := range x {
			flattenJSON(vals, join(k), sub)
		}
	case []any:
		for i, sub := range x {
			flattenJSON(vals, key+"["+strconv.Itoa(i)+"]", sub)
		}
	case json.Number:
		vals.Add(key, normalizeNumber(x))
	case bool:
		vals.Add(key, strconv.FormatBool(x))
	case string:
		vals.Add(key, x)
	}
}

// normalizeNumber writes a JSON number as a form value: an integral number
// (60 or 60.0) as an integer, any other as written.
func normalizeNumber(n json.Number) string {
	if i, err := n.Int64(); err == nil {
		return strconv.FormatInt(i, 10)
	}
	if f, err := n.Float64(); err == nil && f == float64(int64(f)) {
		return strconv.FormatInt(int64(f), 10)
	}
	return n.String()
}

// Form error messages, as Lichess writes them (Play's English texts).
const (
	msgInvalid  = "Invalid value"
	msgRequired = "This field is required"
	msgNumber   = "Numeric value expected"
	msgBoolean  = "Boolean value expected"
)

// msgMax and msgMin are Play's range messages.
func msgMax(n int) string { return fmt.Sprintf("Must be less or equal to %d", n) }
func msgMin(n int) string { return fmt.Sprintf("Must be greater or equal to %d", n) }

// fieldErrors are a form's validation errors by field; "global" holds the
// errors of the form as a whole, as Lichess names them.
type fieldErrors map[string][]string

// add records a problem with a field.
func (fe fieldErrors) add(field, msg string) { fe[field] = append(fe[field], msg) }

// write answers 400 with the errors the way Lichess answers a form error
// on its API: each field with its messages, and the same object again
// under "error" (for older clients).
func (fe fieldErrors) write(w http.ResponseWriter) {
	body := make(map[string]any, len(fe)+1)
	inner := make(map[string][]string, len(fe))
	for k, msgs := range fe {
		body[k] = msgs
		inner[k] = msgs
	}
	body["error"] = inner
	writeJSON(w, http.StatusBadRequest, body)
}
