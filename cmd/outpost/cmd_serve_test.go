package main

import (
	"bufio"
	"bytes"
	"context"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestServeRefusesPublicAddressWithoutToken(t *testing.T) {
	dir := t.TempDir()
	var stderr bytes.Buffer
	env := &Env{Stdout: io.Discard, Stderr: &stderr, LogLevel: "error"}
	err := runServe(context.Background(), env, []string{"--addr", "0.0.0.0:8090", "--store", filepath.Join(dir, "o.db"), "--no-ewr"})
	if err == nil || !strings.Contains(err.Error(), "not a loopback address") {
		t.Errorf("err = %v", err)
	}
	empty := filepath.Join(dir, "tok")
	if err := os.WriteFile(empty, []byte("\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	err = runServe(context.Background(), env, []string{"--addr", "0.0.0.0:8090", "--token-file", empty, "--store", filepath.Join(dir, "o.db"), "--no-ewr"})
	if err == nil || !strings.Contains(err.Error(), "is empty") {
		t.Errorf("empty token file: %v", err)
	}
	// a token but plain HTTP: refused, naming the flags (before, it served
	// the token in clear, as a cookie without Secure)
	tok := filepath.Join(dir, "tok2")
	if err := os.WriteFile(tok, []byte("a-long-console-token-1234\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	err = runServe(context.Background(), env, []string{"--addr", "0.0.0.0:8090", "--token-file", tok, "--store", filepath.Join(dir, "o.db"), "--no-ewr"})
	if err == nil || !strings.Contains(err.Error(), "--tls-cert") || !strings.Contains(err.Error(), "--plain-http") {
		t.Errorf("plain HTTP off loopback: %v", err)
	}
	err = runServe(context.Background(), env, []string{"--addr", "0.0.0.0:8090", "--token-file", tok, "--tls-cert", tok, "--store", filepath.Join(dir, "o.db"), "--no-ewr"})
	if err == nil || !strings.Contains(err.Error(), "both") {
		t.Errorf("--tls-cert without --tls-key: %v", err)
	}
}

// TestServeServesConsole starts `outpost serve` on a port of its choosing,
// waits for the line saying where the console listens (it listens before
// saying so), reads a page and stops it.
func TestServeServesConsole(t *testing.T) {
	dir := t.TempDir()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	pr, pw := io.Pipe()
	defer pr.Close()
	urls := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(pr)
		for sc.Scan() {
			if u, ok := strings.CutPrefix(sc.Text(), "outpost serve: console on "); ok {
				urls <- u
			}
		}
	}()
	done := make(chan error, 1)
	env := &Env{Stdout: io.Discard, Stderr: pw, LogLevel: "error"}
	go func() {
		done <- runServe(ctx, env, []string{"--addr", "127.0.0.1:0", "--store", filepath.Join(dir, "o.db"), "--no-ewr"})
		pw.Close()
	}()
	var url string
	select {
	case url = <-urls:
	case err := <-done:
		t.Fatalf("serve ended before it listened: %v", err)
	}
	require.Regexp(t, `^http://127\.0\.0\.1:[1-9][0-9]*/$`, url)
	resp, err := http.Get(url + "knobs")
	require.NoError(t, err)
	body, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	require.NoError(t, err)
	if resp.StatusCode != 200 || !strings.Contains(string(body), "Opponent Model") || !strings.Contains(string(body), "No configuration file") {
		t.Errorf("knobs page: %d", resp.StatusCode)
	}
	cancel()
	if err := <-done; err != nil {
		t.Errorf("serve: %v", err)
	}
}
