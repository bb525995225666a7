package installer

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/outpostchess/outpost/bots/enginepath"
	"github.com/outpostchess/outpost/bots/sfbuild"
	"github.com/outpostchess/outpost/models"
)

// fixture is an installer against the loopback mirror, in temporary
// directories, with no Stockfish on PATH, no apt, and a recording builder
// in place of the compiler (a real build takes minutes: bots/sfbuild's
// tests build).
type fixture struct {
	m       *mirror
	engines string
	debian  string
	log     bytes.Buffer
	built   []sfbuild.Builder
	apt     [][]string
	opts    Options
}

func newFixture(t *testing.T) *fixture {
	t.Helper()
	f := &fixture{m: newMirror(t), engines: t.TempDir()}
	f.debian = filepath.Join(t.TempDir(), "stockfish")
	f.opts = Options{
		Sources: f.m.sources(), Client: f.m.srv.Client(), Log: &f.log, ModelsDir: t.TempDir(),
		Locator: enginepath.Locator{
			Getenv: func(k string) string {
				if k == enginepath.EnvEnginesDir {
					return f.engines
				}
				return ""
			},
			LookPath: func(string) (string, error) { return "", os.ErrNotExist },
			Debian:   f.debian,
		},
		Builder: func(_ context.Context, b sfbuild.Builder, r sfbuild.Recipe) (sfbuild.Result, error) {
			f.built = append(f.built, b)
			return sfbuild.Result{Binary: filepath.Join(f.engines, r.Engine, "stockfish"), Info: sfbuild.Info{Arch: "x86-64", BenchNodes: r.BenchNodes}}, nil
		},
		Apt: func(_ context.Context, pkgs ...string) error {
			f.apt = append(f.apt, pkgs)
			return ErrNoApt
		},
	}
	return f
}

func (f *fixture) run(t *testing.T, step func(*Installer) error) error {
	t.Helper()
	in, err := New(f.opts)
	if err != nil {
		t.Fatal(err)
	}
	return step(in)
}

// mustHave checks that path holds a file with the SHA-256 want.
func mustHave(t *testing.T, path, want string) {
	t.Helper()
	if got, err := FileSHA256(path); err != nil || got != want {
		t.Errorf("%s: SHA-256 %s (%v), want %s", path, got, err, want)
	}
}

// TestEngineDownloadsSourceAndNets: without a local source, the official
// tag archive and the network are downloaded (pinned SHA-256) into the
// engines' cache, and the build is given that folder.
func TestEngineDownloadsSourceAndNets(t *testing.T) {
	f := newFixture(t)
	r := sfbuild.Stockfish15()
	f.m.need(t, "/sf/sf_15.1.tar.gz", "/nn/"+r.Nets[0].Name)
	f.opts.Build = true
	if err := f.run(t, func(in *Installer) error { return in.Engine(context.Background(), "sf15") }); err != nil {
		t.Fatalf("Engine: %v\n%s", err, f.log.String())
	}
	if len(f.built) != 1 {
		t.Fatalf("%d builds, want 1", len(f.built))
	}
	src := filepath.Join(f.engines, SourceDir)
	if f.built[0].SourceDir != src {
		t.Errorf("built from %q, want the download cache %q", f.built[0].SourceDir, src)
	}
	mustHave(t, filepath.Join(src, r.Archive), r.ArchiveSHA256)
	mustHave(t, filepath.Join(f.engines, sfbuild.NetsDir, r.Nets[0].Name), r.Nets[0].SHA256)
	want := []string{"/sf/sf_15.1.tar.gz", "/nn/" + r.Nets[0].Name}
	if got := f.m.requests(); !slices.Equal(got, want) {
		t.Errorf("asked the mirror for %q, want %q", got, want)
	}
	if !strings.Contains(f.log.String(), "Stockfish 15.1 (sf15): built") {
		t.Errorf("log:\n%s", f.log.String())
	}
}

// TestEngineNetsFromNPM: when the network server lacks Stockfish 18's
// nets, the npm package they are recovered from is downloaded into the
// cache where sfbuild looks for it.
func TestEngineNetsFromNPM(t *testing.T) {
	f := newFixture(t)
	r := sfbuild.Stockfish18()
	npm := "/npm/stockfish/-/" + StockfishNPM18.File()
	f.m.need(t, "/sf/sf_18.tar.gz", npm)
	for _, n := range r.Nets {
		f.m.files["/nn/"+n.Name] = "" // not on the network server
	}
	if err := f.run(t, func(in *Installer) error { return in.Engine(context.Background(), "sf18") }); err != nil {
		t.Fatalf("Engine: %v\n%s", err, f.log.String())
	}
	mustHave(t, filepath.Join(f.engines, sfbuild.NPMDir, StockfishNPM18.File()), StockfishNPM18.SHA256)
	if !slices.Contains(f.m.requests(), npm) {
		t.Errorf("npm tarball not requested: %q", f.m.requests())
	}
	if !strings.Contains(f.log.String(), "recovering 2 network(s) from the npm package stockfish@18.0.8") {
		t.Errorf("log:\n%s", f.log.String())
	}
}

