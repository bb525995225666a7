package daemon

import (
	"context"
	"math/rand/v2"
	"strings"
	"time"

	"github.com/outpostchess/outpost/config"
	"github.com/outpostchess/outpost/lichess"
)

// matchmaker challenges an online bot whenever the daemon has been idle for
// the configured interval, skipping bots that declined recently and staying
// within the daily bot-game budget.
func (d *Daemon) matchmaker(ctx context.Context) {
	mm := d.cfg.Matchmaking
	tick := time.NewTicker(max(mm.Interval/4, time.Second))
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
		idle := len(d.games) == 0 && len(d.accepted) == 0 && time.Since(d.lastBusy) >= mm.Interval && !d.stopping
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

func (d *Daemon) challengeSomeone(ctx context.Context) {
	mm := d.cfg.Matchmaking
	if n, err := d.store.CountGamesSince(ctx, time.Now().Add(-24*time.Hour), true, ""); err == nil &&
		d.cfg.Challenge.BotDailyBudget > 0 && n >= d.cfg.Challenge.BotDailyBudget {
		d.log.Info().Msg("matchmaking: daily bot-game budget used up")
		return
	}
	bots, err := d.api.OnlineBots(ctx, 100)
	if err != nil {
		d.log.Warn().Err(err).Msg("matchmaking: list online bots")
		return
	}
	tcs := mm.TimeControls
	if len(tcs) == 0 {
		return
	}
	tc := tcs[rand.IntN(len(tcs))]
	parsed, err := config.ParseTimeControl(tc)
	if err != nil {
		d.log.Warn().Err(err).Msg("matchmaking: time control")
		return
	}
	base, inc := int(parsed.Base/time.Second), int(parsed.Increment/time.Second)
	speed := speedOf(base, inc)
	var candidates []lichess.User
	for _, b := range bots {
		if strings.EqualFold(b.ID, d.me) {
			continue
		}
		r := b.Perfs[speed].Rating
		if (mm.MinRating > 0 && r < mm.MinRating) || (mm.MaxRating > 0 && r > mm.MaxRating) {
			continue
		}
		if declined, err := d.store.DeclinedSince(ctx, b.ID, time.Now().Add(-mm.DeclineMemory)); err == nil && declined {
			continue
		}
		candidates = append(candidates, b)
	}
	if len(candidates) == 0 {
		d.log.Info().Msg("matchmaking: no suitable bot online")
		return
	}
	target := candidates[rand.IntN(len(candidates))]
	p := lichess.ChallengeParams{Clock: &lichess.ChallengeClock{Limit: base, Increment: inc}, Rated: mm.Rated,
		Variant: mm.Variant}
	if _, err := d.api.CreateChallenge(ctx, target.ID, p); err != nil {
		d.log.Warn().Err(err).Str("bot", target.Username).Msg("matchmaking: challenge")
		return
	}
	d.log.Info().Str("bot", target.Username).Str("tc", tc).Msg("matchmaking: challenged")
}

// speedOf is Lichess's speed for a clock: estimated duration = base + 40 × inc.
func speedOf(base, inc int) string {
	est := base + 40*inc
	switch {
	case est < 30:
		return "ultraBullet"
	case est < 180:
		return "bullet"
	case est < 480:
		return "blitz"
	case est < 1500:
		return "rapid"
	}
	return "classical"
}
