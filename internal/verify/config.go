package verify

import (
	"github.com/rs/zerolog"

	"github.com/outpostchess/outpost/config"
	"github.com/outpostchess/outpost/internal/daemon"
	"github.com/outpostchess/outpost/internal/store"
	"github.com/outpostchess/outpost/lichess"
)

// ConfigOptions returns the worker options of a [verify] section: the poll
// schedule, the cloud check and the period detection (API, Store and the
// rest are the caller's).
func ConfigOptions(c config.VerifyConfig) Options {
	o := Options{Backoff: Backoff{First: c.FirstDelay, Max: c.MaxDelay, Window: c.Window}, Cloud: c.Cloud}
	if c.DetectPeriod {
		o.Detect = DetectWithEngines
	}
	return o
}

// Attach adds the verification of summaries against Lichess ([verify])
// to the daemon's options: the worker as a background job, woken by each
// posted summary, and with chat_line the agreement line (ServerLine) as a
// summary line.
func Attach(o *daemon.Options, cfg *config.Config, client *lichess.Client, st *store.Store, log zerolog.Logger) error {
	if !cfg.Verify.Enabled || o.Summariser == nil {
		return nil
	}
	vo := ConfigOptions(cfg.Verify)
	vo.API, vo.Store, vo.Logger = client, st, log.With().Str("component", "verify").Logger()
	vo.Against = AgainstURL(cfg.Lichess.URL)
	w, err := New(vo)
	if err != nil {
		return err // New's errors name the package and what is missing
	}
	ChainAccountRead(&o.Hooks, w)
	inner := o.Hooks.SummaryPosted
	o.Hooks.SummaryPosted = func(id string, lines []string) {
		w.Kick()
		if inner != nil {
			inner(id, lines)
		}
	}
	if cfg.Verify.ChatLine {
		o.SummaryLines = append(o.SummaryLines, ServerLine(client, AgainstURL(cfg.Lichess.URL)))
	}
	o.Background = append(o.Background, w.Run)
	return nil
}

// ChainAccountRead makes the daemon's AccountRead hook also give w the
// bot's name (Worker.SetBot), after the hook already there.
func ChainAccountRead(h *daemon.Hooks, w *Worker) {
	prev := h.AccountRead
	h.AccountRead = func(username string) {
		if prev != nil {
			prev(username)
		}
		w.SetBot(username)
	}
}
