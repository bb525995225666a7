package main

import (
	"bufio"
	"bytes"
	"context"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/outpostchess/outpost/internal/sandbox"
)

func TestParseAccountFlag(t *testing.T) {
	tests := []struct {
		in       string
		name     string
		bot, bad bool
		scopes   []string // nil: the kind's defaults
	}{
		{"carol:TOKEN3:human:scopes=bot:play,challenge:read", "carol", false, false, []string{"bot:play", "challenge:read"}},
		{"carol:TOKEN3:scopes=bot:play", "carol", false, false, []string{"bot:play"}},
		{"bot3:TOKEN4:bot:scopes=", "bot3", true, false, []string{}},
		{"carol:SECRETX:scopes=bot:fly", "", false, true, nil},
		{"carol:SECRETX:scopes=bot:play,,board:play", "", false, true, nil},
		{"carol:SECRETX:scopes=bot:play,bot:play", "", false, true, nil},
		{"carol:SECRETX:robot:scopes=bot:play", "", false, true, nil},
		{"carol:scopes=bot:play", "", false, true, nil},
		{"bot1:TOKEN1:bot", "bot1", true, false, nil},
		{"alice:TOKEN2", "alice", false, false, nil},
		{"bob:T:human", "bob", false, false, nil},
		{"alice", "", false, true, nil},
		{":SECRETX", "", false, true, nil},
		{"alice:", "", false, true, nil},
		{"ab:SECRETX:robot", "", false, true, nil},
		{"ab:SECRETX:c:d", "", false, true, nil},
		// a name or token no client can use (the sandbox took them)
		{"a b:SECRETX", "", false, true, nil},
		{"a:SECRETX", "", false, true, nil},
		{"-ab:SECRETX", "", false, true, nil},
		{"ab:SECRET X", "", false, true, nil},
		{"ab:SECRETX\t", "", false, true, nil},
		{"A_b-9:SECRETX", "A_b-9", false, false, nil},
	}
	for _, tt := range tests {
		acc, err := parseAccountFlag(tt.in)
		if tt.bad {
			if err == nil {
				t.Errorf("%q: no error", tt.in)
			} else if strings.Contains(err.Error(), "SECRETX") {
				t.Errorf("%q: the error shows the token: %v", tt.in, err)
			}
			continue
		}
		if err != nil || acc.Name != tt.name || acc.Bot != tt.bot || (acc.Scopes == nil) != (tt.scopes == nil) ||
			strings.Join(acc.Scopes, ",") != strings.Join(tt.scopes, ",") {
			t.Errorf("%q: %+v %v", tt.in, acc, err)
		}
	}
}

// syncBuffer is a goroutine-safe writer.
type syncBuffer struct {
	mu  chan struct{}
	buf bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu <- struct{}{}
	defer func() { <-b.mu }()
	return b.buf.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu <- struct{}{}
	defer func() { <-b.mu }()
	return b.buf.String()
}

// TestRunSandbox starts the command, reads the URL it prints, uses it and
// stops it through the context.
func TestRunSandbox(t *testing.T) {
	pr, pw := io.Pipe()
	stderr := &syncBuffer{mu: make(chan struct{}, 1)}
	env := &Env{Stdout: pw, Stderr: stderr, LogLevel: "error"}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		done <- runSandbox(ctx, env, []string{"--addr", "127.0.0.1:0", "--account", "bot1:SECRET-T1:bot",
			"--account", "alice:SECRET-T2", "--fault", "5xx:path=/api/user/,times=1"})
		pw.Close()
	}()
	url, err := bufio.NewReader(pr).ReadString('\n')
	if err != nil {
		t.Fatalf("no URL printed: %v (stderr %s)", err, stderr.String())
	}
	url = strings.TrimSpace(url)
	req, _ := http.NewRequest("GET", url+"/api/account", nil)
	req.Header.Set("Authorization", "Bearer SECRET-T1")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 || !strings.Contains(string(body), `"title":"BOT"`) {
		t.Fatalf("%d %s", resp.StatusCode, body)
	}
	resp, err = http.Get(url + "/api/user/alice")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != 500 {
		t.Fatalf("the --fault was not applied: %d", resp.StatusCode)
	}
	cancel()
	if err := <-done; err != nil { // the sandbox stops with its context
		t.Fatal(err)
	}
	if strings.Contains(stderr.String(), "SECRET") {
		t.Fatalf("token in the output: %s", stderr.String())
	}
}

