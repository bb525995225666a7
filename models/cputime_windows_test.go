//go:build windows

package models

import (
	"syscall"
	"time"
)

// cpuTime returns the process's user+system CPU time.
func cpuTime() time.Duration {
	var creation, exit, kernel, user syscall.Filetime
	self, _ := syscall.GetCurrentProcess()
	_ = syscall.GetProcessTimes(self, &creation, &exit, &kernel, &user)
	// Filetimes count 100 ns units.
	ticks := func(f syscall.Filetime) int64 { return int64(f.HighDateTime)<<32 | int64(f.LowDateTime) }
	return time.Duration((ticks(kernel) + ticks(user)) * 100)
}
