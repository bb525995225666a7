package lichess

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/rs/zerolog"

	"github.com/outpostchess/outpost/internal/testkit"
)

func envOf(m map[string]string) func(string) string { return func(k string) string { return m[k] } }

func TestLoadToken(t *testing.T) {
	dir := t.TempDir()
	good := filepath.Join(dir, "good")
	if err := os.WriteFile(good, []byte("  "+string(testToken)+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	open := filepath.Join(dir, "open")
	if err := os.WriteFile(open, []byte(testToken), 0o644); err != nil {
		t.Fatal(err)
	}
	os.Chmod(open, 0o644)
	groupOnly := filepath.Join(dir, "group")
	os.WriteFile(groupOnly, []byte(testToken), 0o600)
	os.Chmod(groupOnly, 0o640)
	empty := filepath.Join(dir, "empty")
	os.WriteFile(empty, []byte("\n"), 0o600)
	spaced := filepath.Join(dir, "spaced")
	os.WriteFile(spaced, []byte("lip_a b"), 0o600)

	tests := []struct {
		name    string
		env     map[string]string
		file    string
		want    Token
		errHas  []string
		errIs   error
		unixish bool
	}{
		{name: "env wins", env: map[string]string{TokenEnv: " envtoken "}, file: open, want: "envtoken"},
		{name: "file", file: good, want: testToken},
		{name: "none", errIs: ErrNoToken},
		{name: "readable by others", file: open, errHas: []string{"0644", "chmod 600 " + open, "group or others"}, unixish: true},
		{name: "readable by group", file: groupOnly, errHas: []string{"0640", "chmod 600"}, unixish: true},
		{name: "missing file", file: filepath.Join(dir, "nope"), errHas: []string{"no such file"}},
		{name: "empty file", file: empty, errHas: []string{"empty"}},
		{name: "bad characters", file: spaced, errHas: []string{"invalid character"}},
		{name: "bad env", env: map[string]string{TokenEnv: "a\x01b"}, errHas: []string{TokenEnv, "invalid character"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if tc.unixish && runtime.GOOS == "windows" {
				t.Skip("no Unix permissions")
			}
			got, err := LoadToken(envOf(tc.env), tc.file)
			noToken(t, err)
			if tc.errIs == nil && tc.errHas == nil {
				if err != nil || got != tc.want {
					t.Fatalf("got %v, %v", got == tc.want, err)
				}
				return
			}
			if err == nil {
				t.Fatal("no error")
			}
			if tc.errIs != nil && !errors.Is(err, tc.errIs) {
				t.Fatalf("err = %v", err)
			}
			for _, s := range tc.errHas {
				if !strings.Contains(err.Error(), s) {
					t.Errorf("error %q lacks %q", err, s)
				}
			}
		})
	}
}

func TestTokenNeverPrinted(t *testing.T) {
	tok := testToken
	type cfg struct {
		Token Token
		Other string
	}
	c := cfg{Token: tok, Other: "x"}
	outs := []string{
		fmt.Sprint(tok), fmt.Sprintf("%v %s %q %x %+v %#v", tok, tok, tok, tok, c, c), tok.String(), tok.GoString(),
	}
	b, _ := json.Marshal(c)
	outs = append(outs, string(b))
	var logs testkit.SyncBuffer
	zl := zerolog.New(&logs)
	zl.Info().Interface("cfg", c).Stringer("tok", tok).Msg("x")
	outs = append(outs, logs.String())
	for _, o := range outs {
		if strings.Contains(o, string(tok)) {
			t.Fatalf("token printed: %s", o)
		}
	}
	if !strings.Contains(fmt.Sprint(tok), "REDACTED") {
		t.Fatal("redacted marker missing")
	}
}

func tokenTestServer(t *testing.T, answer func(tok string) string) *fakeServer {
	return newFake(t, func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/api/token/test" || r.Method != "POST" {
			http.NotFound(w, r)
			return
		}
		body, _ := io.ReadAll(r.Body)
		writeJSON(w, 200, answer(string(body)))
	})
}

func TestCheckToken(t *testing.T) {
	q := func(s string) string { b, _ := json.Marshal(s); return string(b) }
	tests := []struct {
		name   string
		answer func(tok string) string
		scopes []string
		errIs  error
		errHas string
	}{
		{"valid bot token", func(tok string) string {
			return `{` + q(tok) + `:{"userId":"bot1","scopes":"challenge:read,challenge:write,bot:play","expires":null}}`
		}, nil, nil, ""},
		{"invalid", func(tok string) string { return `{` + q(tok) + `:null}` }, nil, ErrTokenInvalid, "invalid, revoked or expired"},
		{"missing from answer", func(string) string { return `{}` }, nil, ErrTokenInvalid, ""},
		{"no bot:play", func(tok string) string {
			return `{` + q(tok) + `:{"userId":"alice","scopes":"board:play","expires":null}}`
		}, nil, ErrMissingScope, `not "bot:play"`},
		{"board scope asked", func(tok string) string {
			return `{` + q(tok) + `:{"userId":"alice","scopes":"board:play","expires":null}}`
		}, []string{"board:play"}, nil, ""},
		{"expired", func(tok string) string {
			return `{` + q(tok) + `:{"userId":"bot1","scopes":"bot:play","expires":1000}}`
		}, nil, ErrTokenInvalid, "expired at 1970"},
		{"empty scopes", func(tok string) string { return `{` + q(tok) + `:{"userId":"x","scopes":""}}` }, nil, ErrMissingScope, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			f := tokenTestServer(t, tc.answer)
			c, _ := newTestClient(t, f.URL)
			info, err := c.CheckToken(ctxT(t), tc.scopes...)
			noToken(t, err)
			if tc.errIs == nil {
				if err != nil || info.UserID == "" {
					t.Fatalf("err = %v", err)
				}
			} else if !errors.Is(err, tc.errIs) || !strings.Contains(err.Error(), tc.errHas) {
				t.Fatalf("err = %v", err)
			}
			r := f.requests()[0]
			if r.Body != string(testToken) || r.Header.Get("Content-Type") != "text/plain" {
				t.Errorf("request body/type wrong")
			}
		})
	}
}

