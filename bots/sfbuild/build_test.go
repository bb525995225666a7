package sfbuild

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/outpostchess/outpost/bots/enginepath"
	"github.com/outpostchess/outpost/bots/wasmnet"
	"github.com/outpostchess/outpost/internal/testkit"
)

// fakeMakefile's build and profile-build targets write a "stockfish"
// script that prints a bench summary with the given node count (and the
// target's name, so a test can tell which was made), and check the network
// was put into src/. With PROFILE_FAILS in the environment profile-build
// fails after writing its script, as a real one whose instrumented bench
// crashes would; clean removes the script.
func fakeMakefile(nodes, net string) string {
	script := func(target string) string {
		return "\ttest -f " + net + "\n" +
			"\tprintf '#!/bin/sh\\necho \"Nodes searched  : " + nodes + "\"\\necho \"Nodes/second    : 1000\"\\necho " + target + "\\n' > stockfish\n" +
			"\tchmod +x stockfish\n" +
			"\techo built " + target + " $(ARCH) >&2\n"
	}
	return "build:\n" + script("build") +
		"profile-build:\n" + script("profile-build") + "\ttest -z \"$$PROFILE_FAILS\"\n" +
		"clean:\n\trm -f stockfish\n"
}

// fakeBuild prepares a source directory, an engines directory with the
// network cached, and a recipe whose Makefile makes a script printing
// nodes.
func fakeBuild(t *testing.T, nodes string) (Builder, Recipe) {
	t.Helper()
	for _, p := range []string{"g++", "make"} {
		if _, err := exec.LookPath(p); err != nil {
			t.Skipf("%s not installed", p)
		}
	}
	root := t.TempDir()
	net := []byte("fake network")
	n := wasmnet.Net{Name: "nn-" + testkit.SHA256(net)[:12] + ".nnue", Size: len(net), SHA256: testkit.SHA256(net)}
	archive := testkit.TarGz(t, map[string]string{
		"fake-1/Copying.txt":  "GPL",
		"fake-1/src/Makefile": fakeMakefile(nodes, n.Name),
	})
	src := filepath.Join(root, "src")
	engines := filepath.Join(root, "engines")
	for _, d := range []string{src, filepath.Join(engines, NetsDir)} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	must(t, os.WriteFile(filepath.Join(src, "fake-1.tar.gz"), archive, 0o644))
	must(t, os.WriteFile(filepath.Join(engines, NetsDir, n.Name), net, 0o644))
	r := Recipe{Engine: enginepath.Stockfish15, Version: "15.1", Archive: "fake-1.tar.gz", Prefix: "fake-1/",
		ArchiveSHA256: testkit.SHA256(archive), Nets: []wasmnet.Net{n}, BenchArgs: []string{"16", "1", "13"}, BenchNodes: 3_467_381}
	b := Builder{
		Locator:   enginepath.Locator{Getenv: func(k string) string { return map[string]string{enginepath.EnvEnginesDir: engines}[k] }},
		SourceDir: src, Arch: "x86-64-avx2", Jobs: 1,
	}
	return b, r
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// TestBuildInstallsAndSkips: a build is installed with build.json (found
// by enginepath as the native sf15), skipped when identical, redone when
// the executable changed or the ARCH differs.
func TestBuildInstallsAndSkips(t *testing.T) {
	b, r := fakeBuild(t, "3467381")
	ctx := context.Background()
	res, err := b.Build(ctx, r)
	if err != nil {
		t.Fatal(err)
	}
	if res.Skipped || res.Info.BenchNodes != 3_467_381 || res.Info.Arch != "x86-64-avx2" || res.Info.BinarySHA256 == "" {
		t.Fatalf("result %+v", res)
	}
	if rs, err := b.Locator.Resolve([]string{"sf15"}); err != nil || !rs.Native || rs.Command[0] != res.Binary {
		t.Fatalf("sf15 resolves to %+v, %v; want the native build %s", rs, err, res.Binary)
	}
	if _, err := os.Stat(filepath.Join(res.Dir, "Copying.txt")); err != nil {
		t.Error("licence not installed beside the executable")
	}
	again, err := b.Build(ctx, r)
	if err != nil || !again.Skipped {
		t.Fatalf("identical build not skipped: %+v, %v", again, err)
	}
	must(t, os.WriteFile(res.Binary, []byte("#!/bin/sh\necho changed\n"), 0o755))
	rebuilt, err := b.Build(ctx, r)
	if err != nil || rebuilt.Skipped {
		t.Fatalf("changed executable not rebuilt: %+v, %v", rebuilt, err)
	}
	b.Arch = "x86-64-bmi2"
	if other, err := b.Build(ctx, r); err != nil || other.Skipped || other.Info.Arch != "x86-64-bmi2" {
		t.Fatalf("other ARCH not rebuilt: %+v, %v", other, err)
	}
}

// TestBuildIdentityMismatch: an executable whose bench node count is not
// the version's is not installed.
func TestBuildIdentityMismatch(t *testing.T) {
	b, r := fakeBuild(t, "12345")
	_, err := b.Build(context.Background(), r)
	if err == nil || !strings.Contains(err.Error(), "12345 nodes, want 3467381") {
		t.Fatalf("err = %v", err)
	}
	if bin, _ := b.Locator.Native("sf15"); bin != "" {
		t.Errorf("a build that failed its identity check counts: %s", bin)
	}
}

func TestBuildErrors(t *testing.T) {
	b, r := fakeBuild(t, "3467381")
	bad := r
	bad.ArchiveSHA256 = strings.Repeat("0", 64)
	if _, err := b.Build(context.Background(), bad); err == nil || !strings.Contains(err.Error(), "SHA-256") {
		t.Errorf("wrong archive checksum: %v", err)
	}
	missing := b
	missing.SourceDir = t.TempDir()
	if _, err := missing.Build(context.Background(), r); err == nil || !errors.Is(err, os.ErrNotExist) {
		t.Errorf("missing archive: %v", err)
	}
	badArch := b
	badArch.Arch = "native"
	if _, err := badArch.Build(context.Background(), r); err == nil || !strings.Contains(err.Error(), `ARCH "native"`) {
		t.Errorf("unknown ARCH: %v", err)
	}
}

// TestExtractRefusesEscapes: an archive entry outside the directory is
// refused.
func TestExtractRefusesEscapes(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "evil.tar.gz")
	must(t, os.WriteFile(p, testkit.TarGz(t, map[string]string{"../escape": "x"}), 0o644))
	if err := extract(p, filepath.Join(dir, "out")); err == nil || !strings.Contains(err.Error(), "leaves the directory") {
		t.Fatalf("err = %v", err)
	}
}

