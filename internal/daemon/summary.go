package daemon

import (
	"context"
	"errors"
	"strings"
	"time"

	"github.com/outpostchess/outpost/internal/store"
	"github.com/outpostchess/outpost/lichess"
)

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
	for {
		select {
		case <-ctx.Done():
			return
		case <-d.analyseReq:
		case <-time.After(time.Minute):
		}
		d.workAnalyses(ctx)
	}
}

func (d *Daemon) workAnalyses(ctx context.Context) {
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
		if a.State == store.AnalysisDone {
			d.post(ctx, a)
		}
	}
}

// analyse runs the summariser on one game and stores its result.
func (d *Daemon) analyse(ctx context.Context, id string) store.Analysis {
	log := d.log.With().Str("game", id).Logger()
	g, err := d.store.Game(ctx, id)
	if err != nil {
		log.Warn().Err(err).Msg("analysis: game not in the store")
		_ = d.store.FailAnalysis(ctx, id, err.Error())
		return store.Analysis{GameID: id, State: store.AnalysisFailed}
	}
	start := time.Now()
	result, lines, err := d.sum.Summarise(ctx, g)
	if err != nil {
		if ctx.Err() == nil {
			log.Warn().Err(err).Msg("post-game analysis failed")
			_ = d.store.FailAnalysis(ctx, id, err.Error())
		}
		return store.Analysis{GameID: id, State: store.AnalysisFailed}
	}
	summary := strings.Join(lines, "\n")
	if err := d.store.SaveAnalysis(ctx, id, result, summary); err != nil {
		log.Error().Err(err).Msg("save analysis")
		return store.Analysis{GameID: id, State: store.AnalysisPending}
	}
	log.Info().Dur("took", time.Since(start)).Msg("post-game analysis done")
	return store.Analysis{GameID: id, State: store.AnalysisDone, Summary: summary}
}

// post puts a summary in the configured rooms, exactly once per game.
func (d *Daemon) post(ctx context.Context, a store.Analysis) {
	ok, err := d.store.BeginPost(ctx, a.GameID)
	if err != nil || !ok {
		return
	}
	lines := strings.Split(a.Summary, "\n")
	for _, room := range d.cfg.Summary.Rooms {
		for _, line := range lines {
			if strings.TrimSpace(line) == "" {
				continue
			}
			if err := d.postLine(ctx, a.GameID, lichess.ChatRoom(room), line); err != nil {
				d.log.Warn().Err(err).Str("game", a.GameID).Str("room", room).Msg("post summary line")
			}
		}
	}
	if err := d.store.FinishPost(ctx, a.GameID); err != nil {
		d.log.Error().Err(err).Str("game", a.GameID).Msg("mark summary posted")
		return
	}
	d.log.Info().Str("game", a.GameID).Msg("summary posted")
	if h := d.hooks.SummaryPosted; h != nil {
		h(a.GameID, lines)
	}
}

// settleInterruptedPosts resolves posts a crash left half done.
func (d *Daemon) settleInterruptedPosts(ctx context.Context) {
	posting, err := d.store.AnalysesIn(ctx, store.AnalysisPosting)
	if err != nil {
		d.log.Warn().Err(err).Msg("list interrupted posts")
		return
	}
	for _, a := range posting {
		first := strings.SplitN(a.Summary, "\n", 2)[0]
		history, err := d.bot.ChatHistory(ctx, a.GameID)
		if err != nil {
			d.log.Warn().Err(err).Str("game", a.GameID).Msg("read chat to settle an interrupted post")
			continue
		}
		found := false
		for _, m := range history {
			if strings.EqualFold(m.User, d.me) && m.Text == first {
				found = true
				break
			}
		}
		if found {
			_ = d.store.FinishPost(ctx, a.GameID)
			if h := d.hooks.SummaryPosted; h != nil {
				h(a.GameID, strings.Split(a.Summary, "\n"))
			}
		} else {
			_ = d.store.AbandonPost(ctx, a.GameID)
		}
	}
}

// postLine posts one chat line, retrying through rate limits and outages.
// When an earlier attempt's outcome is unknown, the chat is read first so
// that the line is never posted twice.
func (d *Daemon) postLine(ctx context.Context, gameID string, room lichess.ChatRoom, text string) error {
	var err error
	for attempt := 0; attempt < 6 && ctx.Err() == nil; attempt++ {
		if attempt > 0 && errors.Is(err, lichess.ErrUnknownOutcome) && d.chatHas(ctx, gameID, text) {
			return nil
		}
		if err = d.bot.Chat(ctx, gameID, room, text); err == nil {
			return nil
		}
		if !transient(err) && !errors.Is(err, lichess.ErrUnknownOutcome) {
			return err
		}
		select {
		case <-ctx.Done():
		case <-time.After(time.Duration(attempt+1) * 300 * time.Millisecond):
		}
	}
	return err
}

// chatHas reports whether we already said text in a game's chat.
func (d *Daemon) chatHas(ctx context.Context, gameID, text string) bool {
	history, err := persist(ctx, "read chat", d, func(ctx context.Context) ([]lichess.ChatMessage, error) {
		return d.bot.ChatHistory(ctx, gameID)
	})
	if err != nil {
		return false
	}
	for _, m := range history {
		if strings.EqualFold(m.User, d.me) && m.Text == text {
			return true
		}
	}
	return false
}
