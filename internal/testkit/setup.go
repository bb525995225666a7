package testkit

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// What `make test`'s setup installs beside the tests (internal/scripts/
// setup.sh, `setup.sh beside`), one lock file each: a test that needs one
// of them calls AwaitSetup with its name first.
const (
	// SetupDebian is the Debian packages of the suite (as root): Chromium
	// and its driver, libfathom1, Node.js and npm, qemu-user.
	SetupDebian = "apt"
	// SetupSF19 is Stockfish 19 from npm (and node, from SetupDebian).
	SetupSF19 = "sf19"
	// SetupSF15, SetupSF18, SetupSF16 and SetupSF171 are the native
	// builds (engine names sf15, sf18, sf16, sf17.1) and the networks and
	// npm tarballs they cache in the engines' directory.
	SetupSF15  = "sf15"
	SetupSF18  = "sf18"
	SetupSF16  = "sf16"
	SetupSF171 = "sf17.1"
)

// SetupItems lists the items in the order setup.sh builds them; setup.sh's
// suite_items must say the same (TestSetupItemsMatchScript).
var SetupItems = []string{SetupDebian, SetupSF19, SetupSF15, SetupSF18, SetupSF16, SetupSF171}

// SetupNatives is every native build: what a test that reads the engines'
// caches (networks, npm tarballs) of all of them waits for.
var SetupNatives = []string{SetupSF15, SetupSF18, SetupSF16, SetupSF171}

// SetupLockDir is where setup.sh keeps its lock files, relative to the
// module's root: ITEM.lock, held exclusively (flock) by the setup beside
// the tests from before the tests start until ITEM is done.
const SetupLockDir = "bin/setup-locks"

// SetupWaitsLog is where AwaitSetup notes each wait, relative to the
// module's root.
const SetupWaitsLog = "bin/log/setup-waits.log"

// AwaitSetup returns once each item (SetupDebian, …) is installed or has
// failed, when `make test` installs it beside the tests; at once when
// nothing is installing it (no lock file, or nobody holds it: a setup that
// is done, or died). It waits on the setup's lock, not on a clock: the
// lock is released by the setup when the item is done, or by the kernel
// when the setup dies. A test that waits says so in its log and in
// SetupWaitsLog, which `setup.sh beside` prints at its end (go test shows
// a passing package's output only with -v). What to do when the item is
// still missing afterwards is the caller's (skip or fail, as without the
// wait).
func AwaitSetup(t testing.TB, items ...string) {
	t.Helper()
	root, err := moduleRoot()
	if err != nil {
		t.Logf("testkit: not waiting for the setup: %v", err)
		return
	}
	say := func(msg string) {
		t.Log(msg)
		noteWait(filepath.Join(root, filepath.FromSlash(SetupWaitsLog)), t.Name()+": "+msg)
	}
	if err := awaitSetup(filepath.Join(root, filepath.FromSlash(SetupLockDir)), items, say); err != nil {
		t.Fatal(err)
	}
}

// AwaitEngine is AwaitSetup for an engine name's setup items: a native
// build's own (sf15, sf16, sf17.1, sf18), Stockfish 19's with the Debian
// packages (node); nothing for any other name.
func AwaitEngine(t testing.TB, name string) {
	t.Helper()
	switch {
	case name == SetupSF19:
		AwaitSetup(t, SetupDebian, SetupSF19)
	case slices.Contains(SetupNatives, name):
		AwaitSetup(t, name)
	}
}

// awaitSetup waits for each item's lock in dir, calling say before a wait
// and after it.
func awaitSetup(dir string, items []string, say func(string)) error {
	for _, item := range items {
		if !slices.Contains(SetupItems, item) {
			return fmt.Errorf("testkit: unknown setup item %q (want one of %s)", item, strings.Join(SetupItems, ", "))
		}
		lock := filepath.Join(dir, item+".lock")
		f, err := os.Open(lock)
		if errors.Is(err, os.ErrNotExist) {
			continue
		}
		if err != nil {
			return fmt.Errorf("testkit: setup lock of %s: %w", item, err)
		}
		t0 := time.Now()
		waited, err := sharedLock(f, func() {
			say(fmt.Sprintf("waiting for make test's setup to finish %s (%s held by setup.sh; bin/log/setup-suite.log)", item, lock))
		})
		f.Close()
		if err != nil {
			return fmt.Errorf("testkit: waiting for setup item %s (%s): %w", item, lock, err)
		}
		if waited {
			say(fmt.Sprintf("setup of %s finished after %.0f s of waiting", item, time.Since(t0).Seconds()))
		}
	}
	return nil
}

// moduleRoot is the module's root: the nearest directory above the
// working directory (a test's package) with go.mod.
func moduleRoot() (string, error) {
	d, err := os.Getwd()
	if err != nil {
		return "", fmt.Errorf("working directory: %w", err)
	}
	for {
		if _, err := os.Stat(filepath.Join(d, "go.mod")); err == nil {
			return d, nil
		}
		up := filepath.Dir(d)
		if up == d {
			return "", errors.New("no go.mod above the working directory")
		}
		d = up
	}
}

// noteWait appends line to the log at path, when its directory exists (a
// line per write, O_APPEND: concurrent tests' lines do not mix); a log that
// cannot be written loses the note, not the test.
func noteWait(path, line string) {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o644)
	if err != nil {
		return
	}
	defer f.Close()
	_, _ = f.WriteString(time.Now().UTC().Format("15:04:05") + " " + line + "\n")
}
