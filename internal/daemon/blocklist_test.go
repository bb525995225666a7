package daemon

import (
	"context"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/outpostchess/outpost/config"
	"github.com/outpostchess/outpost/lichess"
)

func TestParseBlockList(t *testing.T) {
	for _, tc := range []struct {
		name, in string
		want     []string
		err      string
	}{
		{"names, blanks and comments", "# bots we skip\nBadBot\n\n  other-bot  # spams\r\nx_y\n", []string{"BadBot", "other-bot", "x_y"}, ""},
		{"empty", "", nil, ""},
		{"only comments", "# nothing\n#\n", nil, ""},
		{"not a name", "good\nno spaces allowed\n", nil, `line 2: "no spaces allowed" is not a Lichess username`},
		{"html error page", "<html><body>502</body></html>\n", nil, "line 1:"},
		{"too long", strings.Repeat("a", maxBlockListBytes+10), nil, "larger than"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := ParseBlockList(strings.NewReader(tc.in))
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("error %v, want %q", err, tc.err)
				}
				return
			}
			if err != nil || strings.Join(got, ",") != strings.Join(tc.want, ",") {
				t.Fatalf("got %q, %v; want %q", got, err, tc.want)
			}
		})
	}
}

func FuzzParseBlockList(f *testing.F) {
	f.Add("BadBot\n# c\nother-bot # x\n")
	f.Add("\x00\xff\n")
	f.Fuzz(func(t *testing.T, in string) {
		names, err := ParseBlockList(strings.NewReader(in))
		if err != nil {
			return
		}
		for _, n := range names {
			if !config.ValidUsername(n) {
				t.Fatalf("accepted %q", n)
			}
		}
	})
}

// TestBlockListsKeepLastGood: a file and a URL are read; when the file
// turns bad and the URL answers 500, both keep their last good list; once
// they are good again the new lists replace them.
func TestBlockListsKeepLastGood(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "block.txt")
	write := func(s string) {
		if err := os.WriteFile(file, []byte(s), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	write("FileBot\n")
	var body atomic.Value
	body.Store("UrlBot\n")
	var fail atomic.Bool
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		if fail.Load() {
			http.Error(w, "down", http.StatusInternalServerError)
			return
		}
		_, _ = w.Write([]byte(body.Load().(string)))
	}))
	defer srv.Close()
	b := newBlockLists([]string{file, srv.URL + "/list.txt"})
	ctx := context.Background()
	if errs := b.refresh(ctx); len(errs) != 0 {
		t.Fatal(errs)
	}
	if !b.blocked("filebot") || !b.blocked("URLBOT") || b.blocked("other") {
		t.Fatal("first lists not applied")
	}
	write("not a name!\n")
	fail.Store(true)
	errs := b.refresh(ctx)
	if len(errs) != 2 || !strings.Contains(errs[0].Error(), file) || !strings.Contains(errs[1].Error(), "HTTP 500") {
		t.Fatalf("errors %v", errs)
	}
	if !b.blocked("FileBot") || !b.blocked("UrlBot") {
		t.Fatal("a failed read dropped the last good list")
	}
	write("NewBot\n")
	fail.Store(false)
	body.Store("")
	if errs := b.refresh(ctx); len(errs) != 0 {
		t.Fatal(errs)
	}
	if b.blocked("FileBot") || !b.blocked("NewBot") || b.blocked("UrlBot") {
		t.Fatal("new lists not applied")
	}
	if err := os.Remove(file); err != nil {
		t.Fatal(err)
	}
	if errs := b.refresh(ctx); len(errs) != 1 || !b.blocked("NewBot") {
		t.Fatalf("a missing file: %v, blocked %v", errs, b.blocked("NewBot"))
	}
}

// TestMayChallengeBlockListSources: a bot on a source's list is not
// challenged, by id or by name.
func TestMayChallengeBlockListSources(t *testing.T) {
	file := filepath.Join(t.TempDir(), "block.txt")
	if err := os.WriteFile(file, []byte("Spammer\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	d := &Daemon{cfg: config.Default(), blockLists: newBlockLists([]string{file})}
	d.blockLists.refresh(context.Background())
	if d.mayChallenge(lichess.User{ID: "spammer", Username: "Spammer"}) {
		t.Fatal("a bot on a block list source may be challenged")
	}
	if !d.mayChallenge(lichess.User{ID: "friend", Username: "Friend"}) {
		t.Fatal("a bot on no list is refused")
	}
}