// TestRunSandboxRefusesPublicAddress: a non-loopback --addr is refused
// without --public, naming both (before, --addr 0.0.0.0 was accepted and
// served the test accounts to the network).
func TestRunSandboxRefusesPublicAddress(t *testing.T) {
	for _, addr := range []string{"0.0.0.0:0", ":0", "[::]:0", "192.0.2.1:0"} {
		var out bytes.Buffer
		env := &Env{Stdout: &out, Stderr: &out}
		err := runSandbox(context.Background(), env, []string{"--addr", addr, "--account", "bot1:T1:bot"})
		if err == nil || !strings.Contains(err.Error(), "--addr "+addr+" is not a loopback address") || !strings.Contains(err.Error(), "--public") {
			t.Errorf("--addr %s: %v", addr, err)
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel() // the sandbox listens, then stops at once
	var out bytes.Buffer
	env := &Env{Stdout: &out, Stderr: &out, LogLevel: "error"}
	if err := runSandbox(ctx, env, []string{"--addr", "0.0.0.0:0", "--public", "--account", "bot1:T1:bot"}); err != nil {
		t.Errorf("--public: %v", err)
	}
}

func TestRunSandboxUsage(t *testing.T) {
	for _, args := range [][]string{{}, {"--account", "nobody"}, {"--account", "ab:b", "--fault", "boom"}, {"--account", "ab:b", "extra"}} {
		var out bytes.Buffer
		env := &Env{Stdout: &out, Stderr: &out}
		if err := runSandbox(context.Background(), env, args); err == nil {
			t.Errorf("%q: no error", args)
		}
	}
}

// TestRunSandboxTimeFlags: --time-scale must be in (0, 1] and --nostart not
// negative; the error names the flag and the value.
func TestRunSandboxTimeFlags(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--time-scale", "0"}, "--time-scale 0: must be in (0, 1]"},
		{[]string{"--time-scale", "1.5"}, "--time-scale 1.5: must be in (0, 1]"},
		{[]string{"--nostart", "-1s"}, "--nostart -1s: negative duration not allowed"}, // every command's duration flags (parseFlags)
		{[]string{"--bot-games-per-day", "-2"}, "--bot-games-per-day -2: must be 0 (no cap) or positive"},
		{[]string{"--request-limits", "-1"}, "--request-limits -1: must be 0 (no limit) or a positive factor"},
		{[]string{"--request-limits", "NaN"}, "--request-limits NaN: must be 0"},
		{[]string{"--request-limits", "+Inf"}, "--request-limits +Inf: must be 0"},
	} {
		var out bytes.Buffer
		env := &Env{Stdout: &out, Stderr: &out}
		err := runSandbox(context.Background(), env, append([]string{"--account", "ab:t"}, tc.args...))
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q: error %v, want %q", tc.args, err, tc.want)
		}
	}
}

// FuzzParseAccountFlag: any --account value is parsed or refused with an
// error that never shows the token; a parsed one has a name, a token and
// known scopes.
func FuzzParseAccountFlag(f *testing.F) {
	for _, s := range []string{"bot1:T:bot", "alice:T", "carol:T:human:scopes=bot:play,challenge:read",
		"carol:T:scopes=", "x:T:scopes=bot:fly", "ab:T:c:d", "ab::scopes=bot:play", ":scopes=:scopes="} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, v string) {
		acc, err := parseAccountFlag(v)
		if err != nil {
			return
		}
		if acc.Name == "" || acc.Token == "" || strings.Contains(acc.Token, ":") {
			t.Fatalf("%q: parsed as %+v", v, acc)
		}
		if _, err := sandbox.ParseScopes(strings.Join(acc.Scopes, ",")); err != nil {
			t.Fatalf("%q: scopes %v: %v", v, acc.Scopes, err)
		}
	})
}
