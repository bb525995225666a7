package sfbuild

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/outpostchess/outpost/bots/enginepath"
)

// ErrNoCompiler is wrapped when g++ or make is missing.
var ErrNoCompiler = errors.New("sfbuild: no C++ compiler (g++) or make (Debian: apt-get install build-essential)")

// Builder builds Stockfish into the engines directory.
type Builder struct {
	// Locator says where builds go and where Debian's Stockfish is.
	Locator enginepath.Locator
	// SourceDir holds the source archives (Recipe.Archive).
	SourceDir string
	// Arch is the Makefile ARCH; "" chooses it from CPUInfo.
	Arch string
	// CPUInfo is the cpuinfo file (default /proc/cpuinfo).
	CPUInfo string
	// Jobs is make's -j (default 2).
	Jobs int
	// Force rebuilds even when an identical build is installed.
	Force bool
	// Log gets progress lines (nothing when nil).
	Log io.Writer
}

// Result is a finished Build.
type Result struct {
	Info Info
	// Dir is the build's directory; Binary its executable.
	Dir, Binary string
	// Skipped is set when an identical build was already installed.
	Skipped bool
}

func (b Builder) logf(format string, args ...any) {
	if b.Log != nil {
		fmt.Fprintf(b.Log, format+"\n", args...)
	}
}

// arch returns the ARCH to build for.
func (b Builder) arch() (string, error) {
	if b.Arch != "" {
		if !slices.Contains(Arches(), b.Arch) {
			return "", fmt.Errorf("sfbuild: ARCH %q (want one of %s)", b.Arch, strings.Join(Arches(), ", "))
		}
		return b.Arch, nil
	}
	if runtime.GOARCH != "amd64" {
		return "", fmt.Errorf("sfbuild: native builds are made for x86-64 only (this is %s)", runtime.GOARCH)
	}
	path := b.CPUInfo
	if path == "" {
		path = "/proc/cpuinfo"
	}
	text, err := os.ReadFile(path)
	if err != nil {
		return "", fmt.Errorf("sfbuild: %w", err)
	}
	cpu, err := ParseCPUInfo(string(text))
	if err != nil {
		return "", fmt.Errorf("sfbuild: %s: %w", path, err)
	}
	return cpu.ChooseArch(), nil
}

// compiler returns the first line of `g++ --version`, or ErrNoCompiler.
func compiler(ctx context.Context) (string, error) {
	for _, p := range []string{"g++", "make"} {
		if _, err := exec.LookPath(p); err != nil {
			return "", fmt.Errorf("%w: %s not found", ErrNoCompiler, p)
		}
	}
	out, err := exec.CommandContext(ctx, "g++", "--version").Output()
	if err != nil {
		return "", fmt.Errorf("%w: g++ --version: %v", ErrNoCompiler, err)
	}
	return strings.TrimSpace(strings.SplitN(string(out), "\n", 2)[0]), nil
}

// Build builds the recipe for this machine and installs it, or does
// nothing when an identical build is installed (Result.Skipped).
func (b Builder) Build(ctx context.Context, r Recipe) (Result, error) {
	dir, err := b.Locator.NativeDir(r.Engine)
	if err != nil {
		return Result{}, err
	}
	res := Result{Dir: dir, Binary: filepath.Join(dir, enginepath.Binary)}
	arch, err := b.arch()
	if err != nil {
		return res, err
	}
	cc, err := compiler(ctx)
	if err != nil {
		return res, err
	}
	archive := filepath.Join(b.SourceDir, r.Archive)
	if err := checkSHA256(archive, r.ArchiveSHA256); err != nil {
		return res, fmt.Errorf("sfbuild: Stockfish %s source: %w", r.Version, err)
	}
	nets, err := b.prepareNets(ctx, r)
	if err != nil {
		return res, err
	}
	jobs := max(1, b.Jobs)
	if b.Jobs == 0 {
		jobs = 2
	}
	want := Info{Engine: r.Engine, Version: r.Version, ArchiveSHA256: r.ArchiveSHA256, Nets: map[string]string{},
		Arch: arch, Compiler: cc, Target: TargetProfile, Command: makeCommand(jobs, TargetProfile, arch), BenchArgs: r.BenchArgs}
	for _, n := range r.Nets {
		want.Nets[n.Name] = n.SHA256
	}
	if have, ok := installed(dir, want); ok && !b.Force {
		res.Info, res.Skipped = have, true
		return res, nil
	}
	info, err := b.compile(ctx, r, archive, nets, want, jobs)
	if err != nil {
		return res, err
	}
	res.Info = info
	return res, nil
}

