package daemon

import (
	"context"
	"strings"
	"time"

	"github.com/outpostchess/outpost/lichess"
)

// Lichess's daily cap on a BOT account's games against other bots (lila
// modules/bot/src/main/BotLimit.scala): a 429 with ratelimit key
// bot.vsBot.day when we are at our cap, a 400 with that key when the other
// bot is at its own. The daemon scopes both to what they cover: at our cap
// the matchmaker pauses and bots' challenges are declined "later" until it
// ends, while games, moves, chat and humans' challenges go on; a capped
// opponent is not challenged until its cap ends. Each end is kept in the
// store under its own key (see botGamesKey, opponentLimitKey), next to the
// global 429 lockout's (the server's URL).

// botGamesKey is the store key of our own cap's end on server.
func botGamesKey(server string) string { return server + " " + lichess.BotGamesLimitKey }

// opponentLimitKey is the store key of a capped opponent's end on server.
func opponentLimitKey(server, opponent string) string {
	return botGamesKey(server) + " " + strings.ToLower(opponent)
}

// now is the daemon's clock for the daily limits (Hooks.Now or the wall
// clock).
func (d *Daemon) now() time.Time {
	if d.hooks.Now != nil {
		return d.hooks.Now()
	}
	return time.Now()
}

// botGamesLimited returns the end of our own daily bot-game cap when it is
// in force.
func (d *Daemon) botGamesLimited() (time.Time, bool) {
	until := d.api.BotGamesLimitedUntil()
	return until, until.After(d.now())
}

// notePaused logs (once per end) that the matchmaker waits until until,
// and why, and tells Hooks.MatchmakingPaused.
func (d *Daemon) notePaused(until time.Time, why string) {
	d.mu.Lock()
	same := d.pausedUntil.Equal(until)
	d.pausedUntil = until
	d.mu.Unlock()
	if same {
		return
	}
	d.log.Info().Str("component", "matchmaking").Time("resumes", until).Str("why", why).
		Msg("matchmaking paused: no challenge to a bot before it resumes")
	if d.hooks.MatchmakingPaused != nil {
		d.hooks.MatchmakingPaused(until)
	}
}

// noteOpponentLimit records that opponent is at its daily cap until until
// (a 400 of BotLimit) so that the matchmaker skips it, across restarts.
func (d *Daemon) noteOpponentLimit(ctx context.Context, opponent string, until time.Time) {
	d.log.Info().Str("component", "matchmaking").Str("opponent", opponent).Time("until", until).
		Msg("opponent at its daily bot-game limit: not challenged before it ends")
	if err := d.store.SetRateLimitedUntil(ctx, opponentLimitKey(d.server(), opponent), until); err != nil {
		d.log.Warn().Err(err).Str("opponent", opponent).Msg("persisting the opponent's daily limit")
	}
}

// opponentLimited reports whether opponent's daily cap, as last heard, is
// still in force.
func (d *Daemon) opponentLimited(ctx context.Context, opponent string) bool {
	until, err := d.store.RateLimitedUntil(ctx, opponentLimitKey(d.server(), opponent))
	return err == nil && until.After(d.now())
}

// server is the store key of the server the client talks to (as
// PersistLockouts names it), set by New.
func (d *Daemon) server() string { return d.srvKey }

// serverKey is a base URL without its trailing slashes (Lichess's when
// empty).
func serverKey(baseURL string) string {
	server := strings.TrimRight(baseURL, "/")
	if server == "" {
		server = lichess.DefaultBaseURL
	}
	return server
}