// TestEngineLocalSource: a folder holding the pinned archive is used as it
// is (nothing downloaded from /sf).
func TestEngineLocalSource(t *testing.T) {
	f := newFixture(t)
	r := sfbuild.Stockfish15()
	f.m.need(t, "/sf/sf_15.1.tar.gz")
	f.opts.Build, f.opts.StockfishSrc = true, filepath.Join(shared, "stockfish")
	if err := f.run(t, func(in *Installer) error { return in.Engine(context.Background(), "sf15") }); err != nil {
		t.Fatalf("Engine: %v\n%s", err, f.log.String())
	}
	if len(f.built) != 1 || f.built[0].SourceDir != f.opts.StockfishSrc {
		t.Fatalf("builds %+v, want one from %s", f.built, f.opts.StockfishSrc)
	}
	if slices.Contains(f.m.requests(), "/sf/sf_15.1.tar.gz") {
		t.Error("downloaded the source although a local copy was given")
	}
	_ = r
}

// TestEngineSkips: a Stockfish on PATH satisfies the default engine, and
// an installed native build is kept, neither downloading anything.
func TestEngineSkips(t *testing.T) {
	cases := []struct {
		name, engine, want string
		prepare            func(f *fixture)
	}{
		{"stockfish on PATH", "sf15", "is installed; not building a native one", func(f *fixture) {
			writeExec(t, f.debian)
		}},
		{"native build kept", "sf18", "already built", func(f *fixture) { fakeNative(t, f, "sf18") }},
		{"native sf15 named before PATH's", "sf15", "already built", func(f *fixture) {
			fakeNative(t, f, "sf15")
			writeExec(t, f.debian)
		}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			f := newFixture(t)
			c.prepare(f)
			if err := f.run(t, func(in *Installer) error { return in.Engine(context.Background(), c.engine) }); err != nil {
				t.Fatal(err)
			}
			if len(f.built) != 0 || len(f.m.requests()) != 0 {
				t.Errorf("built %d, asked %q: want nothing", len(f.built), f.m.requests())
			}
			if !strings.Contains(f.log.String(), c.want) {
				t.Errorf("log does not say %q:\n%s", c.want, f.log.String())
			}
		})
	}
}

// TestEngineFallbacks: when the source archive is not the pinned one (as
// GitHub's generated archive may be), the error says so; the default engine
// then tries Debian's package, and says what to do when apt is not there.
func TestEngineFallbacks(t *testing.T) {
	for _, c := range []struct {
		name    string
		apt     func(f *fixture) error
		wantErr string
	}{
		{"no apt", func(*fixture) error { return ErrNoApt }, "install Stockfish with your system's package manager"},
		{"apt installs it", func(f *fixture) error { writeExec(t, f.debian); return nil }, ""},
		{"apt fails", func(*fixture) error { return fmt.Errorf("E: unable to locate package") }, "unable to locate package"},
	} {
		t.Run(c.name, func(t *testing.T) {
			f := newFixture(t)
			f.m.need(t, "/sf/sf_18.tar.gz")
			f.m.files["/sf/sf_15.1.tar.gz"] = f.m.files["/sf/sf_18.tar.gz"]
			f.opts.Build = true
			f.opts.Apt = func(_ context.Context, pkgs ...string) error {
				f.apt = append(f.apt, pkgs)
				return c.apt(f)
			}
			err := f.run(t, func(in *Installer) error { return in.Engine(context.Background(), "sf15") })
			if !strings.Contains(f.log.String(), "git archive --prefix=stockfish-15.1/ sf_15.1") {
				t.Errorf("the log does not explain the archive mismatch:\n%s", f.log.String())
			}
			if len(f.apt) != 1 || !slices.Equal(f.apt[0], []string{"stockfish"}) {
				t.Errorf("apt calls %q, want one for stockfish", f.apt)
			}
			if c.wantErr == "" {
				if err != nil {
					t.Fatal(err)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), c.wantErr) {
				t.Fatalf("err %v, want %q", err, c.wantErr)
			}
		})
	}
}

