package main

import (
	"bytes"
	"context"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
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
}

func TestServeServesConsole(t *testing.T) {
	dir := t.TempDir()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	env := &Env{Stdout: io.Discard, Stderr: io.Discard, LogLevel: "error"}
	go func() {
		done <- runServe(ctx, env, []string{"--addr", addr, "--store", filepath.Join(dir, "o.db"), "--no-ewr"})
	}()
	// Poll until the server answers (it has no readiness event): a
	// generous bound for a busy machine, and an early stop if it failed.
	var resp *http.Response
	deadline := time.Now().Add(30 * time.Second)
	for {
		resp, err = http.Get("http://" + addr + "/knobs")
		if err == nil || time.Now().After(deadline) {
			break
		}
		select {
		case serr := <-done:
			t.Fatalf("serve ended before it answered: %v", serr)
		case <-time.After(20 * time.Millisecond):
		}
	}
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 || !strings.Contains(string(body), "Opponent Model") || !strings.Contains(string(body), "No configuration file") {
		t.Errorf("knobs page: %d", resp.StatusCode)
	}
	cancel()
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("serve: %v", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("serve did not stop")
	}
}