// compile extracts, builds, checks and installs.
func (b Builder) compile(ctx context.Context, r Recipe, archive string, nets map[string]string, info Info, jobs int) (Info, error) {
	root, err := b.Locator.Dir()
	if err != nil {
		return Info{}, err
	}
	if err := os.MkdirAll(root, 0o755); err != nil {
		return Info{}, fmt.Errorf("sfbuild: %w", err)
	}
	work, err := os.MkdirTemp(root, ".build-"+r.Engine+"-")
	if err != nil {
		return Info{}, fmt.Errorf("sfbuild: %w", err)
	}
	defer os.RemoveAll(work)
	if err := extract(archive, work); err != nil {
		return Info{}, err
	}
	src := filepath.Join(work, r.Prefix, "src")
	for name, p := range nets {
		if err := linkOrCopy(p, filepath.Join(src, name)); err != nil {
			return Info{}, err
		}
	}
	b.logf("building Stockfish %s: %s (in %s)", r.Version, info.Command, src)
	start := time.Now()
	info, err = b.makeEngine(ctx, src, jobs, info, filepath.Join(work, "build.log"))
	if err != nil {
		return Info{}, err
	}
	info.BuildSeconds = time.Since(start).Round(100 * time.Millisecond).Seconds()
	bin := filepath.Join(src, enginepath.Binary)
	bench, err := CheckIdentity(ctx, bin, r)
	if err != nil {
		return Info{}, err
	}
	info.BenchNodes, info.BenchNPS, info.Built = bench.Nodes, bench.NPS, time.Now().UTC().Truncate(time.Second)
	b.logf("built in %.0f s; %s: %d nodes (as Stockfish %s's), %d nodes/s",
		info.BuildSeconds, strings.TrimSpace("bench "+strings.Join(r.BenchArgs, " ")), bench.Nodes, r.Version, bench.NPS)
	return b.install(r, work, bin, info)
}

// The Makefile targets a build runs.
const (
	// TargetProfile is Stockfish's profile-guided build: an instrumented
	// executable runs the bench, then the compiler optimises with that
	// profile. Same code, same nodes and evaluations as TargetPlain, and
	// faster: Stockfish 15.1 searched 16 % more nodes per second here
	// (docs/stockfish.md). It is what Build makes first.
	TargetProfile = "profile-build"
	// TargetPlain is the plain optimised build, the fallback when the
	// profile-guided one fails (for example when the instrumented
	// executable cannot run its bench).
	TargetPlain = "build"
)

// makeCommand is the make command line of a target.
func makeCommand(jobs int, target, arch string) string {
	return fmt.Sprintf("make -j%d %s ARCH=%s", jobs, target, arch)
}

// makeEngine runs the profile-guided build, falling back to the plain
// one (after `make clean`) when it fails, and says so in info and the log.
func (b Builder) makeEngine(ctx context.Context, src string, jobs int, info Info, logPath string) (Info, error) {
	err := runMake(ctx, src, jobs, TargetProfile, info.Arch, logPath)
	if err == nil {
		return info, nil
	}
	if ctx.Err() != nil {
		return Info{}, err
	}
	b.logf("the profile-guided build failed, building without a profile: %v", err)
	info.ProfileError = firstLine(err.Error())
	if err := runMake(ctx, src, jobs, "clean", info.Arch, logPath+".clean"); err != nil {
		return Info{}, err
	}
	if err := runMake(ctx, src, jobs, TargetPlain, info.Arch, logPath+".plain"); err != nil {
		return Info{}, err
	}
	info.Target, info.Command = TargetPlain, makeCommand(jobs, TargetPlain, info.Arch)
	return info, nil
}

// firstLine is s up to its first newline.
func firstLine(s string) string {
	line, _, _ := strings.Cut(s, "\n")
	return line
}

// runMake runs `make -jN TARGET ARCH=…` in src, its output in logPath.
func runMake(ctx context.Context, src string, jobs int, target, arch, logPath string) error {
	logf, err := os.Create(logPath)
	if err != nil {
		return fmt.Errorf("sfbuild: %w", err)
	}
	defer logf.Close()
	cmd := exec.CommandContext(ctx, "make", "-j"+strconv.Itoa(jobs), target, "ARCH="+arch)
	cmd.Dir, cmd.Stdout, cmd.Stderr = src, logf, logf
	if err := cmd.Run(); err != nil {
		out, _ := os.ReadFile(logPath)
		return fmt.Errorf("sfbuild: make %s ARCH=%s: %w:\n%s", target, arch, err, tail(string(out), 15))
	}
	return nil
}

// install copies the executable and the licence into the build's
// directory, then writes build.json (last: a build without it does not
// count). It returns info with the executable's checksum.
func (b Builder) install(r Recipe, work, bin string, info Info) (Info, error) {
	dir, err := b.Locator.NativeDir(r.Engine)
	if err != nil {
		return Info{}, err
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return Info{}, fmt.Errorf("sfbuild: %w", err)
	}
	if err := os.Remove(filepath.Join(dir, enginepath.BuildInfo)); err != nil && !isNotExist(err) {
		return Info{}, fmt.Errorf("sfbuild: %w", err)
	}
	dst := filepath.Join(dir, enginepath.Binary)
	if err := copyFile(bin, dst, 0o755); err != nil {
		return Info{}, err
	}
	if err := copyFile(filepath.Join(work, r.Prefix, "Copying.txt"), filepath.Join(dir, "Copying.txt"), 0o644); err != nil {
		return Info{}, err
	}
	sum, err := fileSHA256(dst)
	if err != nil {
		return Info{}, err
	}
	info.BinarySHA256 = sum
	return info, writeInfo(dir, info)
}

// linkOrCopy hard-links src to dst, copying when a link is not possible.
func linkOrCopy(src, dst string) error {
	if err := os.Link(src, dst); err == nil {
		return nil
	}
	return copyFile(src, dst, 0o644)
}
