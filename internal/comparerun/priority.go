package comparerun

import (
	"os/exec"
	"runtime"
)

// NiceLevel is the scheduling niceness scheduled comparisons run their
// engine at.
const NiceLevel = "10"

// LowPriority returns cmd run under `nice -n 10` when the nice program
// exists (Unix), so the engine yields the CPU to live games; elsewhere cmd
// unchanged. nice execs the engine, so the process the pool manages is the
// engine itself.
func LowPriority(cmd []string) []string {
	if len(cmd) == 0 || runtime.GOOS == "windows" {
		return cmd
	}
	nice, err := exec.LookPath("nice")
	if err != nil {
		return cmd
	}
	return append([]string{nice, "-n", NiceLevel}, cmd...)
}
