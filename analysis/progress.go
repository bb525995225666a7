package analysis

import (
	"io"
	"os"
	"sync"

	"github.com/mattn/go-isatty"
	"github.com/schollz/progressbar/v3"
)

// TerminalProgress returns a progress callback (for EngineOptions.Progress)
// drawing a bar on w when w is a terminal, and a finish function. When w is
// not a terminal the callback is nil and nothing is drawn.
func TerminalProgress(w io.Writer, desc string) (progress func(done, total int), finish func()) {
	if !IsTerminal(w) {
		return nil, func() {}
	}
	var mu sync.Mutex
	var bar *progressbar.ProgressBar
	progress = func(done, total int) {
		mu.Lock()
		defer mu.Unlock()
		if bar == nil {
			bar = progressbar.NewOptions(total,
				progressbar.OptionSetWriter(w),
				progressbar.OptionSetDescription(desc),
				progressbar.OptionShowCount(),
				progressbar.OptionSetItsString("positions"),
				progressbar.OptionShowIts(),
				progressbar.OptionSetPredictTime(true),
				progressbar.OptionThrottle(100_000_000),
				progressbar.OptionClearOnFinish(),
			)
		}
		if bar.GetMax() != total {
			bar.ChangeMax(total)
		}
		_ = bar.Set(done)
	}
	finish = func() {
		mu.Lock()
		defer mu.Unlock()
		if bar != nil {
			_ = bar.Finish()
		}
	}
	return progress, finish
}

// IsTerminal reports whether w is a terminal (a file that is a TTY, or a
// Cygwin terminal): where progress bars are drawn.
func IsTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	return ok && (isatty.IsTerminal(f.Fd()) || isatty.IsCygwinTerminal(f.Fd()))
}
