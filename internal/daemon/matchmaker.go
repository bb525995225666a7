package daemon

import (
	"context"
	"math/rand/v2"
	"net/http"
	"strings"
	"time"

	"github.com/outpostchess/outpost/config"
	"github.com/outpostchess/outpost/lichess"
)

// outgoingTTL is how long a challenge the matchmaker sent holds a slot
// while unanswered (Lichess cancels an unanswered real-time challenge after
// 20 s; this only covers a lost event).
const outgoingTTL = 30 * time.Second

// botGamesWindow is the window of Lichess's daily bot-game cap and of the
// budget (lila BotLimit: a day).
const botGamesWindow = 24 * time.Hour

// onlineBotsFetched is how many online bots the matchmaker asks for: the
// API's most (GET /api/bot/online nb, 1..512), so that at Lichess's scale
// (hundreds of bots online) the pick is not limited to the first 100.
const onlineBotsFetched = 512

// minMatchTick is the matchmaker's shortest polling period.
const minMatchTick = 50 * time.Millisecond

// outgoing is a challenge the matchmaker sent whose game has not started:
// the offer as the policy and the engine rules see it (the challenged bot
// in the Challenger fields) and when it was sent.
type outgoing struct {
	offer Offer
	id    string // the challenge id, once the server answered
	at    time.Time
}

// matchmaker challenges an online bot whenever the daemon has been idle for
// the configured interval: no game running, none accepted or queued, no
// challenge of ours pending. It skips bots that declined recently, stays
// within the rating bounds and the daily bot-game budget, and stops at
// shutdown.
func (d *Daemon) matchmaker(ctx context.Context) {
	mm := d.cfg.Matchmaking
	tick := time.NewTicker(max(mm.Interval/4, minMatchTick))
	defer tick.Stop()
	d.mu.Lock()
	d.lastBusy = time.Now()
	d.mu.Unlock()
	for {
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
		}
		d.mu.Lock()
		idle := d.idleLocked() && time.Since(d.lastBusy) >= mm.Interval
		d.mu.Unlock()
		if !idle {
			continue
		}
		d.challengeSomeone(ctx)
		d.mu.Lock()
		d.lastBusy = time.Now() // wait another interval whatever happened
		d.mu.Unlock()
	}
}

// idleLocked reports whether no real-time game is running, accepted or
// challenged for and nothing is queued (mu held): correspondence games
// leave the real-time slots free, so they do not keep the matchmaker away.
func (d *Daemon) idleLocked() bool {
	realTime, _ := d.slotsLocked()
	return !d.stopping && realTime == 0 && len(d.queue) == 0
}

// challengeSomeone sends one challenge to a suitable online bot, if any,
// unless a daily bot-game limit or the budget pauses the matchmaker.
func (d *Daemon) challengeSomeone(ctx context.Context) {
	mm := d.cfg.Matchmaking
	log := d.log.With().Str("component", "matchmaking").Logger()
	if d.paused(ctx) {
		return
	}
	if len(mm.TimeControls) == 0 {
		return
	}
	tcText := mm.TimeControls[rand.IntN(len(mm.TimeControls))]
	tc, err := config.ParseTimeControl(tcText)
	if err != nil {
		log.Warn().Err(err).Msg("time control")
		return
	}
	base, inc := int(tc.Base/time.Second), int(tc.Increment/time.Second)
	speed := speedOf(base, inc)
	bots, err := d.api.OnlineBots(ctx, onlineBotsFetched)
	if err != nil {
		log.Warn().Err(err).Msg("list online bots")
		return
	}
	target, ok := d.pickBot(ctx, bots, speed)
	if !ok {
		log.Info().Str("speed", speed).Msg("no suitable bot online")
		return
	}
	variant := mm.Variant
	if variant == "" {
		variant = "standard"
	}
	key := strings.ToLower(target.ID)
	offer := Offer{Challenger: target.Username, Rating: target.Perfs[speed].Rating, Title: target.Title, Bot: true,
		Variant: variant, Speed: speed, Rated: mm.Rated, Base: base, Increment: inc}
	// The slot is held before the request goes out: the bot may accept,
	// and its gameStart arrive, before the answer to our request does.
	d.mu.Lock()
	if d.stopping {
		d.mu.Unlock()
		return
	}
	d.outgoing[key] = outgoing{offer: offer, at: time.Now()}
	d.mu.Unlock()
	c, err := d.api.CreateChallenge(ctx, target.ID, lichess.ChallengeParams{
		Clock: &lichess.ChallengeClock{Limit: base, Increment: inc}, Rated: mm.Rated, Variant: variant})
	if err != nil {
		d.mu.Lock()
		delete(d.outgoing, key)
		d.mu.Unlock()
		switch e, ok := lichess.BotGamesLimit(err); {
		case ok && e.Status == http.StatusTooManyRequests:
			d.notePaused(e.LimitEnd, "Lichess's daily bot-game limit")
		case ok:
			d.noteOpponentLimit(ctx, target.Username, e.LimitEnd)
		default:
			log.Warn().Err(err).Str("bot", target.Username).Msg("challenge")
		}
		return
	}
	d.mu.Lock()
	if o, ok := d.outgoing[key]; ok {
		o.id = c.ID
		o.offer.Rules = c.Rules // none: Lichess refuses rules in a challenge to a bot
		d.outgoing[key] = o
	}
	d.mu.Unlock()
	log.Info().Str("bot", target.Username).Int("rating", offer.Rating).Str("tc", tcText).Str("challenge", c.ID).
		Msg("challenged")
}

