package pgn

import (
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

func TestParseMovetextFeatures(t *testing.T) {
	src := "\ufeff[Event \"Test \\\"quoted\\\"\"]\r\n[White \"A\"]\r\n\r\n" +
		"{ before } 1. e4! $1 { c1 } { c2 } 1... e5?! (1... c5 { sic } 2. Nf3 (2. c3) d6) 2.Nf3 Nc6 ; rest of line\n" +
		"% escaped line ignored\n3. Bb5 a6 1-0\n"
	games, errs := Parse([]byte(src))
	if len(errs) > 0 || len(games) != 1 {
		t.Fatalf("errs %v games %d", errs, len(games))
	}
	g := games[0]
	if v, _ := g.Tag("Event"); v != `Test "quoted"` {
		t.Errorf("event %q", v)
	}
	if !reflect.DeepEqual(g.Initial, []string{"before"}) {
		t.Errorf("initial %q", g.Initial)
	}
	var sans []string
	for _, n := range g.Moves {
		sans = append(sans, n.SAN)
	}
	if strings.Join(sans, " ") != "e4 e5 Nf3 Nc6 Bb5 a6" {
		t.Fatalf("mainline %v", sans)
	}
	e4, e5, nc6 := g.Moves[0], g.Moves[1], g.Moves[3]
	if !reflect.DeepEqual(e4.NAGs, []int{1, 1}) || !reflect.DeepEqual(e4.Comments, []string{"c1", "c2"}) {
		t.Errorf("e4 %+v", e4)
	}
	if !reflect.DeepEqual(e5.NAGs, []int{6}) || len(e5.Variations) != 1 {
		t.Fatalf("e5 %+v", e5)
	}
	v := e5.Variations[0]
	if len(v) != 3 || v[0].SAN != "c5" || v[0].Comments[0] != "sic" || len(v[1].Variations) != 1 || v[1].Variations[0][0].SAN != "c3" {
		t.Errorf("variation %+v", v)
	}
	if !reflect.DeepEqual(nc6.Comments, []string{"rest of line"}) {
		t.Errorf("; comment %q", nc6.Comments)
	}
	if g.Result != "1-0" || g.Moves[4].Line != 6 {
		t.Errorf("result %q line of Bb5 %d", g.Result, g.Moves[4].Line)
	}
}

func TestMalformedGameNamesGameAndLineAndKeepsOthers(t *testing.T) {
	src := `[Event "One"]
[White "Alice"]

1. e4 e5 1-0

[Event "Two"]
[White "Bob"]
[Site "https://lichess.org/abcdefgh"]

1. e4 e5 2. Nf3 ) Nc6 0-1

[Event "Three"]

1. d4 { never closed
`
	games, errs := Parse([]byte(src))
	if len(games) != 1 || len(errs) != 2 {
		t.Fatalf("games %d errs %v", len(games), errs)
	}
	var se *SyntaxError
	if !errors.As(errs[0], &se) || se.Index != 2 || se.Line != 10 || !strings.Contains(se.Game, `White "Bob"`) || !strings.Contains(se.Msg, "')'") {
		t.Errorf("first error %#v", errs[0])
	}
	if !errors.As(errs[1], &se) || se.Index != 3 || se.Line != 14 || !strings.Contains(se.Msg, "never closed") {
		t.Errorf("second error %#v", errs[1])
	}
}

func TestMissingResultAndBareMovetext(t *testing.T) {
	src := "1. e4 e5 2. Nf3\n\n[Event \"B\"]\n\n1. d4 *"
	games, errs := Parse([]byte(src))
	if len(errs) > 0 || len(games) != 2 {
		t.Fatalf("games %d errs %v", len(games), errs)
	}
	if games[0].Result != "" || len(games[0].Warnings) != 1 || len(games[0].Moves) != 3 {
		t.Errorf("first %+v", games[0])
	}
	if games[1].Result != "*" || games[1].Index != 2 {
		t.Errorf("second %+v", games[1])
	}
}

func TestRejects(t *testing.T) {
	for _, src := range []string{
		"1. e4 $999 *",
		"1. e4 (e5 *",
		"1. e4 ?? ?!? *",
		"[Event 3]\n\n1. e4 *",
		"[Event \"x\"\n\n1. e4 *",
		"1. e4 hello *",
		"( e4 ) *",
		"1. e4 \"str\" *",
	} {
		games, errs := Parse([]byte(src))
		if len(errs) == 0 {
			t.Errorf("%q accepted: %+v", src, games)
		}
	}
}

func TestSharedLichessGamesParse(t *testing.T) {
	files, _ := filepath.Glob("../../../shared/lichess-games/*.pgn")
	if len(files) == 0 {
		t.Skip("shared games not found")
	}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		games, errs := Parse(data)
		if len(errs) > 0 || len(games) != 1 || games[0].Result == "" || len(games[0].Moves) < 40 {
			t.Errorf("%s: %v, %d games", f, errs, len(games))
		}
	}
}

func FuzzParse(f *testing.F) {
	f.Add([]byte("[Event \"x\"]\n\n1. e4 { [%eval 0.2] } e5?! (1... c5 2. Nf3) 2. Nf3 $6 1-0"))
	f.Add([]byte("1. e4 (e5 (c5 ( d5 ))) *"))
	f.Add([]byte("{ open"))
	f.Add([]byte("[A \"\\"))
	f.Add([]byte("%x\n; y\n1... Nf6 <r> 2. O-O-O# 1/2-1/2"))
	files, _ := filepath.Glob("../../../shared/lichess-games/*.pgn")
	for _, p := range files {
		if data, err := os.ReadFile(p); err == nil {
			f.Add(data)
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		games, errs := Parse(data)
		for _, e := range errs {
			var se *SyntaxError
			if errors.As(e, &se) && (se.Line < 1 || se.Index < 1) {
				t.Errorf("error without position: %v", e)
			}
		}
		for _, g := range games {
			for _, n := range g.Moves {
				if n.SAN == "" {
					t.Errorf("empty move in %s", g.Describe())
				}
			}
		}
	})
}
