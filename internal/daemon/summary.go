package daemon

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/outpostchess/outpost/lichess/chatonce"

	"github.com/outpostchess/outpost/internal/postgame"
	"github.com/outpostchess/outpost/internal/store"
	"github.com/outpostchess/outpost/lichess"
)

// analysisSaveTimeout bounds the store write of a finished analysis made
// after the daemon's context ended (a local SQLite write: milliseconds;
// the bound only keeps a wedged disk from holding the shutdown).
const analysisSaveTimeout = 5 * time.Second

// kickAnalysis wakes the analysis worker.
func (d *Daemon) kickAnalysis() {
	select {
	case d.analyseReq <- struct{}{}:
	default:
	}
}

// analysisWorker analyses finished games one at a time and posts their
// summaries. It first settles posts interrupted by a crash: a summary whose
// first line is already in the chat is marked posted, otherwise it is
// posted again.
func (d *Daemon) analysisWorker(ctx context.Context) {
	if d.sum == nil {
		return
	}
	d.settleInterruptedPosts(ctx)
	retry := false // a summary went back to the queue
	for {
		if h := d.hooks.PostRetryWait; retry && h != nil {
			if err := h(ctx); err != nil {
				return
			}
		} else {
			select {
			case <-ctx.Done():
				return
			case <-d.analyseReq:
			case <-time.After(time.Minute):
			}
		}
		retry = d.workAnalyses(ctx)
	}
}

// workAnalyses analyses and posts what is due; it reports whether a
// summary post failed for now and went back to the queue.
func (d *Daemon) workAnalyses(ctx context.Context) (requeued bool) {
	todo, err := d.store.AnalysesIn(ctx, store.AnalysisPending, store.AnalysisDone)
	if err != nil {
		if ctx.Err() == nil {
			d.log.Warn().Err(err).Msg("list analyses")
		}
		return
	}
	for _, a := range todo {
		if ctx.Err() != nil {
			return
		}
		if a.State == store.AnalysisPending {
			a = d.analyse(ctx, a.GameID)
		}
		if a.State == store.AnalysisDone && d.post(ctx, a) {
			requeued = true
		}
	}
	return requeued
}

// analyse runs the summariser on one game and stores its result.
func (d *Daemon) analyse(ctx context.Context, id string) store.Analysis {
	log := d.log.With().Str("game", id).Logger()
	g, err := d.store.Game(ctx, id)
	if err != nil {
		log.Warn().Err(err).Msg("analysis: game not in the store")
		d.failAnalysis(ctx, id, err)
		return store.Analysis{GameID: id, State: store.AnalysisFailed}
	}
	start := time.Now()
	s, err := d.sum.Summarise(ctx, postgame.Request{Game: g, Me: d.username, Phases: d.gate})
	if err != nil {
		if ctx.Err() == nil {
			log.Warn().Err(err).Msg("post-game analysis failed")
			d.failAnalysis(ctx, id, err)
		}
		return store.Analysis{GameID: id, State: store.AnalysisFailed}
	}
	lines := s.Lines
	if s.Analysis != nil {
		for _, add := range d.lines {
			if l, ok := add(ctx, g, s.Analysis); ok {
				lines = append(lines, l)
			}
		}
	}
	lines = d.withArenaLine(ctx, id, lines)
	summary := strings.Join(lines, "\n")
	// The analysis is done: it is saved even when the daemon is stopping
	// (ctx ended while the summariser finished), or the next start would
	// analyse the game again (#31.7).
	sctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), analysisSaveTimeout)
	defer cancel()
	if err := d.store.SaveAnalysis(sctx, id, s.JSON, summary); err != nil {
		log.Error().Err(err).Msg("save analysis")
		return store.Analysis{GameID: id, State: store.AnalysisPending}
	}
	log.Info().Dur("took", time.Since(start)).Msg("post-game analysis done")
	return store.Analysis{GameID: id, State: store.AnalysisDone, Summary: summary}
}

// failAnalysis marks a game's analysis failed for good and reports that
// no summary will come (Hooks.SummaryFailed).
func (d *Daemon) failAnalysis(ctx context.Context, id string, reason error) {
	if err := d.store.FailAnalysis(ctx, id, reason.Error()); err != nil {
		d.log.Error().Err(err).Str("game", id).Msg("mark analysis failed")
		return
	}
	if h := d.hooks.SummaryFailed; h != nil {
		h(id, reason)
	}
}

