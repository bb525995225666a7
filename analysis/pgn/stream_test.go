package pgn

import (
	"bytes"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// streamAll reads every game of data through a Stream.
func streamAll(t *testing.T, data []byte, lim Limits) (games []*Game, errs []error, final error) {
	t.Helper()
	st := NewStream(bytes.NewReader(data), lim)
	for {
		g, err := st.Next()
		var se *SyntaxError
		switch {
		case errors.Is(err, io.EOF):
			return games, errs, nil
		case err == nil:
			games = append(games, g)
		case errors.As(err, &se):
			errs = append(errs, err)
		default:
			return games, errs, err
		}
	}
}

func sameGames(t *testing.T, want, got []*Game) {
	t.Helper()
	if len(want) != len(got) {
		t.Fatalf("stream read %d games, Parse %d", len(got), len(want))
	}
	for i := range want {
		w, g := want[i], got[i]
		if w.Index != g.Index || w.Line != g.Line || len(w.Moves) != len(g.Moves) || w.Result != g.Result || len(w.Tags) != len(g.Tags) {
			t.Errorf("game %d: stream index %d line %d %d moves %q, Parse index %d line %d %d moves %q",
				i, g.Index, g.Line, len(g.Moves), g.Result, w.Index, w.Line, len(w.Moves), w.Result)
		}
	}
}

func TestStreamMatchesParse(t *testing.T) {
	var all []byte
	files, _ := filepath.Glob("../../../shared/lichess-games/*.pgn")
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		all = append(append(all, data...), '\n', '\n')
	}
	all = append(all, []byte(`[Event "comment with a tag-like line"]

1. e4 { a comment
[%clk 0:01:00] still the comment } e5 2. Nf3 1-0
[Event "no blank line before"]
1. d4 (1. c4 e5
2. Nc3) d5 *

[Event "Broken"]

1. e4 ( e5 0-1

1. e4 e5 1/2-1/2
`)...)
	want, werrs := Parse(all)
	got, gerrs, final := streamAll(t, all, Limits{})
	if final != nil {
		t.Fatal(final)
	}
	sameGames(t, want, got)
	if len(werrs) != len(gerrs) {
		t.Errorf("stream errors %v, Parse errors %v", gerrs, werrs)
	}
	byEvent := map[string]*Game{}
	for _, g := range got {
		if ev, ok := g.Tag("Event"); ok {
			byEvent[ev] = g
		}
	}
	if g := byEvent["comment with a tag-like line"]; g == nil || len(g.Moves) != 3 || g.Moves[0].Comments[0] != "a comment\n[%clk 0:01:00] still the comment" {
		t.Errorf("a '[' line inside a comment split the game: %+v", g)
	}
	if g := byEvent["no blank line before"]; g == nil || len(g.Moves) != 2 || len(g.Moves[0].Variations) != 1 {
		t.Errorf("game after a game without blank line: %+v", g)
	}

}

// endless is an input that never ends, like /dev/zero or a stuck pipe.
type endless struct{ b byte }

func (e endless) Read(p []byte) (int, error) {
	for i := range p {
		p[i] = e.b
	}
	return len(p), nil
}

func TestStreamLimitsAreErrorsNamingTheLimit(t *testing.T) {
	game := []byte("[Event \"x\"]\n\n1. e4 e5 2. Nf3 Nc6 1-0\n\n")
	many := bytes.Repeat(game, 100)
	tests := []struct {
		name   string
		r      io.Reader
		lim    Limits
		want   string
		before int // games read before the error
	}{
		{"endless zeros", endless{0}, Limits{}, "game 1 (from line 1) is larger than the per-game limit of 16 MiB", 0},
		{"endless comment", io.MultiReader(strings.NewReader("1. e4 {"), endless{'x'}), Limits{}, "per-game limit of 16 MiB", 0},
		{"endless newlines", endless{'\n'}, Limits{Game: 1 << 20, Total: 4 << 20}, "the input is larger than the total limit of 4 MiB", 0},
		{"total", bytes.NewReader(many), Limits{Total: int64(len(game))*10 + 5}, "total limit of", 9}, // game 10 ends only when game 11 starts, past the limit
		{"one big game", bytes.NewReader(append(append([]byte{}, game...), append([]byte("[Event \"big\"]\n\n1. e4 {"), append(bytes.Repeat([]byte("y"), 5000), []byte("} e5 *\n")...)...)...)),
			Limits{Game: 4 << 10}, "game 2 (from line 5) is larger than the per-game limit of 4 KiB", 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			st := NewStream(tt.r, tt.lim)
			n := 0
			for {
				_, err := st.Next()
				if err == nil {
					n++
					continue
				}
				var le *LimitError
				if !errors.As(err, &le) || !strings.Contains(err.Error(), tt.want) {
					t.Fatalf("after %d games: %v, want a limit error containing %q", n, err, tt.want)
				}
				break
			}
			if n != tt.before {
				t.Errorf("%d games before the limit, want %d", n, tt.before)
			}
		})
	}
}

func FuzzStream(f *testing.F) {
	f.Add([]byte("[Event \"x\"]\n\n1. e4 { [%eval 0.2]\n[x] } e5?! (1... c5 2. Nf3) 2. Nf3 $6 1-0\n[A \"b\"]\n1. d4 *"))
	f.Add([]byte("%x\n; y\n1... Nf6 <r> 2. O-O-O# 1/2-1/2\n[B \"\\\"]\"]\n*"))
	f.Fuzz(func(t *testing.T, data []byte) {
		want, werrs := Parse(data)
		got, gerrs, final := streamAll(t, data, Limits{})
		if final != nil {
			t.Fatal(final)
		}
		if len(werrs) == 0 && len(gerrs) == 0 {
			sameGames(t, want, got)
		}
		for _, e := range gerrs {
			var se *SyntaxError
			if errors.As(e, &se) && (se.Line < 1 || se.Index < 1) {
				t.Errorf("error without position: %v", e)
			}
		}
	})
}
