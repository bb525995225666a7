package terminal

import (
	"fmt"
	"io"
	"sync"

	"github.com/outpostchess/outpost/analysis/ewr"
	"github.com/schollz/progressbar/v3"
)

// EWR returns an expected-winrate calculation's progress callback (for
// ewr.Options.Progress) that draws its phases on w as a progress bar with
// the best move so far when w is a terminal, and a function that clears
// the bar at the end. On anything else both do nothing.
func EWR(w io.Writer) (progress func(ewr.Event), finish func()) {
	p := &phases{}
	if Is(w) {
		p.w = w
	}
	return p.event, p.finish
}

// phases is EWR's bar: one per phase.
type phases struct {
	w     io.Writer // nil: not a terminal, nothing drawn
	mu    sync.Mutex
	bar   *progressbar.ProgressBar
	phase ewr.Phase
}

// event draws one progress event.
func (p *phases) event(e ewr.Event) {
	if p.w == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if e.Phase == ewr.PhaseDone {
		return
	}
	if p.bar == nil || e.Phase != p.phase {
		if p.bar != nil {
			_ = p.bar.Finish()
		}
		p.phase = e.Phase
		max := e.Total
		if e.Phase == ewr.PhaseTrees || max <= 0 {
			max = -1 // a spinner: the trees' size is not known in advance
		}
		p.bar = progressbar.NewOptions(max,
			progressbar.OptionSetWriter(p.w),
			progressbar.OptionSetDescription(phaseTitle(e.Phase)),
			progressbar.OptionShowCount(),
			progressbar.OptionThrottle(throttle),
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
	if e.Phase != ewr.PhaseTrees && e.Total > 0 && p.bar.GetMax() != e.Total {
		p.bar.ChangeMax(e.Total)
	}
	_ = p.bar.Set(e.Done)
}

// finish clears the bar.
func (p *phases) finish() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.bar != nil {
		_ = p.bar.Finish()
	}
}

// phaseTitle is what the bar says a phase is doing.
func phaseTitle(ph ewr.Phase) string {
	switch ph {
	case ewr.PhaseFilter:
		return "Evaluating legal moves with Stockfish..."
	case ewr.PhaseTrees:
		return "Generating Maia trees..."
	}
	return "Evaluating positions with Stockfish..."
}
