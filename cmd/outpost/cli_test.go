package main

import (
	"bytes"
	"context"
	"strings"
	"testing"
)

// runCLI runs the CLI in-process, as `outpost ARGS…` with stdin, and
// returns its exit code, stdout and stderr.
func runCLI(t *testing.T, stdin string, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errOut bytes.Buffer
	code = run(context.Background(), args, &Env{Stdin: strings.NewReader(stdin), Stdout: &out, Stderr: &errOut})
	return code, out.String(), errOut.String()
}
