package ewr

import (
	"fmt"
	"io"
	"sync"
	"time"

	"github.com/outpostchess/outpost/analysis"
	"github.com/schollz/progressbar/v3"
)

// TerminalProgress returns a calculation's progress callback that draws
// its phases on w as a progress bar with the best move so far when w is a
// terminal, and a function that clears the bar at the end. On anything
// else both do nothing.
func TerminalProgress(w io.Writer) (progress func(Event), finish func()) {
	p := newTerminalProgress(w)
	return p.event, p.finish
}

// terminalProgress is TerminalProgress's bar: one per phase.
type terminalProgress struct {
	w     io.Writer
	mu    sync.Mutex
	bar   *progressbar.ProgressBar
	phase Phase
}

// newTerminalProgress draws on w when it is a terminal.
func newTerminalProgress(w io.Writer) *terminalProgress {
	if !analysis.IsTerminal(w) {
		return &terminalProgress{}
	}
	return &terminalProgress{w: w}
}

// event draws one progress event.
func (p *terminalProgress) event(e Event) {
	if p.w == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if e.Phase == PhaseDone {
		return
	}
	if p.bar == nil || e.Phase != p.phase {
		if p.bar != nil {
			_ = p.bar.Finish()
		}
		p.phase = e.Phase
		max := e.Total
		if e.Phase == PhaseTrees || max <= 0 {
			max = -1
		}
		p.bar = progressbar.NewOptions(max,
			progressbar.OptionSetWriter(p.w),
			progressbar.OptionSetDescription(phaseTitle(e.Phase)),
			progressbar.OptionShowCount(),
			progressbar.OptionThrottle(100*time.Millisecond),
			progressbar.OptionClearOnFinish(),
		)
	}
	if e.Message != "" {
		p.bar.Describe(e.Message)
	} else if len(e.Ranking) > 0 {
		top := e.Ranking[0]
		what := "best so far"
		if e.Provisional {
			what = "Stockfish's best so far"
		}
		p.bar.Describe(fmt.Sprintf("%s %s %s %.1f%%", phaseTitle(e.Phase), what, top.SAN, 100*top.ExpectedWinrate))
	}
	if e.Phase != PhaseTrees && e.Total > 0 && p.bar.GetMax() != e.Total {
		p.bar.ChangeMax(e.Total)
	}
	_ = p.bar.Set(e.Done)
}

// finish clears the bar.
func (p *terminalProgress) finish() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.bar != nil {
		_ = p.bar.Finish()
	}
}

// phaseTitle is what the bar says a phase is doing.
func phaseTitle(ph Phase) string {
	switch ph {
	case PhaseFilter:
		return "Evaluating legal moves with Stockfish..."
	case PhaseTrees:
		return "Generating Maia trees..."
	}
	return "Evaluating positions with Stockfish..."
}