// paused reports whether the matchmaker waits for our daily bot-game limit
// (met in a 429) or the [challenge] bot_daily_budget to end, saying until
// when once, and that it resumed once it has.
func (d *Daemon) paused(ctx context.Context) bool {
	if until, ok := d.botGamesLimited(); ok {
		d.notePaused(until, "Lichess's daily bot-game limit")
		return true
	}
	if budget := d.cfg.Challenge.BotDailyBudget; budget > 0 {
		since := d.now().Add(-botGamesWindow)
		n, err := d.store.CountGamesSince(ctx, since, true, "")
		if err != nil {
			d.log.Warn().Err(err).Str("component", "matchmaking").Msg("count today's bot games")
			return true
		}
		if n >= budget {
			first, err := d.store.FirstGameSince(ctx, since, true)
			if err != nil {
				d.log.Warn().Err(err).Str("component", "matchmaking").Msg("find today's first bot game")
				return true
			}
			d.notePaused(first.Add(botGamesWindow), "daily bot-game budget used up")
			return true
		}
	}
	d.mu.Lock()
	was := d.pausedUntil
	d.pausedUntil = time.Time{}
	d.mu.Unlock()
	if !was.IsZero() {
		d.log.Info().Str("component", "matchmaking").Msg("matchmaking resumed")
	}
	return false
}

// pickBot chooses whom to challenge among the online bots: not us, within
// the rating bounds for the speed, no decline within decline_memory; of
// those, one of the bots we played least recently (never is least), so that
// the games spread over the bots that are online.
func (d *Daemon) pickBot(ctx context.Context, bots []lichess.User, speed string) (lichess.User, bool) {
	mm := d.cfg.Matchmaking
	var best []lichess.User
	var bestLast time.Time
	for _, b := range bots {
		if strings.EqualFold(b.ID, d.me) || !b.IsBot() || !d.mayChallenge(b) {
			continue
		}
		r := b.Perfs[speed].Rating
		if (mm.MinRating > 0 && r < mm.MinRating) || (mm.MaxRating > 0 && r > mm.MaxRating) {
			continue
		}
		declined, err := d.store.DeclinedSince(ctx, b.ID, time.Now().Add(-mm.DeclineMemory))
		if err != nil || declined || d.opponentLimited(ctx, b.ID) {
			continue
		}
		last, err := d.store.LastGameWith(ctx, b.Username)
		if err != nil {
			continue
		}
		switch {
		case len(best) == 0 || last.Before(bestLast):
			best, bestLast = []lichess.User{b}, last
		case last.Equal(bestLast):
			best = append(best, b)
		}
	}
	if len(best) == 0 {
		return lichess.User{}, false
	}
	return best[rand.IntN(len(best))], true
}

// mayChallenge applies the matchmaker's allow and block lists (and the
// challenge block list when include_challenge_block_list is set) to a bot,
// by id or by name, case-insensitively.
func (d *Daemon) mayChallenge(b lichess.User) bool {
	mm := d.cfg.Matchmaking
	listed := func(list []string) bool { return containsFold(list, b.ID) || containsFold(list, b.Username) }
	switch {
	case listed(mm.BlockList), d.blockLists.blocked(b.ID), d.blockLists.blocked(b.Username):
		return false
	case mm.IncludeChallengeBlockList && listed(d.cfg.Challenge.BlockList):
		return false
	case len(mm.AllowList) > 0 && !listed(mm.AllowList):
		return false
	}
	return true
}

// takeOutgoing removes and returns the pending challenge of ours to user.
func (d *Daemon) takeOutgoing(user string) (outgoing, bool) {
	d.mu.Lock()
	defer d.mu.Unlock()
	key := strings.ToLower(user)
	o, ok := d.outgoing[key]
	delete(d.outgoing, key)
	return o, ok
}

// speedOf is Lichess's speed of a clock of base seconds plus inc seconds.
func speedOf(base, inc int) string {
	return lichess.SpeedOf(time.Duration(base)*time.Second, time.Duration(inc)*time.Second)
}
