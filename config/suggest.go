package config

import (
	"fmt"
	"reflect"
	"strings"
)

// unknown reports key k of the table at path as unknown, suggesting the
// closest known key of that table or, failing that, the section where a
// key of that name lives.
func (d *decoder) unknown(path, k string, fields tableFields) {
	key := joinKey(path, k)
	problem := "unknown key"
	if path == "" {
		problem = "unknown section or key"
	}
	if s := closest(k, fields.names); s != "" {
		problem += fmt.Sprintf(" (did you mean %q?)", joinKey(path, s))
	} else if path == "" {
		if sec := sectionOf(k); sec != "" {
			problem += fmt.Sprintf(" (did you mean %q in [%s]?)", k, sec)
		}
	}
	allowed := strings.Join(fields.names, ", ")
	if fields.rest >= 0 {
		allowed += ", or a table [" + joinKey(path, "NAME") + "]"
	}
	d.errs = append(d.errs, FieldError{Key: key, Problem: problem, Allowed: allowed, Line: d.lineOf(key)})
}

// sectionOf returns the top-level section that has a key named k, or "".
func sectionOf(k string) string {
	t := reflect.TypeOf(Config{})
	top := fieldsOf(t)
	for _, sec := range top.names {
		ft := t.Field(top.index[sec]).Type
		if ft.Kind() != reflect.Struct || ft == durationType {
			continue
		}
		if _, ok := fieldsOf(ft).index[k]; ok {
			return sec
		}
	}
	return ""
}

// closest returns the candidate nearest to k when it is near enough to be a
// plausible typo (same key modulo case, '-' and '_'; a truncation of at least
// four characters; or a small edit distance); otherwise "".
func closest(k string, candidates []string) string {
	norm := func(s string) string { return strings.ReplaceAll(strings.ToLower(s), "-", "_") }
	nk := norm(k)
	best, bestDist := "", -1
	for _, c := range candidates {
		nc := norm(c)
		if nc == nk || strings.ReplaceAll(nc, "_", "") == strings.ReplaceAll(nk, "_", "") {
			return c
		}
		dist := editDistance(nk, nc)
		if bestDist < 0 || dist < bestDist {
			best, bestDist = c, dist
		}
	}
	if bestDist > 0 && len(nk) >= 4 {
		prefixed := ""
		for _, c := range candidates {
			if strings.HasPrefix(norm(c), nk) && (prefixed == "" || len(c) < len(prefixed)) {
				prefixed = c
			}
		}
		if prefixed != "" {
			return prefixed
		}
	}
	limit := len([]rune(k)) / 3
	if limit < 1 {
		limit = 1
	}
	if bestDist >= 0 && bestDist <= limit {
		return best
	}
	return ""
}

// editDistance is the Levenshtein distance between a and b (by rune).
func editDistance(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	prev := make([]int, len(rb)+1)
	cur := make([]int, len(rb)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(ra); i++ {
		cur[0] = i
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(rb)]
}
