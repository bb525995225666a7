package comparerun

import (
	"errors"
	"strings"
	"testing"
)

func TestParseGameRef(t *testing.T) {
	tests := []struct {
		in       string
		anyHost  bool
		id, side string
		bad      bool
	}{
		{in: "AbCdEfGh", id: "AbCdEfGh"},
		{in: "  q7ZvsdUF\n", id: "q7ZvsdUF"},
		{in: "AbCdEfGhIjKl", id: "AbCdEfGh"},
		{in: "https://lichess.org/AbCdEfGh", id: "AbCdEfGh"},
		{in: "http://lichess.org/AbCdEfGh/", id: "AbCdEfGh"},
		{in: "https://lichess.org/AbCdEfGh/black", id: "AbCdEfGh", side: "black"},
		{in: "https://lichess.org/AbCdEfGh/white#32", id: "AbCdEfGh", side: "white"},
		{in: "https://lichess.org/AbCdEfGhIjKl", id: "AbCdEfGh"},
		{in: "https://lichess.org/AbCdEfGh?foo=bar", id: "AbCdEfGh"},
		{in: "https://en.lichess.org/AbCdEfGh", id: "AbCdEfGh"},
		{in: "https://lichess.dev/CCW6EEru", id: "CCW6EEru"},
		{in: "lichess.org/AbCdEfGh/black", id: "AbCdEfGh", side: "black"},
		{in: "https://lichess.org/game/export/AbCdEfGh", id: "AbCdEfGh"},
		{in: "http://127.0.0.1:8080/AbCdEfGh", anyHost: true, id: "AbCdEfGh"},
		{in: "http://127.0.0.1:8080/AbCdEfGh", bad: true},
		{in: "https://lichess.org.evil.com/AbCdEfGh", bad: true},
		{in: "https://notlichess.org/AbCdEfGh", bad: true},
		{in: "", bad: true},
		{in: "AbCdEfG", bad: true},
		{in: "AbCdEfGhI", bad: true},
		{in: "AbCd-fGh", bad: true},
		{in: "https://lichess.org/", bad: true},
		{in: "https://lichess.org/@/alice", bad: true},
		{in: "https://lichess.org/AbCdEfGh/red", bad: true},
		{in: "https://lichess.org/AbCdEfGh/black/x", bad: true},
		{in: "ftp://lichess.org/AbCdEfGh", bad: true},
		{in: "https:///AbCdEfGh", anyHost: true, bad: true},
		{in: "games.pgn", bad: true},
		{in: "https://lichess.org/analysis", bad: true},
		{in: "https://lichess.org/training/", bad: true},
		{in: "https://lichess.org/training/AbCdEfGh", bad: true},
	}
	for _, tc := range tests {
		ref, err := ParseGameRef(tc.in, tc.anyHost)
		if tc.bad {
			if err == nil {
				t.Errorf("ParseGameRef(%q) = %+v, want an error", tc.in, ref)
			} else if !errors.Is(err, ErrBadGameRef) {
				t.Errorf("ParseGameRef(%q) error %v does not wrap ErrBadGameRef", tc.in, err)
			}
			continue
		}
		if err != nil {
			t.Errorf("ParseGameRef(%q): %v", tc.in, err)
			continue
		}
		if ref.ID != tc.id || ref.Color != tc.side {
			t.Errorf("ParseGameRef(%q) = %+v, want id %q colour %q", tc.in, ref, tc.id, tc.side)
		}
	}
}

func FuzzParseGameRef(f *testing.F) {
	for _, s := range []string{"AbCdEfGh", "AbCdEfGhIjKl", "https://lichess.org/AbCdEfGh/black#3", "lichess.org/x",
		"http://127.0.0.1:1/AbCdEfGh", "https://lichess.org/game/export/AbCdEfGh", "%zz", "://"} {
		f.Add(s, false)
		f.Add(s, true)
	}
	f.Fuzz(func(t *testing.T, s string, anyHost bool) {
		ref, err := ParseGameRef(s, anyHost)
		if err != nil {
			if !errors.Is(err, ErrBadGameRef) {
				t.Fatalf("error %v does not wrap ErrBadGameRef", err)
			}
			return
		}
		if !isGameID(ref.ID) || len(ref.ID) != 8 {
			t.Fatalf("ParseGameRef(%q) id %q", s, ref.ID)
		}
		if !strings.Contains(s, ref.ID) {
			t.Fatalf("ParseGameRef(%q) id %q not in the input", s, ref.ID)
		}
		if ref.Color != "" && ref.Color != "white" && ref.Color != "black" {
			t.Fatalf("colour %q", ref.Color)
		}
		// a parsed id parses to itself
		again, err := ParseGameRef(ref.ID, false)
		if err != nil || again.ID != ref.ID {
			t.Fatalf("id %q does not parse back: %v", ref.ID, err)
		}
	})
}
