package sfbuild

import (
	"bufio"
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// CPU is what ChooseArch needs of /proc/cpuinfo: its first processor.
type CPU struct {
	Vendor string // vendor_id, e.g. "AuthenticAMD"
	Family int    // cpu family
	Flags  map[string]bool
}

// ErrNoFlags is returned for a cpuinfo without an x86 "flags" line (another
// architecture, or not a cpuinfo).
var ErrNoFlags = errors.New("sfbuild: cpuinfo has no x86 flags line")

// ParseCPUInfo reads the first processor of a /proc/cpuinfo text.
func ParseCPUInfo(text string) (CPU, error) {
	c := CPU{Flags: map[string]bool{}}
	sawFlags := false
	sc := bufio.NewScanner(strings.NewReader(text))
	sc.Buffer(make([]byte, 0, 64*1024), 1<<20)
	for sc.Scan() {
		line := sc.Text()
		if strings.TrimSpace(line) == "" {
			if sawFlags {
				break // end of the first processor
			}
			continue
		}
		key, value, ok := strings.Cut(line, ":")
		if !ok {
			continue
		}
		key, value = strings.TrimSpace(key), strings.TrimSpace(value)
		switch key {
		case "vendor_id":
			c.Vendor = value
		case "cpu family":
			n, err := strconv.Atoi(value)
			if err != nil {
				return CPU{}, fmt.Errorf("sfbuild: cpuinfo: cpu family %q is not a number", value)
			}
			c.Family = n
		case "flags":
			sawFlags = true
			for _, f := range strings.Fields(value) {
				c.Flags[f] = true
			}
		}
	}
	if err := sc.Err(); err != nil {
		return CPU{}, fmt.Errorf("sfbuild: reading cpuinfo: %w", err)
	}
	if !sawFlags {
		return CPU{}, ErrNoFlags
	}
	return c, nil
}

// fastPEXT reports whether PEXT/PDEP (BMI2) are fast: everywhere but AMD
// before Zen 3 (families 0x17 and older run them in microcode, far slower
// than Stockfish's fallback).
func (c CPU) fastPEXT() bool {
	return c.Vendor != "AuthenticAMD" || c.Family >= 0x19
}

// ChooseArch picks Stockfish's Makefile ARCH for the CPU, the fastest its
// flags allow: avx512vnni → x86-64-vnni512, avx512bw → x86-64-avx512, bmi2
// with fast PEXT → x86-64-bmi2, avx2 → x86-64-avx2, sse4.1 and popcnt →
// x86-64-sse41-popcnt, else x86-64. Stockfish 15.1 and 18 both know these.
func (c CPU) ChooseArch() string {
	f := c.Flags
	switch {
	case f["avx512vnni"] && f["avx512bw"]:
		return "x86-64-vnni512"
	case f["avx512bw"]:
		return "x86-64-avx512"
	case f["bmi2"] && c.fastPEXT():
		return "x86-64-bmi2"
	case f["avx2"]:
		return "x86-64-avx2"
	case f["sse4_1"] && f["popcnt"]:
		return "x86-64-sse41-popcnt"
	}
	return "x86-64"
}

// Arches lists the ARCH values ChooseArch can return (and Builder accepts).
func Arches() []string {
	return []string{"x86-64-vnni512", "x86-64-avx512", "x86-64-bmi2", "x86-64-avx2", "x86-64-sse41-popcnt", "x86-64"}
}