// TestONNXRuntime: the library of the platform comes out of the pinned
// npm tarball under its pinned SHA-256 (windows/amd64: another file name,
// so setup says how to point the config at it), the tarball is deleted, a
// second run keeps the library; darwin/amd64, absent from the package, is
// skipped with a reason. (Decompressing the 86 MB tarball is the slow part
// under the race detector: the other platforms' pins are checked in one
// pass by TestORTPins.)
func TestONNXRuntime(t *testing.T) {
	npm := "/npm/onnxruntime-node/-/" + ONNXRuntimeNode.File()
	for _, plat := range []string{"windows/amd64", "darwin/amd64"} {
		t.Run(strings.ReplaceAll(plat, "/", "-"), func(t *testing.T) {
			f := newFixture(t)
			f.m.need(t, npm)
			f.opts.GOOS, f.opts.GOARCH, _ = strings.Cut(plat, "/")
			if err := f.run(t, func(in *Installer) error { return in.ONNXRuntime(context.Background()) }); err != nil {
				t.Fatalf("%v\n%s", err, f.log.String())
			}
			b, ok := ORTBuilds[plat]
			if !ok {
				if len(f.m.requests()) != 0 || !strings.Contains(f.log.String(), "has no build for darwin/amd64") {
					t.Errorf("asked %q; log:\n%s", f.m.requests(), f.log.String())
				}
				return
			}
			mustHave(t, filepath.Join(f.opts.ModelsDir, b.File), b.SHA256)
			if !strings.Contains(f.log.String(), "set [models] library") {
				t.Errorf("no hint for the library's name:\n%s", f.log.String())
			}
			if _, err := os.Stat(filepath.Join(f.opts.ModelsDir, NPMCacheDir)); !os.IsNotExist(err) {
				t.Errorf("the tarball's folder was kept: %v", err)
			}
			// A second run keeps the library and downloads nothing.
			n := len(f.m.requests())
			if err := f.run(t, func(in *Installer) error { return in.ONNXRuntime(context.Background()) }); err != nil {
				t.Fatal(err)
			}
			if len(f.m.requests()) != n || !strings.Contains(f.log.String(), "already installed") {
				t.Errorf("second run asked %q; log:\n%s", f.m.requests()[n:], f.log.String())
			}
		})
	}
}

// TestORTPins: every platform's library in the npm tarball has the
// SHA-256 pinned in ORTBuilds (one pass over the tarball).
func TestORTPins(t *testing.T) {
	m := newMirror(t)
	p := m.files["/npm/onnxruntime-node/-/"+ONNXRuntimeNode.File()]
	m.need(t, "/npm/onnxruntime-node/-/"+ONNXRuntimeNode.File())
	want := map[string]string{}
	for _, b := range ORTBuilds {
		want[b.Member] = b.SHA256
	}
	got, err := memberHashes(p, want)
	if err != nil {
		t.Fatal(err)
	}
	for member, sum := range want {
		if got[member] != sum {
			t.Errorf("%s: SHA-256 %q, pinned %s", member, got[member], sum)
		}
	}
}

// memberHashes is the SHA-256 of each wanted member of a .tar.gz.
func memberHashes(tgz string, want map[string]string) (map[string]string, error) {
	f, err := os.Open(tgz)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		return nil, err
	}
	tr := tar.NewReader(zr)
	got := map[string]string{}
	for {
		h, err := tr.Next()
		if errors.Is(err, io.EOF) {
			return got, nil
		}
		if err != nil {
			return nil, err
		}
		if _, ok := want[h.Name]; !ok {
			continue
		}
		sum := sha256.New()
		if _, err := io.Copy(sum, tr); err != nil {
			return nil, err
		}
		got[h.Name] = hex.EncodeToString(sum.Sum(nil))
	}
}

// TestMaiaWeights: downloaded from the release URL, copied from a source
// folder, a corrupt copy downloaded instead, and kept on the next run.
func TestMaiaWeights(t *testing.T) {
	f := newFixture(t)
	f.m.need(t, "/maia/maia-1100.pb.gz")
	src := t.TempDir()
	good, err := os.ReadFile(filepath.Join(shared, "models", "maia1", "maia-1500.pb.gz"))
	if err != nil {
		t.Fatal(err)
	}
	writeIf(t, filepath.Join(src, "maia-1500.pb.gz"), good)
	writeIf(t, filepath.Join(src, "maia-1600.pb.gz"), []byte("corrupt"))
	f.opts.MaiaSource = src
	if err := f.run(t, func(in *Installer) error { return in.MaiaWeights(context.Background()) }); err != nil {
		t.Fatalf("%v\n%s", err, f.log.String())
	}
	for _, lvl := range models.Maia1Levels {
		want, _ := models.Maia1WeightsSHA256(lvl)
		mustHave(t, filepath.Join(f.opts.ModelsDir, "maia1", fmt.Sprintf("maia-%d.pb.gz", lvl)), want)
	}
	asked := f.m.requests()
	if len(asked) != 8 || slices.Contains(asked, "/maia/maia-1500.pb.gz") || !slices.Contains(asked, "/maia/maia-1600.pb.gz") {
		t.Errorf("asked %q: want the 8 levels not copied (1600's copy is corrupt)", asked)
	}
	if !strings.Contains(f.log.String(), "0 already there (SHA-256 checked), 1 copied") {
		t.Errorf("log:\n%s", f.log.String())
	}
	if err := f.run(t, func(in *Installer) error { return in.MaiaWeights(context.Background()) }); err != nil {
		t.Fatal(err)
	}
	if len(f.m.requests()) != 8 || !strings.Contains(f.log.String(), "9 already there") {
		t.Errorf("second run asked %q; log:\n%s", f.m.requests(), f.log.String())
	}
}