// post puts a summary in the configured rooms, exactly once per game: each
// line goes through chatonce, which flags it durably and resolves unknown
// outcomes by reading the chat back. The summary is marked posted only when
// every line is in the chat; a line the server refuses for good marks it
// post-failed with the reason; anything else leaves it to be retried (lines
// already posted are not posted again).
// It reports whether the summary went back to the queue (to be retried).
func (d *Daemon) post(ctx context.Context, a store.Analysis) (requeued bool) {
	select {
	case <-d.chatSettled: // the goodbyes left unsent at start come first
	case <-ctx.Done():
		return false
	}
	ok, err := d.store.BeginPost(ctx, a.GameID)
	if err != nil {
		if ctx.Err() == nil {
			d.log.Error().Err(err).Str("game", a.GameID).Msg("begin summary post; will retry")
		}
		return false
	}
	if !ok {
		return false
	}
	log := d.log.With().Str("game", a.GameID).Logger()
	lines := summaryLines(a.Summary)
	poster := d.chatPoster()
	for _, room := range d.cfg.Summary.Rooms {
		for i, line := range lines {
			key := fmt.Sprintf("%s:summary:%s:%d", a.GameID, room, i)
			err := poster.Post(ctx, a.GameID, key, lichess.ChatRoom(room), line)
			if err == nil {
				continue
			}
			switch {
			case ctx.Err() != nil:
				// shutting down: the post stays "posting" and is resumed
				// at the next start
			case errors.Is(err, chatonce.ErrGaveUp) || !chatonce.Transient(err):
				log.Warn().Err(err).Str("room", room).Msg("summary refused by the server; not retried")
				if ferr := d.store.FailPost(ctx, a.GameID, err.Error()); ferr != nil {
					log.Error().Err(ferr).Msg("mark summary post failed")
				} else if h := d.hooks.SummaryFailed; h != nil {
					h(a.GameID, err)
				}
			default:
				log.Warn().Err(err).Str("room", room).Msg("post summary line; will retry")
				if aerr := d.store.AbandonPost(ctx, a.GameID); aerr != nil {
					log.Error().Err(aerr).Msg("return summary to the queue")
				}
				if h := d.hooks.PostRequeued; h != nil {
					h(a.GameID)
				}
				return true
			}
			return false
		}
	}
	if err := d.store.FinishPost(ctx, a.GameID); err != nil {
		log.Error().Err(err).Msg("mark summary posted")
		return false
	}
	log.Info().Msg("summary posted")
	if h := d.hooks.SummaryPosted; h != nil {
		h(a.GameID, lines)
	}
	return false
}

// summaryLines returns the non-blank lines of a summary.
func summaryLines(summary string) []string {
	var lines []string
	for _, l := range strings.Split(summary, "\n") {
		if strings.TrimSpace(l) != "" {
			lines = append(lines, l)
		}
	}
	return lines
}

// chatPoster returns the exactly-once poster of the daemon's chat lines.
func (d *Daemon) chatPoster() *chatonce.Poster {
	return &chatonce.Poster{API: d.bot, Read: d.bot, Flags: d.store, Me: d.me, Wait: d.hooks.ChatWait}
}

// resumeChat finishes, beside the daemon's start, the greetings and
// goodbyes a crash or a shutdown left "sending" (chatonce.Resume): a
// goodbye held by the server at a game's end when the daemon went down was
// otherwise never resolved, since no runner posts it again once the game is
// over. The lines of games still in progress (live) are left to their
// runners and the summaries to the summary queue, which post them again
// themselves (two posters of one line at once could both post it). It
// closes chatSettled when done, which the summary posts wait for.
func (d *Daemon) resumeChat(ctx context.Context, live map[string]bool) {
	keep := func(key string) bool {
		game, rest, ok := strings.Cut(key, ":")
		what, _, _ := strings.Cut(rest, ":")
		return ok && !live[game] && (what == "greeting" || what == "goodbye")
	}
	d.wg.Add(1)
	go func() {
		defer d.wg.Done()
		defer close(d.chatSettled)
		n, err := d.chatPoster().Resume(ctx, keep)
		if err != nil && ctx.Err() == nil {
			d.log.Warn().Err(err).Msg("resume chat lines left unsent")
		}
		if n > 0 {
			d.log.Info().Int("lines", n).Msg("resumed chat lines left unsent")
		}
	}()
}

// settleInterruptedPosts returns posts a crash left half done to the
// queue: their lines carry durable flags, so the next post skips the lines
// already in the chat and resolves the one in flight by reading the chat
// back.
func (d *Daemon) settleInterruptedPosts(ctx context.Context) {
	posting, err := d.store.AnalysesIn(ctx, store.AnalysisPosting)
	if err != nil {
		d.log.Warn().Err(err).Msg("list interrupted posts")
		return
	}
	for _, a := range posting {
		if err := d.store.AbandonPost(ctx, a.GameID); err != nil {
			d.log.Warn().Err(err).Str("game", a.GameID).Msg("resume an interrupted post")
		}
	}
}
