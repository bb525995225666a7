package main

import (
	"bytes"
	"errors"
	"flag"
	"slices"
	"strings"
	"testing"
)

// TestParseFlagsInterleaved: flags parse anywhere on the line, "--" ends
// them, and fs.Args() keeps the arguments in order.
func TestParseFlagsInterleaved(t *testing.T) {
	for _, tc := range []struct {
		name   string
		args   []string
		format string
		n      int
		json   bool
		pos    []string
		err    error
	}{
		{"flags first", []string{"--format", "json", "game.pgn"}, "json", 1, false, []string{"game.pgn"}, nil},
		{"flags after", []string{"game.pgn", "--format", "json"}, "json", 1, false, []string{"game.pgn"}, nil},
		{"flags between", []string{"a.pgn", "-n=3", "b.pgn", "--json", "c.pgn"}, "text", 3, true, []string{"a.pgn", "b.pgn", "c.pgn"}, nil},
		{"no flags", []string{"a", "b"}, "text", 1, false, []string{"a", "b"}, nil},
		{"nothing", nil, "text", 1, false, nil, nil},
		{"dash is an argument", []string{"-", "--json"}, "text", 1, true, []string{"-"}, nil},
		{"double dash ends flags", []string{"a", "--", "--json", "-n", "4"}, "text", 1, false, []string{"a", "--json", "-n", "4"}, nil},
		{"double dash first", []string{"--", "-x"}, "text", 1, false, []string{"-x"}, nil},
		{"flags then double dash", []string{"--json", "a", "--", "b"}, "text", 1, true, []string{"a", "b"}, nil},
		{"value that looks like a flag", []string{"--format", "-x", "a"}, "-x", 1, false, []string{"a"}, nil},
		{"unknown flag after argument", []string{"a", "--bogus"}, "", 0, false, nil, errUsage},
		{"missing value", []string{"a", "--format"}, "", 0, false, nil, errUsage},
		{"help after argument", []string{"a", "-h"}, "", 0, false, nil, flag.ErrHelp},
	} {
		t.Run(tc.name, func(t *testing.T) {
			fs := flag.NewFlagSet("test", flag.ContinueOnError)
			fs.SetOutput(&bytes.Buffer{})
			format := fs.String("format", "text", "")
			n := fs.Int("n", 1, "")
			asJSON := fs.Bool("json", false, "")
			err := parseFlags(fs, tc.args)
			if tc.err != nil {
				if !errors.Is(err, tc.err) {
					t.Fatalf("err %v, want %v", err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if *format != tc.format || *n != tc.n || *asJSON != tc.json {
				t.Errorf("format %q n %d json %v, want %q %d %v", *format, *n, *asJSON, tc.format, tc.n, tc.json)
			}
			if got := fs.Args(); !slices.Equal(got, tc.pos) && !(len(got) == 0 && len(tc.pos) == 0) {
				t.Errorf("args %q, want %q", got, tc.pos)
			}
		})
	}
}

// TestParseOnlyFlags: a command without positional arguments refuses one
// as a usage error, naming it, wherever it stands on the line.
func TestParseOnlyFlags(t *testing.T) {
	for _, tc := range []struct {
		name string
		args []string
		err  error
	}{
		{"flags only", []string{"--json"}, nil},
		{"nothing", nil, nil},
		{"argument after flags", []string{"--json", "extra"}, errUsage},
		{"argument before flags", []string{"extra", "--json"}, errUsage},
		{"help", []string{"-h"}, flag.ErrHelp},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var out bytes.Buffer
			fs := flag.NewFlagSet("test", flag.ContinueOnError)
			fs.SetOutput(&out)
			fs.Bool("json", false, "")
			err := parseOnlyFlags(fs, tc.args)
			if !errors.Is(err, tc.err) || (tc.err == nil && err != nil) {
				t.Fatalf("err %v, want %v", err, tc.err)
			}
			if tc.err == errUsage && !bytes.Contains(out.Bytes(), []byte(`unexpected arguments ["extra"]`)) {
				t.Errorf("output %q does not name the argument", out.String())
			}
		})
	}
}

// TestLoadConfig: no path is the built-in defaults; a missing file is an
// error naming it.
func TestLoadConfig(t *testing.T) {
	cfg, err := loadConfig("")
	if err != nil || cfg == nil {
		t.Fatalf("loadConfig(\"\") = %v, %v; want the defaults", cfg, err)
	}
	missing := t.TempDir() + "/missing.toml"
	if _, err := loadConfig(missing); err == nil || !strings.Contains(err.Error(), "missing.toml") {
		t.Fatalf("loadConfig(missing) err %v, want one naming the file", err)
	}
}

// TestSetFlags: only the flags given on the line count as set, even when
// given their default value.
func TestSetFlags(t *testing.T) {
	fs := flag.NewFlagSet("x", flag.ContinueOnError)
	fs.Int("depth", 15, "")
	fs.Bool("fast", false, "")
	fs.String("fen", "", "")
	if err := fs.Parse([]string{"--depth", "15", "--fast"}); err != nil {
		t.Fatal(err)
	}
	if got := setFlags(fs); len(got) != 2 || !got["depth"] || !got["fast"] {
		t.Errorf("set flags %v, want depth and fast", got)
	}
	if !flagSet(fs, "depth") || flagSet(fs, "fen") || flagSet(fs, "nope") {
		t.Error("flagSet disagrees with the line")
	}
}

// TestCloseOnReturn: the caller's error wins; without one the error
// closing is returned, naming what was closed; a clean close changes
// nothing.
func TestCloseOnReturn(t *testing.T) {
	failing := func() error { return errors.New("disk full") }
	clean := func() error { return nil }
	for _, c := range []struct {
		err   error
		close func() error
		want  string
	}{
		{errors.New("query failed"), failing, "query failed"},
		{nil, failing, "closing the store: disk full"},
		{nil, clean, ""},
	} {
		err := c.err
		closeOnReturn(&err, "the store", c.close)
		if c.want == "" {
			if err != nil {
				t.Errorf("clean close: %v", err)
			}
			continue
		}
		if err == nil || err.Error() != c.want {
			t.Errorf("error %v, want %q", err, c.want)
		}
	}
}
