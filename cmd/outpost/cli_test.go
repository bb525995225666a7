package main

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/outpostchess/outpost/internal/sandbox"
)

// runCLI runs the CLI in-process, as `outpost ARGS…` with stdin, and
// returns its exit code, stdout and stderr.
func runCLI(t *testing.T, stdin string, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errOut bytes.Buffer
	code = run(context.Background(), args, &Env{Stdin: strings.NewReader(stdin), Stdout: &out, Stderr: &errOut})
	return code, out.String(), errOut.String()
}

// startSandbox serves a Lichess sandbox with accounts on loopback for the
// test's duration and returns it and its base URL.
func startSandbox(t *testing.T, accounts ...sandbox.Account) (*sandbox.Server, string) {
	t.Helper()
	srv := sandbox.New(sandbox.Config{Accounts: accounts})
	url, err := srv.Listen(t.Context(), "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(srv.Close)
	return srv, url
}

// TestHelpEveryCommand: `outpost help COMMAND` prints every command's usage
// naming it and exits 0.
func TestHelpEveryCommand(t *testing.T) {
	for name := range commands() {
		code, out, errOut := runCLI(t, "", "help", name)
		if code != 0 || !strings.Contains(out+errOut, "outpost "+name) {
			t.Errorf("help %s: exit %d, output %q", name, code, out+errOut)
		}
	}
}
