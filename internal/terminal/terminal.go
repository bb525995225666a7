// Package terminal draws on a terminal: whether a writer is one (Is) and
// the commands' progress bars. The libraries report progress through
// callbacks (analysis.EngineOptions.Progress: positions done of total;
// ewr.Options.Progress: an ewr.Event per step) and draw nothing themselves;
// this app package turns those callbacks into bars.
package terminal

import (
	"io"
	"os"
	"sync"
	"time"

	"github.com/mattn/go-isatty"
	"github.com/schollz/progressbar/v3"
)

// throttle is how often a bar is redrawn at most: ten times a second is
// smooth to the eye and costs nothing next to an engine search.
const throttle = 100 * time.Millisecond

// IsTerminal reports whether w is a terminal (a file that is a TTY, or a
// Cygwin terminal): where progress bars are drawn.
func Is(w io.Writer) bool {
	f, ok := w.(*os.File)
	return ok && (isatty.IsTerminal(f.Fd()) || isatty.IsCygwinTerminal(f.Fd()))
}

// Positions returns a progress callback (for analysis.EngineOptions.Progress)
// drawing a bar of positions on w when w is a terminal, and a finish
// function. When w is not a terminal the callback is nil and nothing is
// drawn.
func Positions(w io.Writer, desc string) (progress func(done, total int), finish func()) {
	if !Is(w) {
		return nil, func() {}
	}
	p := &positions{w: w, desc: desc}
	return p.set, p.finish
}

// positions is Positions's bar, made at the first report (when the total
// is known).
type positions struct {
	w    io.Writer
	desc string
	mu   sync.Mutex
	bar  *progressbar.ProgressBar
}

// set draws done of total.
func (p *positions) set(done, total int) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.bar == nil {
		p.bar = progressbar.NewOptions(total,
			progressbar.OptionSetWriter(p.w),
			progressbar.OptionSetDescription(p.desc),
			progressbar.OptionShowCount(),
			progressbar.OptionSetItsString("positions"),
			progressbar.OptionShowIts(),
			progressbar.OptionSetPredictTime(true),
			progressbar.OptionThrottle(throttle),
			progressbar.OptionClearOnFinish(),
		)
	}
	if p.bar.GetMax() != total {
		p.bar.ChangeMax(total)
	}
	_ = p.bar.Set(done)
}

// finish clears the bar.
func (p *positions) finish() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.bar != nil {
		_ = p.bar.Finish()
	}
}
