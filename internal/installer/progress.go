package installer

import (
	"fmt"
	"io"
	"sync"
	"time"

	"github.com/schollz/progressbar/v3"

	"github.com/outpostchess/outpost/bots/enginepath"
	"github.com/outpostchess/outpost/bots/sfbuild"
)

// How often a long step (a download, a native build) reports itself: in a
// log, a line every ProgressEvery — often enough that a CI log shows the
// step alive, rare enough that a three-minute build writes a dozen lines;
// on a terminal the bar is redrawn every BarEvery.
const (
	ProgressEvery = 15 * time.Second
	BarEvery      = time.Second
)

// meters starts the progress reports of long steps. The zero value reports
// nothing.
type meters struct {
	w        io.Writer
	terminal bool
	now      func() time.Time
	// tick returns the channel of report times and its stop function.
	tick func(time.Duration) (<-chan time.Time, func())
}

func newMeters(w io.Writer, terminal bool, now func() time.Time, tick func(time.Duration) (<-chan time.Time, func())) meters {
	if now == nil {
		now = time.Now
	}
	if tick == nil {
		tick = func(d time.Duration) (<-chan time.Time, func()) {
			t := time.NewTicker(d)
			return t.C, t.Stop
		}
	}
	return meters{w: w, terminal: terminal, now: now, tick: tick}
}

// progress is one long step being reported, until finish.
type progress struct {
	w     io.Writer
	label string
	// total is the file's size in bytes (downloads) or the expected seconds
	// (builds); 0 when unknown. basis says where a build's expectation
	// comes from.
	total int64
	bytes bool
	basis string
	start time.Time

	mu   sync.Mutex
	done int64 // bytes so far (downloads)
	bar  *progressbar.ProgressBar

	stop chan struct{}
	wg   sync.WaitGroup
}

// download starts the report of a download of total bytes (0: unknown),
// already holding done of them (a resumed .part).
func (m meters) download(label string, total, done int64) *progress {
	p := &progress{label: label, total: total, bytes: true, done: done}
	return m.begin(p)
}

// build starts the report of a native build expected to take expected
// (0: unknown), basis saying where that figure comes from.
func (m meters) build(label string, expected time.Duration, basis string) *progress {
	p := &progress{label: label, total: int64(expected.Round(time.Second) / time.Second), basis: basis}
	return m.begin(p)
}

func (m meters) begin(p *progress) *progress {
	if m.w == nil {
		return p // reports nothing; add and finish still work
	}
	p.w, p.start, p.stop = m.w, m.now(), make(chan struct{})
	every := ProgressEvery
	if m.terminal {
		every = BarEvery
		p.bar = p.newBar()
	}
	ticks, stopTicks := m.tick(every)
	p.wg.Add(1)
	go func() {
		defer p.wg.Done()
		defer stopTicks()
		for {
			select {
			case <-p.stop:
				return
			case t := <-ticks: // the tick's time, not the clock's now: a test's clock has moved on
				p.report(t)
			}
		}
	}()
	return p
}

func (p *progress) newBar() *progressbar.ProgressBar {
	opts := []progressbar.Option{
		progressbar.OptionSetWriter(p.w),
		progressbar.OptionSetDescription(p.label),
		progressbar.OptionSetPredictTime(true),
		progressbar.OptionShowElapsedTimeOnFinish(),
		progressbar.OptionThrottle(100 * time.Millisecond),
		progressbar.OptionClearOnFinish(),
	}
	if p.bytes {
		opts = append(opts, progressbar.OptionShowBytes(true))
		max := p.total
		if max <= 0 {
			max = -1 // a spinner
		}
		b := progressbar.NewOptions64(max, opts...)
		_ = b.Set64(p.done)
		return b
	}
	max := p.total
	if max <= 0 {
		max = -1
	}
	return progressbar.NewOptions64(max, append(opts, progressbar.OptionSetItsString("s"))...)
}

// add counts n more bytes downloaded.
func (p *progress) add(n int) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.done += int64(n)
}

// Write counts the bytes written through it (io.Writer, for io.Copy's
// io.MultiWriter).
func (p *progress) Write(b []byte) (int, error) {
	p.add(len(b))
	return len(b), nil
}

// report writes one progress line (log) or redraws the bar (terminal).
func (p *progress) report(now time.Time) {
	p.mu.Lock()
	defer p.mu.Unlock()
	elapsed := now.Sub(p.start)
	if p.bar != nil {
		switch {
		case p.bytes:
			_ = p.bar.Set64(p.done)
		case p.total > 0 && int64(elapsed/time.Second) >= p.total:
			_ = p.bar.Set64(p.total - 1) // past the expectation: the bar waits at its end
		default:
			_ = p.bar.Set64(int64(elapsed / time.Second))
		}
		return
	}
	fmt.Fprintf(p.w, "setup: %s\n", p.line(elapsed, p.done))
}

// finish ends the report (the bar is cleared; the step's own line says
// how it ended).
func (p *progress) finish() {
	if p.stop == nil {
		return
	}
	close(p.stop)
	p.wg.Wait()
	if p.bar != nil {
		_ = p.bar.Clear()
	}
}

// line is a log line of the step after elapsed with done bytes.
func (p *progress) line(elapsed time.Duration, done int64) string {
	el := elapsed.Round(time.Second)
	if p.bytes {
		if p.total <= 0 {
			return fmt.Sprintf("%s: %s so far, %v elapsed", p.label, megabytes(done), el)
		}
		return fmt.Sprintf("%s: %s of %s (%d %%), %v elapsed", p.label, megabytes(done), megabytes(p.total), done*100/p.total, el)
	}
	if p.total <= 0 {
		return fmt.Sprintf("%s: %v elapsed (%s)", p.label, el, p.basis)
	}
	expected := time.Duration(p.total) * time.Second
	if elapsed >= expected {
		return fmt.Sprintf("%s: %v elapsed, past %s (%v)", p.label, el, p.basis, expected)
	}
	return fmt.Sprintf("%s: %v elapsed, about %d %% of %s (%v)", p.label, el, int64(elapsed*100/expected), p.basis, expected)
}

// megabytes formats a byte count as MB with one decimal.
func megabytes(n int64) string {
	return fmt.Sprintf("%.1f MB", float64(n)/1e6)
}

// expectedBuild is how long building engine should take on this machine:
// its own last build here (its build.json), else the latest build of
// another engine here, else unknown (0); basis names which.
func expectedBuild(l enginepath.Locator, engine string) (time.Duration, string) {
	secs := func(name string) (float64, time.Time) {
		dir, err := l.NativeDir(name)
		if err != nil {
			return 0, time.Time{}
		}
		info, err := sfbuild.ReadInfo(dir)
		if err != nil || info.BuildSeconds <= 0 {
			return 0, time.Time{}
		}
		return info.BuildSeconds, info.Built
	}
	if s, _ := secs(engine); s > 0 {
		return time.Duration(s * float64(time.Second)), "its last build here"
	}
	var best float64
	var when time.Time
	var other string
	for _, name := range enginepath.NativeNames() {
		if name == engine {
			continue
		}
		if s, t := secs(name); s > 0 && (other == "" || t.After(when)) {
			best, when, other = s, t, name
		}
	}
	if other == "" {
		return 0, "no earlier build here to go by"
	}
	return time.Duration(best * float64(time.Second)), other + "'s last build here"
}
