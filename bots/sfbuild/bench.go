package sfbuild

import (
	"bufio"
	"context"
	"fmt"
	"os/exec"
	"strconv"
	"strings"
)

// BenchResult is what Stockfish's bench prints at its end.
type BenchResult struct {
	Nodes int64 // "Nodes searched  : N"
	NPS   int64 // "Nodes/second    : N"
}

// ParseBench reads the summary of a bench run (stdout and stderr
// together).
func ParseBench(out string) (BenchResult, error) {
	var r BenchResult
	sc := bufio.NewScanner(strings.NewReader(out))
	for sc.Scan() {
		key, value, ok := strings.Cut(sc.Text(), ":")
		if !ok {
			continue
		}
		var dst *int64
		switch strings.TrimSpace(key) {
		case "Nodes searched":
			dst = &r.Nodes
		case "Nodes/second":
			dst = &r.NPS
		default:
			continue
		}
		n, err := strconv.ParseInt(strings.TrimSpace(value), 10, 64)
		if err != nil || n < 0 {
			return BenchResult{}, fmt.Errorf("sfbuild: bench: %q: %q is not a count", strings.TrimSpace(key), strings.TrimSpace(value))
		}
		*dst = n
	}
	if r.Nodes == 0 {
		return BenchResult{}, fmt.Errorf("sfbuild: bench printed no node count")
	}
	return r, nil
}

// Bench runs `binary bench args…` and parses its summary.
func Bench(ctx context.Context, binary string, args []string) (BenchResult, error) {
	out, err := exec.CommandContext(ctx, binary, append([]string{"bench"}, args...)...).CombinedOutput()
	if err != nil {
		return BenchResult{}, fmt.Errorf("sfbuild: %s bench %s: %w: %s", binary, strings.Join(args, " "), err, tail(string(out), 5))
	}
	return ParseBench(string(out))
}

// CheckIdentity runs the recipe's bench on binary and compares its node
// count with the recipe's.
func CheckIdentity(ctx context.Context, binary string, r Recipe) (BenchResult, error) {
	res, err := Bench(ctx, binary, r.BenchArgs)
	if err != nil {
		return res, err
	}
	if res.Nodes != r.BenchNodes {
		return res, fmt.Errorf("sfbuild: %s bench %s: %d nodes, want %d (not Stockfish %s)",
			binary, strings.Join(r.BenchArgs, " "), res.Nodes, r.BenchNodes, r.Version)
	}
	return res, nil
}

// tail returns the last n lines of s.
func tail(s string, n int) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	return strings.Join(lines[max(0, len(lines)-n):], "\n")
}
