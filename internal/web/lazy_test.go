package web

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/outpostchess/outpost/analysis/ewr"
)

func TestLazyEWRReportsUnavailable(t *testing.T) {
	opened := 0
	l := NewLazyEWR(func() (*ewr.Calculator, func(), error) {
		opened++
		return nil, nil, errors.New("no weights")
	})
	for range 2 {
		_, err := l.Calculate(context.Background(), ewr.Position{}, ewr.DefaultParams(), nil)
		if !errors.Is(err, ErrUnavailable) || !strings.Contains(err.Error(), "not available") || !strings.Contains(err.Error(), "no weights") {
			t.Errorf("err = %v", err)
		}
		// The game report's critical moments say the same.
		_, err = l.Moment(context.Background(), ewr.Game{Moves: []string{"e2e4"}}, 1, nil)
		if !errors.Is(err, ErrUnavailable) || !strings.Contains(err.Error(), "no weights") {
			t.Errorf("moment: err = %v", err)
		}
	}
	if opened != 1 {
		t.Errorf("opened %d times", opened)
	}
	l.Close()
}

func TestReadAccessToken(t *testing.T) {
	dir := t.TempDir()
	write := func(name, body string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(body), 0o600); err != nil {
			t.Fatal(err)
		}
		return p
	}
	for _, tc := range []struct {
		name, path, want, err string
	}{
		{"no file", "", "", ""},
		{"token trimmed", write("good", "  0123456789abcdef\n"), "0123456789abcdef", ""},
		{"missing", filepath.Join(dir, "none"), "", "access token: open"},
		{"empty", write("empty", "\n"), "", "is empty"},
		{"short", write("short", "abcde"), "", "the token has 5 characters: want at least 16"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := ReadAccessToken(tc.path)
			if tc.err == "" && err != nil || tc.err != "" && (err == nil || !strings.Contains(err.Error(), tc.err)) {
				t.Fatalf("err %v, want %q", err, tc.err)
			}
			if got != tc.want {
				t.Errorf("token %q, want %q", got, tc.want)
			}
		})
	}
}
