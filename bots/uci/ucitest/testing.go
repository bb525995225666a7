package ucitest

import (
	"os"
	"runtime"
	"testing"
	"time"
)

// Run is the whole TestMain of a package whose tests start the fake: it
// runs the fake engine when the process was started as one, otherwise the
// package's tests, and exits with their status.
func Run(m *testing.M) {
	Main()
	os.Exit(m.Run())
}

// NoLeak fails t when goroutines started during it are still running once
// it ends, printing every stack: an engine's reader and waiter goroutines
// must end with its process. Goroutines on their way out get up to five
// seconds.
func NoLeak(t testing.TB) {
	t.Helper()
	before := runtime.NumGoroutine()
	t.Cleanup(func() {
		deadline := time.Now().Add(5 * time.Second)
		for runtime.NumGoroutine() > before && time.Now().Before(deadline) {
			runtime.Gosched()
			time.Sleep(10 * time.Millisecond)
		}
		if n := runtime.NumGoroutine(); n > before {
			buf := make([]byte, 1<<16)
			t.Errorf("goroutine leak: %d before, %d after\n%s", before, n, buf[:runtime.Stack(buf, true)])
		}
	})
}