// TestBuildProfileGuided: Build makes the profile-guided target and says so
// in build.json; a build recorded without a target (made before
// profile-guided builds) is rebuilt.
func TestBuildProfileGuided(t *testing.T) {
	b, r := fakeBuild(t, "3467381")
	ctx := context.Background()
	res, err := b.Build(ctx, r)
	if err != nil {
		t.Fatal(err)
	}
	if res.Info.Target != TargetProfile || res.Info.Command != "make -j1 profile-build ARCH=x86-64-avx2" || res.Info.ProfileError != "" {
		t.Fatalf("info %+v", res.Info)
	}
	if out, err := exec.Command(res.Binary).Output(); err != nil || !strings.Contains(string(out), "profile-build") {
		t.Fatalf("installed executable is not the profile-guided one: %q, %v", out, err)
	}
	old := res.Info
	old.Target = ""
	must(t, writeInfo(res.Dir, old))
	if again, err := b.Build(ctx, r); err != nil || again.Skipped || again.Info.Target != TargetProfile {
		t.Fatalf("a build without a target was not rebuilt: %+v, %v", again, err)
	}
}

// TestBuildFallsBackWithoutProfile: when the profile-guided build fails,
// the plain build is installed with the reason recorded, and the next
// Build does not retry the failing profile build unless forced.
func TestBuildFallsBackWithoutProfile(t *testing.T) {
	b, r := fakeBuild(t, "3467381")
	t.Setenv("PROFILE_FAILS", "1")
	var log strings.Builder
	b.Log = &log
	ctx := context.Background()
	res, err := b.Build(ctx, r)
	if err != nil {
		t.Fatal(err)
	}
	if res.Info.Target != TargetPlain || res.Info.Command != "make -j1 build ARCH=x86-64-avx2" ||
		!strings.Contains(res.Info.ProfileError, "make profile-build ARCH=x86-64-avx2") {
		t.Fatalf("info %+v", res.Info)
	}
	if !strings.Contains(log.String(), "profile-guided build failed") {
		t.Errorf("the fallback is not logged:\n%s", log.String())
	}
	if out, err := exec.Command(res.Binary).Output(); err != nil || strings.TrimSpace(string(out)) == "" || strings.Contains(string(out), "profile-build") {
		t.Fatalf("installed executable is not the plain build: %q, %v", out, err)
	}
	if again, err := b.Build(ctx, r); err != nil || !again.Skipped {
		t.Fatalf("a plain fallback build was rebuilt without Force: %+v, %v", again, err)
	}
	b.Force = true
	t.Setenv("PROFILE_FAILS", "")
	if forced, err := b.Build(ctx, r); err != nil || forced.Skipped || forced.Info.Target != TargetProfile {
		t.Fatalf("Force did not retry the profile-guided build: %+v, %v", forced, err)
	}
}
