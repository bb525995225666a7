//go:build linux

package testkit

import (
	"bufio"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"syscall"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestSetupItemsMatchScript: setup.sh's suite_items are SetupItems, in
// order — a step the script adds or renames is one AwaitSetup knows.
func TestSetupItemsMatchScript(t *testing.T) {
	b, err := os.ReadFile(filepath.Join("..", "scripts", "setup.sh"))
	require.NoError(t, err)
	m := regexp.MustCompile(`(?m)^suite_items=\(([^)]*)\)`).FindSubmatch(b)
	require.NotNil(t, m, "setup.sh has no suite_items=(…) line")
	assert.Equal(t, SetupItems, strings.Fields(string(m[1])))
}

// TestAwaitSetupWaitsForTheLock: a held lock makes awaitSetup say it waits
// and wait until the holder releases it; no lock file, or a lock nobody
// holds, returns at once without a word; an unknown item is an error.
func TestAwaitSetupWaitsForTheLock(t *testing.T) {
	dir := t.TempDir()
	// a lock nobody holds: a setup that finished (or died)
	require.NoError(t, os.WriteFile(filepath.Join(dir, SetupSF16+".lock"), nil, 0o644))
	quiet := func(msg string) { t.Errorf("said %q", msg) }
	require.NoError(t, awaitSetup(dir, []string{SetupSF15, SetupSF16}, quiet))
	err := awaitSetup(dir, []string{"sf17"}, quiet)
	require.ErrorContains(t, err, `unknown setup item "sf17" (want one of apt, sf19, sf15, sf18, sf16, sf17.1)`)

	held, err := os.Create(filepath.Join(dir, SetupSF18+".lock"))
	require.NoError(t, err)
	defer held.Close()
	require.NoError(t, syscall.Flock(int(held.Fd()), syscall.LOCK_EX))
	said := make(chan string, 2)
	done := make(chan error, 1)
	go func() { done <- awaitSetup(dir, []string{SetupSF18}, func(m string) { said <- m }) }()
	assert.Contains(t, <-said, "waiting for make test's setup to finish sf18")
	select {
	case err := <-done:
		t.Fatalf("returned (%v) while the lock is held", err)
	default:
	}
	require.NoError(t, syscall.Flock(int(held.Fd()), syscall.LOCK_UN))
	require.NoError(t, <-done)
	assert.Contains(t, <-said, "setup of sf18 finished after")
}

// TestSetupBesideReleasesEachStep runs `setup.sh beside CMD` (a copy, in a
// module of its own, so that a real setup's locks are not touched) with
// fake steps: sf18's blocks on a FIFO the test writes to, sf19's fails.
// CMD is this test binary: its wait for apt ends while sf18's step is
// blocked (the two chains release their locks independently); its wait for
// sf18 says it waits, returns only once the test has let sf18's step
// finish, and its
// wait is in the waits log the script prints; the script then exits 1
// (sf19 is fatal) after naming the failed step.
func TestSetupBesideReleasesEachStep(t *testing.T) {
	if _, err := exec.LookPath("flock"); err != nil {
		t.Skip("no flock(1) (util-linux)")
	}
	root := t.TempDir()
	script, err := os.ReadFile(filepath.Join("..", "scripts", "setup.sh"))
	require.NoError(t, err)
	require.NoError(t, os.MkdirAll(filepath.Join(root, "internal", "scripts"), 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(root, "internal", "scripts", "setup.sh"), script, 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(root, "go.mod"), []byte("module fake\n"), 0o644))
	fifo := filepath.Join(root, "sf18.release")
	require.NoError(t, syscall.Mkfifo(fifo, 0o600))
	step := filepath.Join(root, "step.sh")
	require.NoError(t, os.WriteFile(step, []byte(fmt.Sprintf(`#!/bin/sh
case $1 in sf18) read -r line < %q ;; sf19) exit 3 ;; esac
`, fifo)), 0o755))

	// Open for reading and writing (Linux: does not block) and kept open to
	// the end: what the test writes waits in the FIFO for the step to read
	// it, and the step's read ends, at EOF, if this test dies first.
	w, err := os.OpenFile(fifo, os.O_RDWR, 0)
	require.NoError(t, err)
	defer w.Close()
	cmd := exec.Command("bash", "internal/scripts/setup.sh", "beside", os.Args[0], "-test.run=^TestAwaitSetupHelper$", "-test.v")
	cmd.Dir = root
	cmd.Env = append(os.Environ(), "OUTPOST_SETUP_STEP="+step, "TESTKIT_AWAIT_HELPER=1", "OUTPOST_SETUP_BESIDE=1")
	// its own process group, killed whole if the test ends early
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	out, err := cmd.StdoutPipe()
	require.NoError(t, err)
	cmd.Stderr = cmd.Stdout
	require.NoError(t, cmd.Start())
	t.Cleanup(func() { _ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) })
	lines := bufio.NewScanner(out)
	var seen []string
	// until reads lines until each of wants has been seen, in any order.
	until := func(wants ...string) {
		t.Helper()
		for {
			all := strings.Join(seen, "\n")
			missing := slices.DeleteFunc(slices.Clone(wants), func(w string) bool { return strings.Contains(all, w) })
			if len(missing) == 0 {
				return
			}
			if !lines.Scan() {
				t.Fatalf("no line with %q in:\n%s", missing, all)
			}
			seen = append(seen, lines.Text())
		}
	}
	// the helper's log line (-test.v), written once it is blocked on the lock
	until("helper: apt awaited", ": waiting for make test's setup to finish sf18", "setup beside the tests: sf19 FAILED")
	// The helper is blocked on sf18's lock: nothing says it got past it.
	assert.NotContains(t, strings.Join(seen, "\n"), "helper: sf18 awaited")
	_, err = w.WriteString("go\n") // kept in the FIFO until the step reads it: w stays open
	require.NoError(t, err)
	until("helper: sf18 awaited", "tests that waited for the setup beside them",
		"TestAwaitSetupHelper: waiting for make test's setup to finish sf18")
	for lines.Scan() {
		seen = append(seen, lines.Text())
	}
	err = cmd.Wait()
	var exit *exec.ExitError
	require.True(t, errors.As(err, &exit), "exit: %v\n%s", err, strings.Join(seen, "\n"))
	assert.Equal(t, 1, exit.ExitCode(), strings.Join(seen, "\n"))
	all := strings.Join(seen, "\n")
	t.Log(all)
	assert.Contains(t, all, "setup beside the tests: sf18 done in")
	assert.Contains(t, all, "the setup beside the tests failed (sf19 or sf15")
	assert.NotContains(t, all, "sf15 FAILED")
}

// TestAwaitSetupHelper is TestSetupBesideReleasesEachStep's CMD: it waits
// for sf18 and says when it does and when it is past it.
func TestAwaitSetupHelper(t *testing.T) {
	if os.Getenv("TESTKIT_AWAIT_HELPER") != "1" {
		t.Skip("run by TestSetupBesideReleasesEachStep")
	}
	root, err := moduleRoot()
	require.NoError(t, err)
	lock, err := os.Open(filepath.Join(root, SetupLockDir, SetupSF18+".lock"))
	require.NoError(t, err)
	if err := syscall.Flock(int(lock.Fd()), syscall.LOCK_SH|syscall.LOCK_NB); err == nil {
		t.Fatal("sf18's lock is not held while its step runs")
	}
	lock.Close()
	// the Debian chain is not held up by the native one's blocked step
	AwaitSetup(t, SetupDebian)
	fmt.Println("helper: apt awaited")
	AwaitSetup(t, SetupSF18)
	fmt.Println("helper: sf18 awaited")
}
