package store

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// Regression (issue 18): two daemons on one database both ran, fighting
// over the event stream. The second now refuses, naming the first's PID; a
// lock file left by a killed daemon does not block.
func TestLockDaemon(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "outpost.db")
	first, err := Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer first.Close()
	second, err := Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer second.Close()

	release, err := first.LockDaemon()
	if err != nil {
		t.Fatal(err)
	}
	_, err = second.LockDaemon()
	if !errors.Is(err, ErrLocked) || !strings.Contains(err.Error(), "PID "+strconv.Itoa(os.Getpid())) {
		t.Fatalf("second daemon: %v, want ErrLocked naming PID %d", err, os.Getpid())
	}
	if err := release(); err != nil {
		t.Fatal(err)
	}
	// the lock file stays, with a PID in it, as after a kill -9: not a lock
	if err := os.WriteFile(path+".lock", []byte("999999\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	release2, err := second.LockDaemon()
	if err != nil {
		t.Fatalf("stale lock file blocked: %v", err)
	}
	defer release2()
	mem, err := Open(ctx, ":memory:")
	if err != nil {
		t.Fatal(err)
	}
	defer mem.Close()
	if r, err := mem.LockDaemon(); err != nil {
		t.Errorf("in-memory store: %v", err)
	} else {
		r()
	}
}

// TestLockDaemonThroughLinks: a second daemon opening the same database
// through a symbolic link to the file, a link to its directory or a path
// with ".." meets the first one's lock (before, the lock file was named
// after the path as given, and two daemons ran on one database through a
// symlink, taking the event stream from each other).
func TestLockDaemonThroughLinks(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	path := filepath.Join(dir, "data", "outpost.db")
	if err := os.Mkdir(filepath.Dir(path), 0o700); err != nil {
		t.Fatal(err)
	}
	first, err := Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer first.Close()
	release, err := first.LockDaemon()
	if err != nil {
		t.Fatal(err)
	}
	defer release()
	if err := os.Symlink(path, filepath.Join(dir, "link.db")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Dir(path), filepath.Join(dir, "linkdir")); err != nil {
		t.Fatal(err)
	}
	for _, other := range []string{
		filepath.Join(dir, "link.db"),
		filepath.Join(dir, "linkdir", "outpost.db"),
		filepath.Join(dir, "linkdir", "..", "data", "outpost.db"),
	} {
		second, err := Open(ctx, other)
		if err != nil {
			t.Fatal(err)
		}
		r, err := second.LockDaemon()
		if !errors.Is(err, ErrLocked) {
			t.Errorf("second daemon through %s: %v, want ErrLocked", other, err)
			if err == nil {
				r()
			}
		}
		second.Close()
	}
}

// TestLockDaemonThroughHardLink: a second daemon, another process, opening
// the database through a hard link in another directory meets the first
// one's lock (before, the lock file was named after the path, and a hard
// link is a path with nothing in common); once released, it takes it.
func TestLockDaemonThroughHardLink(t *testing.T) {
	if link := os.Getenv("OUTPOST_LOCK_CHILD"); link != "" {
		st, err := Open(context.Background(), link)
		if err != nil {
			t.Fatal(err)
		}
		defer st.Close()
		r, err := st.LockDaemon()
		if err != nil {
			t.Log("child: " + err.Error())
			return
		}
		r()
		t.Log("child: locked")
		return
	}
	ctx := context.Background()
	dir := t.TempDir()
	path := filepath.Join(dir, "a", "outpost.db")
	link := filepath.Join(dir, "b", "other.db")
	for _, d := range []string{filepath.Dir(path), filepath.Dir(link)} {
		if err := os.Mkdir(d, 0o700); err != nil {
			t.Fatal(err)
		}
	}
	first, err := Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer first.Close()
	if err := os.Link(path, link); err != nil {
		t.Skipf("no hard link here: %v", err)
	}
	child := func() string {
		cmd := exec.Command(os.Args[0], "-test.run=^TestLockDaemonThroughHardLink$", "-test.v")
		cmd.Env = append(os.Environ(), "OUTPOST_LOCK_CHILD="+link)
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("child: %v: %s", err, out)
		}
		return string(out)
	}
	release, err := first.LockDaemon()
	if err != nil {
		t.Fatal(err)
	}
	if out := child(); !strings.Contains(out, ErrLocked.Error()) || !strings.Contains(out, "hard link") {
		t.Errorf("second daemon through a hard link: %s, want ErrLocked", out)
	}
	if err := release(); err != nil {
		t.Fatal(err)
	}
	if out := child(); !strings.Contains(out, "child: locked") {
		t.Errorf("after the release: %s", out)
	}
}