// TestRunReportsEveryStep: Run goes through the steps, prints why each
// skipped one is skipped, and returns the failure of a step after running
// the others.
func TestRunReportsEveryStep(t *testing.T) {
	f := newFixture(t)
	f.m.need(t, "/maia/maia-1100.pb.gz")
	f.opts.SkipLibrary = true
	f.opts.Engines = []string{"sf99"}
	err := f.run(t, func(in *Installer) error { return in.Run(context.Background()) })
	if err == nil || !strings.Contains(err.Error(), `"sf99" has no native build`) {
		t.Fatalf("err %v, want the unknown engine", err)
	}
	for _, want := range []string{"ONNX Runtime: skipped (--skip-library)", "Maia-1 weights in", "9 downloaded"} {
		if !strings.Contains(f.log.String(), want) {
			t.Errorf("log lacks %q:\n%s", want, f.log.String())
		}
	}
}

// fakeNative makes the files by which enginepath counts a native build.
func fakeNative(t *testing.T, f *fixture, name string) {
	t.Helper()
	dir, err := f.opts.Locator.NativeDir(name)
	if err != nil {
		t.Fatal(err)
	}
	writeExec(t, filepath.Join(dir, enginepath.Binary))
	writeIf(t, filepath.Join(dir, enginepath.BuildInfo), []byte("{}"))
}

// TestEngineComparesWithCachedSource: with the source archive in the
// download cache, an installed build goes to sfbuild, which compares it
// with the source (and skips an identical one) — nothing is downloaded.
func TestEngineComparesWithCachedSource(t *testing.T) {
	for _, name := range []string{"sf18", "sf15"} {
		t.Run(name, func(t *testing.T) {
			f := newFixture(t)
			r, _ := sfbuild.RecipeFor(name)
			archive, err := os.ReadFile(filepath.Join(shared, "stockfish", r.Archive))
			if err != nil {
				t.Skipf("no shared source: %v", err)
			}
			fakeNative(t, f, name)
			writeExec(t, f.debian) // sf15: a Stockfish on PATH does not hide the native build
			writeIf(t, filepath.Join(mkdir(t, filepath.Join(f.engines, SourceDir)), r.Archive), archive)
			for _, n := range r.Nets {
				f.m.files["/nn/"+n.Name] = ""
			}
			f.m.files["/npm/stockfish/-/"+StockfishNPM18.File()] = ""
			_ = f.run(t, func(in *Installer) error { return in.Engine(context.Background(), name) })
			if len(f.built) != 1 {
				t.Fatalf("%d builds, want sfbuild to be asked (it compares)\n%s", len(f.built), f.log.String())
			}
			for _, p := range f.m.requests() {
				if strings.HasPrefix(p, "/sf/") {
					t.Errorf("downloaded the source again: %s", p)
				}
			}
		})
	}
}

func mkdir(t *testing.T, dir string) string {
	t.Helper()
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	return dir
}

func writeExec(t *testing.T, path string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte("#!/bin/sh\n"), 0o755); err != nil {
		t.Fatal(err)
	}
}

// TestNPMPins: every pinned npm tarball downloads from the registry layout
// (here the loopback mirror of npm's cache) under its pinned SHA-256 and
// size — Stockfish 16's and 17.1's too, whose builds come with
// `outpost engines install sf16|sf17.1`.
func TestNPMPins(t *testing.T) {
	for _, p := range []NPMTarball{ONNXRuntimeNode, StockfishNPM16, StockfishNPM171, StockfishNPM18} {
		t.Run(p.File(), func(t *testing.T) {
			f := newFixture(t)
			path := "/npm/" + p.Name + "/-/" + p.File()
			f.m.need(t, path)
			if got := p.URL(f.m.sources().NPM); got != f.m.srv.URL+path {
				t.Errorf("URL %s, want %s", got, f.m.srv.URL+path)
			}
			dst := filepath.Join(t.TempDir(), p.File())
			fe := Fetcher{Client: f.m.srv.Client()}
			if err := fe.Fetch(context.Background(), Download{URL: p.URL(f.m.sources().NPM), Dst: dst, SHA256: p.SHA256, Size: p.Size}); err != nil {
				t.Fatal(err)
			}
			if st, err := os.Stat(dst); err != nil || st.Size() != p.Size {
				t.Errorf("size %v (%v), want %d", st, err, p.Size)
			}
		})
	}
}
