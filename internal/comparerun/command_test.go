package comparerun

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestRequestSource(t *testing.T) {
	missing := filepath.Join(t.TempDir(), "missing.pgn")
	f := &Fetcher{}
	for _, tc := range []struct {
		name    string
		req     Request
		want    Source
		wantErr string
	}{
		{"user", Request{User: "alice", Fetcher: f, Since: 48 * time.Hour, Max: 7}, UserSource{Fetcher: f, User: "alice", Since: 48 * time.Hour, Max: 7}, ""},
		{"missing file", Request{File: missing}, nil, "games file"},
		{"both", Request{File: missing, User: "alice"}, nil, "not both"},
		{"neither", Request{}, nil, "needs a file or a user"},
		{"no fetcher", Request{User: "alice"}, nil, "no Lichess fetcher"},
		{"negative max", Request{User: "alice", Fetcher: f, Max: -1}, nil, "max -1"},
	} {
		got, err := tc.req.Source()
		if tc.wantErr != "" {
			if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
				t.Errorf("%s: error %v, want it to mention %q", tc.name, err, tc.wantErr)
			}
			continue
		}
		if err != nil || got != tc.want {
			t.Errorf("%s: %+v, %v; want %+v", tc.name, got, err, tc.want)
		}
	}
	if k := (Request{User: "alice"}).Key(); k != "alice" {
		t.Errorf("user key %q", k)
	}
	if k := (Request{File: "x.pgn"}).Key(); !strings.HasPrefix(k, "pgn:/") || !strings.HasSuffix(k, "/x.pgn") {
		t.Errorf("file key %q", k)
	}
}

// TestExecuteAndWriteLast runs a file comparison the way `outpost compare
// --pgn FILE --json` does, then prints it back as `--last` does.
func TestExecuteAndWriteLast(t *testing.T) {
	path, _, games := offlineFile(t)
	req := Request{File: path}
	src, err := req.Source()
	if err != nil {
		t.Fatal(err)
	}
	st := openStore(t)
	ctx := context.Background()

	cctx, cancel := context.WithCancel(ctx)
	defer cancel()
	o := newOracle(t, games[:3], 1)
	o.hook = func(int) { cancel() }
	c := oracleComparer(st, o)
	if err := c.Execute(cctx, src, true, &bytes.Buffer{}); !errors.Is(err, ErrInterrupted) || !strings.Contains(err.Error(), "run the same command again to resume") {
		t.Fatalf("interrupted run: %v", err)
	}

	c = oracleComparer(st, newOracle(t, games[:3], 1))
	done := 0
	c.ProgressDone = func() { done++ }
	var out bytes.Buffer
	if err := c.Execute(ctx, src, true, &out); err != nil {
		t.Fatal(err)
	}
	var rep RunReport
	if err := json.Unmarshal(out.Bytes(), &rep); err != nil || rep.User != req.Key() || rep.Headline.Games != 3 || done != 1 {
		t.Fatalf("report %s: %v (progress done %d times)", out.String(), err, done)
	}

	var last, text bytes.Buffer
	if err := WriteLast(ctx, st, req.Key(), DefaultTrendRuns, true, &last); err != nil || last.String() != out.String() {
		t.Fatalf("--last JSON differs (%v):\n%s\nwant\n%s", err, last.String(), out.String())
	}
	if err := WriteLast(ctx, st, req.Key(), DefaultTrendRuns, false, &text); err != nil || !strings.Contains(text.String(), "Comparison run") {
		t.Fatalf("--last text (%v):\n%s", err, text.String())
	}
	if err := WriteLast(ctx, st, "nobody", DefaultTrendRuns, false, &text); err == nil {
		t.Fatal("WriteLast of a key never run succeeded")
	}
}
