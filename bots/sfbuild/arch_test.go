package sfbuild

import (
	"errors"
	"strconv"
	"strings"
	"testing"
)

// cpuinfo returns a two-processor /proc/cpuinfo text.
func cpuinfo(vendor string, family int, flags string) string {
	one := "processor\t: 0\nvendor_id\t: " + vendor + "\ncpu family\t: " + strconv.Itoa(family) +
		"\nmodel name\t: Test CPU\nflags\t\t: " + flags + "\nbogomips\t: 4000.00\n"
	return one + "\n" + strings.Replace(one, "processor\t: 0", "processor\t: 1", 1) + "\n"
}

func TestChooseArch(t *testing.T) {
	const base = "fpu sse sse2 ssse3"
	for _, tc := range []struct {
		name   string
		vendor string
		family int
		flags  string
		want   string
	}{
		{"vnni", "GenuineIntel", 6, base + " sse4_1 popcnt avx2 bmi2 avx512bw avx512vnni", "x86-64-vnni512"},
		{"avx512", "GenuineIntel", 6, base + " sse4_1 popcnt avx2 bmi2 avx512f avx512bw", "x86-64-avx512"},
		{"Intel bmi2", "GenuineIntel", 6, base + " sse4_1 popcnt avx2 bmi2", "x86-64-bmi2"},
		{"Zen 3 bmi2 (this machine)", "AuthenticAMD", 25, base + " sse4_1 popcnt avx2 bmi2", "x86-64-bmi2"},
		{"Zen 2: slow PEXT", "AuthenticAMD", 23, base + " sse4_1 popcnt avx2 bmi2", "x86-64-avx2"},
		{"avx2 without bmi2", "GenuineIntel", 6, base + " sse4_1 popcnt avx2", "x86-64-avx2"},
		{"sse4.1 popcnt", "GenuineIntel", 6, base + " sse4_1 popcnt", "x86-64-sse41-popcnt"},
		{"sse4.1 without popcnt", "GenuineIntel", 6, base + " sse4_1", "x86-64"},
		{"old", "AuthenticAMD", 15, base, "x86-64"},
		{"vnni flag alone is not avx512", "GenuineIntel", 6, base + " avx512vnni avx2", "x86-64-avx2"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cpu, err := ParseCPUInfo(cpuinfo(tc.vendor, tc.family, tc.flags))
			if err != nil {
				t.Fatal(err)
			}
			if cpu.Vendor != tc.vendor || cpu.Family != tc.family {
				t.Errorf("parsed %+v", cpu)
			}
			if got := cpu.ChooseArch(); got != tc.want {
				t.Errorf("ChooseArch = %s, want %s", got, tc.want)
			}
		})
	}
}

func TestParseCPUInfoErrors(t *testing.T) {
	for _, tc := range []struct{ name, text, want string }{
		{"arm", "processor\t: 0\nFeatures\t: fp asimd\nCPU implementer\t: 0x41\n", "no x86 flags"},
		{"empty", "", "no x86 flags"},
		{"bad family", "vendor_id : X\ncpu family : six\nflags : sse2\n", `cpu family "six"`},
	} {
		_, err := ParseCPUInfo(tc.text)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: err = %v, want %q", tc.name, err, tc.want)
		}
	}
	if _, err := ParseCPUInfo("flags: a\n"); err != nil {
		t.Errorf("minimal cpuinfo: %v", err)
	}
	if _, err := ParseCPUInfo("Features: fp\n"); !errors.Is(err, ErrNoFlags) {
		t.Errorf("err = %v, want ErrNoFlags", err)
	}
}

// FuzzParseCPUInfo: any text parses or fails cleanly, and a parsed CPU
// always gets one of the known ARCH values.
func FuzzParseCPUInfo(f *testing.F) {
	f.Add(cpuinfo("AuthenticAMD", 25, "sse4_1 popcnt avx2 bmi2"))
	f.Add("Features: fp\n")
	f.Add("cpu family : x\n")
	f.Fuzz(func(t *testing.T, text string) {
		cpu, err := ParseCPUInfo(text)
		if err != nil {
			return
		}
		arch := cpu.ChooseArch()
		for _, a := range Arches() {
			if a == arch {
				return
			}
		}
		t.Fatalf("ChooseArch = %q, not a known ARCH", arch)
	})
}

func TestParseBench(t *testing.T) {
	out := "info depth 13 ...\nbestmove e2e4\n\n===========================\nTotal time (ms) : 9949\nNodes searched  : 3467381\nNodes/second    : 348515\n"
	r, err := ParseBench(out)
	if err != nil || r.Nodes != 3467381 || r.NPS != 348515 {
		t.Fatalf("got %+v, %v", r, err)
	}
	for _, bad := range []string{"", "Nodes searched  : many\n", "Nodes/second : 5\n", "Nodes searched : -1\n"} {
		if _, err := ParseBench(bad); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
}

// FuzzParseBench: never a panic; a result always has nodes.
func FuzzParseBench(f *testing.F) {
	f.Add("Nodes searched  : 2050811\nNodes/second    : 700000\n")
	f.Add("Nodes searched: x")
	f.Fuzz(func(t *testing.T, out string) {
		r, err := ParseBench(out)
		if err == nil && r.Nodes <= 0 {
			t.Fatalf("result %+v without nodes", r)
		}
	})
}
