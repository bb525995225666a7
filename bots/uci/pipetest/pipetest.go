// Package pipetest drives a real UCI engine process (Stockfish) line by
// line, for tests that use it as an oracle: start it, send lines, read up
// to an answer. It imports nothing of Outpost, so that any package's
// internal tests may use it. It is for tests only.
package pipetest

import (
	"bufio"
	"context"
	"io"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"
)

// Engine is an engine process a test talks to.
type Engine struct {
	in  io.WriteCloser
	out *bufio.Scanner
}

// Installed returns path, the engine a test drives, skipping t when no
// program is there (`make setup` installs the engines the tests use).
func Installed(t testing.TB, path string) string {
	t.Helper()
	if _, err := os.Stat(path); err != nil {
		t.Skipf("no engine at %s (make setup installs it): %v", path, err)
	}
	return path
}

// Start starts the program at path for the test, killed after timeout at
// the latest; the end of the test sends it "quit" and waits for it.
func Start(t testing.TB, path string, timeout time.Duration) *Engine {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	cmd := exec.CommandContext(ctx, path)
	in, err := cmd.StdinPipe()
	if err != nil {
		cancel()
		t.Fatalf("pipetest: %s stdin: %v", path, err)
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		cancel()
		t.Fatalf("pipetest: %s stdout: %v", path, err)
	}
	if err := cmd.Start(); err != nil {
		cancel()
		t.Fatalf("pipetest: start %s: %v", path, err)
	}
	t.Cleanup(func() {
		_, _ = io.WriteString(in, "quit\n")
		_ = in.Close()
		_ = cmd.Wait()
		cancel()
	})
	return &Engine{in: in, out: bufio.NewScanner(out)}
}

// Send writes line, which may hold several lines, to the engine.
func (e *Engine) Send(t testing.TB, line string) {
	t.Helper()
	if _, err := io.WriteString(e.in, line+"\n"); err != nil {
		t.Fatalf("pipetest: sending %q: %v", line, err)
	}
}

// Until reads lines up to one starting with prefix and returns the lines
// read, that one last. The test fails when the output ends first.
func (e *Engine) Until(t testing.TB, prefix string) []string {
	t.Helper()
	var lines []string
	for e.out.Scan() {
		l := e.out.Text()
		lines = append(lines, l)
		if strings.HasPrefix(l, prefix) {
			return lines
		}
	}
	t.Fatalf("pipetest: engine output ended before %q: %v", prefix, e.out.Err())
	return nil
}
