package sfbuild

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"time"

	"github.com/outpostchess/outpost/bots/enginepath"
)

// Info is a native build's record, build.json beside its executable.
type Info struct {
	Engine        string            `json:"engine"`  // sf15, sf18
	Version       string            `json:"version"` // "15.1"
	ArchiveSHA256 string            `json:"archive_sha256"`
	Nets          map[string]string `json:"nets"` // file name → SHA-256
	Arch          string            `json:"arch"`
	Compiler      string            `json:"compiler"` // first line of `g++ --version`
	Command       string            `json:"command"`  // the make command line
	// Target is the Makefile target made: TargetProfile, or TargetPlain
	// when the profile-guided build failed (ProfileError says why).
	Target       string    `json:"target"`
	ProfileError string    `json:"profile_error,omitempty"`
	BenchArgs    []string  `json:"bench_args,omitempty"`
	BenchNodes   int64     `json:"bench_nodes"`
	BenchNPS     int64     `json:"bench_nps"` // nodes/s of the check (machine load varies)
	BinarySHA256 string    `json:"binary_sha256"`
	BuildSeconds float64   `json:"build_seconds"`
	Built        time.Time `json:"built"`
}

// sameBuild reports whether the installed build i is made of the same
// things as the wanted build o (the executable's checksum and timings
// aside). A plain build made because the profile-guided one failed counts
// as the profile-guided one: setup does not retry a failing profile build
// every time (Builder.Force does). A build without a target (made before
// profile-guided builds) is rebuilt.
func (i Info) sameBuild(o Info) bool {
	return i.Engine == o.Engine && i.Version == o.Version && i.ArchiveSHA256 == o.ArchiveSHA256 &&
		maps.Equal(i.Nets, o.Nets) && i.Arch == o.Arch && i.Compiler == o.Compiler &&
		(i.Target == o.Target || i.ProfileError != "" && o.Target == TargetProfile)
}

// ReadInfo reads the build.json in dir; fs.ErrNotExist when there is none.
func ReadInfo(dir string) (Info, error) {
	b, err := os.ReadFile(filepath.Join(dir, enginepath.BuildInfo))
	if err != nil {
		return Info{}, fmt.Errorf("sfbuild: %w", err)
	}
	var i Info
	if err := json.Unmarshal(b, &i); err != nil {
		return Info{}, fmt.Errorf("sfbuild: %s: %w", filepath.Join(dir, enginepath.BuildInfo), err)
	}
	return i, nil
}

// writeInfo writes build.json atomically (a temporary file renamed).
func writeInfo(dir string, i Info) error {
	b, err := json.MarshalIndent(i, "", "  ")
	if err != nil {
		return fmt.Errorf("sfbuild: encoding build.json: %w", err)
	}
	tmp := filepath.Join(dir, enginepath.BuildInfo+".tmp")
	if err := os.WriteFile(tmp, append(b, '\n'), 0o644); err != nil {
		return fmt.Errorf("sfbuild: writing build.json: %w", err)
	}
	if err := os.Rename(tmp, filepath.Join(dir, enginepath.BuildInfo)); err != nil {
		return fmt.Errorf("sfbuild: writing build.json: %w", err)
	}
	return nil
}

// installed returns the installed build when it is the same build as want
// and its executable is unchanged.
func installed(dir string, want Info) (Info, bool) {
	have, err := ReadInfo(dir)
	if err != nil || !have.sameBuild(want) {
		return Info{}, false
	}
	sum, err := fileSHA256(filepath.Join(dir, enginepath.Binary))
	if err != nil || sum != have.BinarySHA256 {
		return Info{}, false
	}
	return have, true
}

// fileSHA256 is the hex SHA-256 of a file.
func fileSHA256(path string) (string, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", fmt.Errorf("sfbuild: %w", err)
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return "", fmt.Errorf("sfbuild: reading %s: %w", path, err)
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// checkSHA256 checks a file against its expected SHA-256.
func checkSHA256(path, want string) error {
	got, err := fileSHA256(path)
	if err != nil {
		return err
	}
	if got != want {
		return fmt.Errorf("sfbuild: %s: SHA-256 %s, want %s", path, got, want)
	}
	return nil
}

// isNotExist reports a missing file behind a wrapped error.
func isNotExist(err error) bool { return errors.Is(err, fs.ErrNotExist) }
