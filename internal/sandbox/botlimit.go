package sandbox

import (
	"fmt"
	"net/http"
	"time"
)

// DefaultBotGamesPerDay is Lichess's cap on a BOT account's games against
// other bots in a day (lila modules/bot/src/main/BotLimit.scala, max).
const DefaultBotGamesPerDay = 100

// botGamesLimitKey is the cap's ratelimit key in lila's answers.
const botGamesLimitKey = "bot.vsBot.day"

// botGamesWindow is the length of the cap's window (BotLimit's
// RateLimit[UserId](max, 1.day, …)).
const botGamesWindow = 24 * time.Hour

// botGames is one bot's count in the cap's window, as lila's
// lila.memo.RateLimit keeps it: the window opens with the first game
// counted and clears at clearAt, a day later; a game counted after that
// opens a new window.
type botGames struct {
	n       int
	clearAt time.Time
}

// rateLimitJSON is the "ratelimit" object of lila's limited answers
// (lila.web CtrlErrors' Writes[RateLimit.Limited], BotLimit's
// Writes[OpponentLimit]).
type rateLimitJSON struct {
	Key     string `json:"key"`
	Seconds int    `json:"seconds"`
}

// limitedJSON is such an answer's body.
type limitedJSON struct {
	Error     string        `json:"error"`
	RateLimit rateLimitJSON `json:"ratelimit"`
}

// botGamesCap is the configured cap (mu not needed: the config is fixed).
func (s *Server) botGamesCap() int {
	if s.cfg.BotGamesPerDay == 0 {
		return DefaultBotGamesPerDay
	}
	return s.cfg.BotGamesPerDay
}

// countBotGame counts a starting game against both players' caps when
// both are bots (BotLimit's StartGame subscriber; mu held).
func (s *Server) countBotGame(a, b *account) {
	if !a.Bot || !b.Bot || s.botGamesCap() < 0 {
		return
	}
	now := s.now()
	for _, acc := range []*account{a, b} {
		g := s.botGames[acc.id]
		if g == nil || !now.Before(g.clearAt) {
			g = &botGames{clearAt: now.Add(botGamesWindow)}
			s.botGames[acc.id] = g
		}
		g.n++
	}
}

// botLimitedUntil returns the end of acc's window when acc is at its cap
// (mu held).
func (s *Server) botLimitedUntil(acc *account) (time.Time, bool) {
	g := s.botGames[acc.id]
	if g == nil || s.botGamesCap() < 0 || g.n < s.botGamesCap() || !s.now().Before(g.clearAt) {
		return time.Time{}, false
	}
	return g.clearAt, true
}

// botLimitError is lila's BotLimit.challengeLimitError for orig
// challenging dest (or, from acceptLimitError, dest accepting orig's
// challenge with the roles swapped): nil unless both are bots and one is at
// its cap. orig at its cap gets 429 and lila's Limited body; dest at its
// cap gets 400 and the OpponentLimit body, which names dest and the date
// (lila's isoDateTimeFormatter: ISO 8601 in UTC with milliseconds).
func (s *Server) botLimitError(orig, dest *account) *apiError {
	if !orig.Bot || !dest.Bot {
		return nil
	}
	max := s.botGamesCap()
	if until, ok := s.botLimitedUntil(orig); ok {
		return &apiError{status: http.StatusTooManyRequests, limit: s.limitOf(until),
			msg: fmt.Sprintf("You played %d games against other bots today, please wait before challenging another bot.", max)}
	}
	if until, ok := s.botLimitedUntil(dest); ok {
		return &apiError{status: http.StatusBadRequest, limit: s.limitOf(until),
			msg: fmt.Sprintf("%s played %d games against other bots today, please wait until %s to challenge them.",
				dest.Name, max, until.UTC().Format("2006-01-02T15:04:05.000Z07:00"))}
	}
	return nil
}

// limitOf is the ratelimit object of the cap ending at until: whole
// seconds from now, at least 0 (lila: (until.toSeconds -
// nowSeconds).toInt.atLeast(0)).
func (s *Server) limitOf(until time.Time) *rateLimitJSON {
	return &rateLimitJSON{Key: botGamesLimitKey, Seconds: max(int(until.Unix()-s.now().Unix()), 0)}
}
