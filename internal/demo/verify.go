package demo

import (
	"context"
	"fmt"
	"sync"
	"time"

	"github.com/outpostchess/outpost/internal/daemon"
	"github.com/outpostchess/outpost/internal/postgame"
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
// waiting for the sandbox's analysis, with the agreement line as a summary
// line when [verify] chat_line is set. hooks is updated in place.
func (f *verifyFlow) wire(opt Options, client *lichess.Client, st *store.Store, hooks *daemon.Hooks,
	report func(string, []string)) (daemon.Summariser, []daemon.SummaryLine, []func(context.Context), error) {
	if !f.on {
		return opt.Summariser, nil, nil, nil
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
		return nil, nil, nil, fmt.Errorf("demo: %w", err)
	}
	verify.ChainAccountRead(hooks, w)
	inner := hooks.SummaryPosted
	hooks.SummaryPosted = func(id string, lines []string) {
		w.Kick()
		if inner != nil {
			inner(id, lines)
		}
	}
	var lines []daemon.SummaryLine
	if cfg.ChatLine {
		lines = append(lines, verify.ServerLine(client, verify.StandIn))
	}
	return afterAnalysis{inner: opt.Summariser, flow: f}, lines, []func(context.Context){w.Run}, nil
}

// afterAnalysis summarises a game once the sandbox has analysed it (at most
// serverAnalysisWait later).
type afterAnalysis struct {
	inner daemon.Summariser
	flow  *verifyFlow
}

// Summarise implements daemon.Summariser.
func (s afterAnalysis) Summarise(ctx context.Context, r postgame.Request) (postgame.Summary, error) {
	g := r.Game
	if g.Status == "aborted" || g.Status == "noStart" || g.Moves == "" {
		return s.inner.Summarise(ctx, r) // the sandbox analyses no such game
	}
	t := time.NewTimer(serverAnalysisWait)
	defer t.Stop()
	select {
	case <-s.flow.gate(g.ID):
	case <-t.C:
	case <-ctx.Done():
		return postgame.Summary{}, fmt.Errorf("demo: summary of %s: %w", g.ID, ctx.Err())
	}
	return s.inner.Summarise(ctx, r)
}