// A hostile or buggy server echoes the token everywhere it can: in error
// bodies, stream lines and malformed lines. Nothing the client writes or
// returns may contain it.
func TestTokenNeverInErrorsOrLogs(t *testing.T) {
	echo := func(r *http.Request) string {
		return strings.TrimPrefix(r.Header.Get("Authorization"), "Bearer ")
	}
	f := newFake(t, func(w http.ResponseWriter, r *http.Request) {
		tok := echo(r)
		switch {
		case strings.Contains(r.URL.Path, "/stream/"):
			w.WriteHeader(200)
			io.WriteString(w, `{"type":"gameFull","id":"`+tok+`"`+"\n") // malformed, holds the token
			io.WriteString(w, `{"type":"gameState","moves":"`+tok+`","wtime":"`+tok+`","status":"mate"}`+"\n")
		case r.URL.Path == "/api/account":
			writeJSON(w, 401, `{"error":"bad token `+tok+`"}`)
		case r.URL.Path == "/api/token/test":
			writeJSON(w, 200, `{"`+tok+`":{"userId":"x","scopes":"`+tok+`"}}`)
		case strings.Contains(r.URL.Path, "/move/"):
			writeJSON(w, 503, `{"error":"`+tok+`"}`)
		default:
			writeJSON(w, 429, `{"error":"`+tok+`","ratelimit":{"seconds":1}}`)
		}
	})
	c, logs := newTestClient(t, f.URL)
	ctx := ctxT(t)
	var errs []error
	_, err := c.Account(ctx)
	errs = append(errs, err)
	_, err = c.CheckToken(ctx)
	errs = append(errs, err)
	errs = append(errs, c.Bot().Move(ctx, "abcdefgh", "e2e4", false))
	s, err := c.Bot().StreamGame(ctx, "abcdefgh")
	errs = append(errs, err)
	if err == nil {
		collect(t, s)
	}
	errs = append(errs, c.Bot().Resign(ctx, "abcdefgh")) // 429
	for i, err := range errs[:3] {
		if err == nil {
			t.Fatalf("call %d: no error", i)
		}
	}
	for _, err := range errs {
		noToken(t, err)
		if err != nil {
			// Also the whole chain, as %+v and unwrapped.
			for e := err; e != nil; e = errors.Unwrap(e) {
				if _, ok := e.(*redactedError); ok {
					continue // its own message is redacted; what it wraps is checked next
				}
				if strings.Contains(fmt.Sprintf("%+v", e), string(testToken)) && !hasRedactedOuter(err, e) {
					t.Errorf("wrapped error %T holds the token", e)
				}
			}
		}
	}
	if !strings.Contains(errs[0].Error(), "[REDACTED]") {
		t.Errorf("redaction marker missing: %v", errs[0])
	}
	// newTestClient's cleanup scans the log.
	if logs.String() == "" {
		t.Error("nothing logged")
	}
}

// hasRedactedOuter reports whether inner sits below a *redactedError in
// err's chain (so printing err, or any error above it, is safe).
func hasRedactedOuter(err, inner error) bool {
	for e := err; e != nil && e != inner; e = errors.Unwrap(e) {
		if _, ok := e.(*redactedError); ok {
			return true
		}
	}
	return false
}

// The spec's token-test example: lip_jose is valid with bot:play,
// lip_badToken is null.
func TestCheckTokenSpecExample(t *testing.T) {
	answer := string(exampleJSON(t, "oauth-testMultipleOauthTokens.json.yaml"))
	f := newFake(t, func(w http.ResponseWriter, r *http.Request) { writeJSON(w, 200, answer) })
	for tok, wantErr := range map[Token]error{"lip_jose": nil, "lip_badToken": ErrTokenInvalid} {
		c, err := New(Options{BaseURL: f.URL, Token: tok})
		if err != nil {
			t.Fatal(err)
		}
		info, err := c.CheckToken(ctxT(t))
		if !errors.Is(err, wantErr) || (err == nil && (info.UserID != "jose" || !info.HasScope("board:play") || !info.Expires.IsZero())) {
			t.Errorf("%s: %+v %v", tok, info, err)
		}
	}
}
