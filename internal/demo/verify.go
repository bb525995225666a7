package demo

import (
	"context"
	"fmt"
	"sync"
	"time"

	"github.com/outpostchess/outpost/analysis/ewr"
	"github.com/outpostchess/outpost/internal/daemon"
	"github.com/outpostchess/outpost/internal/store"
	"github.com/outpostchess/outpost/internal/verify"
	"github.com/outpostchess/outpost/lichess"
)

// serverAnalysisWait bounds how long a summary waits for the sandbox's
// server analysis of its game.
const serverAnalysisWait = 3 * time.Minute

// verifyFlow runs the verification of summaries in the demo when [verify]
// is enabled and the sandbox analyses games (Sandbox.Analyser; without it
// there is nothing to verify against). The sandbox's analysis stands for
// one the opponent requested right after the game: each summary waits for
// it, so that the chat line and the first export poll find it, and a game
// counts as finished (Options.Games) once its summary is posted and its
// verification is over.
type verifyFlow struct {
	on bool

	mu       sync.Mutex
	analysis map[string]chan struct{} // closed once the sandbox analysed the game
	lines    map[string][]string      // posted summaries
	verified map[string]bool
}

func newVerifyFlow(opt Options) *verifyFlow {
	on := opt.Config.Verify.Enabled && opt.Summariser != nil && opt.Sandbox.Analyser != nil
	return &verifyFlow{on: on, analysis: map[string]chan struct{}{}, lines: map[string][]string{}, verified: map[string]bool{}}
}

// gate returns the channel closed once the game is analysed.
func (f *verifyFlow) gate(id string) chan struct{} {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.analysis[id] == nil {
		f.analysis[id] = make(chan struct{})
	}
	return f.analysis[id]
}

// analysed is the sandbox's OnAnalysis: a failed analysis opens the gate
// too (the summary then goes out without Lichess's analysis).
func (f *verifyFlow) analysed(id string, _ error) {
	ch := f.gate(id)
	f.mu.Lock()
	defer f.mu.Unlock()
	select {
	case <-ch:
	default:
		close(ch)
	}
}

// posted and done join a game's posted summary and the end of its
// verification, in either order, and report the game once both happened.
func (f *verifyFlow) posted(id string, lines []string, report func(string, []string)) {
	f.mu.Lock()
	f.lines[id] = lines
	both := f.verified[id]
	f.mu.Unlock()
	if both {
		report(id, lines)
	}
}

func (f *verifyFlow) done(id string, report func(string, []string)) {
	f.mu.Lock()
	f.verified[id] = true
	lines, both := f.lines[id]
	f.mu.Unlock()
	if both {
		report(id, lines)
	}
}

// wire builds the verification worker for one daemon run (a background
// job, woken by each posted summary) and the summariser: the demo's,
// waiting for the sandbox's analysis, with the chat line when [verify]
// chat_line is set. hooks is updated in place.
func (f *verifyFlow) wire(opt Options, client *lichess.Client, st *store.Store, hooks *daemon.Hooks,
	report func(string, []string)) (daemon.Summariser, []func(context.Context), error) {
	if !f.on {
		return opt.Summariser, nil, nil
	}
	cfg := opt.Config.Verify
	vo := verify.ConfigOptions(cfg)
	vo.API, vo.Store, vo.Clock, vo.Seed = client, st, opt.Verify.Clock, opt.Verify.Seed
	vo.Logger = opt.Logger.With().Str("component", "verify").Logger()
	vo.Hooks = opt.Verify.Hooks
	vo.Against = verify.StandIn
	updated := vo.Hooks.Updated
	vo.Hooks.Updated = func(v store.Verification) {
		if updated != nil {
			updated(v)
		}
		if v.State != store.VerifyWaiting {
			f.done(v.GameID, report)
		}
	}
	w, err := verify.New(vo)
	if err != nil {
		return nil, nil, fmt.Errorf("demo: %w", err)
	}
	verify.ChainAccountRead(hooks, w)
	inner := hooks.SummaryPosted
	hooks.SummaryPosted = func(id string, lines []string) {
		w.Kick()
		if inner != nil {
			inner(id, lines)
		}
	}
	var sum daemon.Summariser = afterAnalysis{inner: opt.Summariser, flow: f}
	if cfg.ChatLine {
		sum = verify.ChatLine{Inner: sum, API: client, Against: verify.StandIn}
	}
	return sum, []func(context.Context){w.Run}, nil
}

// afterAnalysis summarises a game once the sandbox has analysed it (at most
// serverAnalysisWait later).
type afterAnalysis struct {
	inner daemon.Summariser
	flow  *verifyFlow
}

// SetGate passes the daemon's gate to the inner summariser (its engines
// yield to games on the clock).
func (s afterAnalysis) SetGate(g ewr.Gate) {
	if in, ok := s.inner.(interface{ SetGate(ewr.Gate) }); ok {
		in.SetGate(g)
	}
}

// SetMe passes our account name to the inner summariser.
func (s afterAnalysis) SetMe(username string) {
	if in, ok := s.inner.(interface{ SetMe(string) }); ok {
		in.SetMe(username)
	}
}

// Summarise implements daemon.Summariser.
func (s afterAnalysis) Summarise(ctx context.Context, g store.Game) (string, []string, error) {
	if g.Status == "aborted" || g.Status == "noStart" || g.Moves == "" {
		return s.inner.Summarise(ctx, g) // the sandbox analyses no such game
	}
	t := time.NewTimer(serverAnalysisWait)
	defer t.Stop()
	select {
	case <-s.flow.gate(g.ID):
	case <-t.C:
	case <-ctx.Done():
		return "", nil, fmt.Errorf("demo: summary of %s: %w", g.ID, ctx.Err())
	}
	return s.inner.Summarise(ctx, g)
}
