package daemon

import (
	"context"
	"net/http"
	"slices"
	"strings"
	"time"

	"github.com/outpostchess/outpost/lichess"
)

// offerOf turns a Lichess challenge into what the policy reads.
func offerOf(c *lichess.Challenge) Offer {
	o := Offer{
		ID:      c.ID,
		Variant: c.Variant.Key,
		Speed:   c.Speed,
		Rated:   c.Rated,
		FEN:     c.InitialFEN,
		Rules:   c.Rules,
	}
	if o.Variant == "" {
		o.Variant = "standard"
	}
	if u := c.Challenger; u != nil {
		o.Challenger, o.Rating, o.Title, o.Bot = u.Name, u.Rating, u.Title, u.IsBot()
		if o.Challenger == "" {
			o.Challenger = u.ID
		}
	}
	if u := c.DestUser; u != nil {
		o.MyRating = u.Rating // Lichess gives both ratings in the challenge's perf
	}
	switch c.TimeControl.Type {
	case "clock":
		o.Base, o.Increment = c.TimeControl.Limit, c.TimeControl.Increment
	case "correspondence":
		o.Days = c.TimeControl.DaysPerTurn
	case "unlimited":
		if o.Speed == "" {
			o.Speed = "correspondence"
		}
	}
	return o
}

// onChallenge accepts, queues or declines an incoming challenge.
func (d *Daemon) onChallenge(ctx context.Context, c *lichess.Challenge) {
	if c.Challenger != nil && strings.EqualFold(c.Challenger.ID, d.me) {
		return // one of ours, sent by the matchmaker
	}
	if c.DestUser != nil && !strings.EqualFold(c.DestUser.ID, d.me) {
		return
	}
	o := offerOf(c)
	d.mu.Lock()
	if d.stopping {
		d.mu.Unlock()
		d.decline(ctx, o, Verdict{Reason: ReasonLater, Why: "shutting down"})
		return
	}
	for _, q := range d.queue {
		if q.ID == o.ID {
			d.mu.Unlock()
			return // replayed on reconnect; already waiting
		}
	}
	d.mu.Unlock()
	d.judge(ctx, o, true)
}

// judge applies the policy to an offer; fresh says whether it may be queued
// (a queued offer being retried is not queued again).
func (d *Daemon) judge(ctx context.Context, o Offer, fresh bool) {
	load := d.load(ctx, o)
	v := refuseUnplayable(d.cfg, o, Decide(d.cfg.Challenge, o, load))
	if until, ok := d.botGamesLimited(); ok && o.Bot && (v.Accept || v.Queue) {
		v = Verdict{Reason: ReasonLater, Why: "daily bot-game limit until " + until.UTC().Format(time.RFC3339)}
	}
	log := d.log.With().Str("challenge", o.ID).Str("from", o.Challenger).Str("speed", o.Speed).Logger()
	switch {
	case v.Accept:
		name, label := selectEngine(d.cfg, o)
		d.mu.Lock()
		d.accepted[o.ID] = accepted{offer: o, engine: name, label: label, at: time.Now()}
		d.mu.Unlock()
		if err := d.api.AcceptChallenge(ctx, o.ID, ""); err != nil {
			if e, ok := lichess.BotGamesLimit(err); ok {
				d.refusedByLimit(ctx, o, e)
				return
			}
			d.mu.Lock()
			delete(d.accepted, o.ID)
			if transient(err) && ctx.Err() == nil {
				// Try again once the lockout or outage is over.
				d.queue = append([]Offer{o}, d.queue...)
			}
			d.mu.Unlock()
			log.Warn().Err(err).Msg("accept failed")
			return
		}
		log.Info().Str("engine", name).Str("rule", label).Msg("challenge accepted")
	case v.Queue && fresh:
		d.mu.Lock()
		d.queue = append(d.queue, o)
		d.mu.Unlock()
		log.Info().Msg("at capacity: challenge queued")
	case v.Queue:
		// Still no room: leave it queued.
		d.mu.Lock()
		d.queue = append([]Offer{o}, d.queue...)
		d.mu.Unlock()
	default:
		d.decline(ctx, o, v)
	}
}

// refusedByLimit handles an accept Lichess refused for a daily bot-game
// cap (lila Challenge.apiAccept, acceptLimitError): ours (429) or the
// challenger's (400). The challenge is declined "later", saying until
// when; the challenger's cap is recorded for the matchmaker.
func (d *Daemon) refusedByLimit(ctx context.Context, o Offer, e *lichess.APIError) {
	d.mu.Lock()
	delete(d.accepted, o.ID)
	d.mu.Unlock()
	why := "daily bot-game limit until " + e.LimitEnd.UTC().Format(time.RFC3339)
	if e.Status != http.StatusTooManyRequests {
		why = "the challenger's " + why
		d.noteOpponentLimit(ctx, o.Challenger, e.LimitEnd)
	}
	d.decline(ctx, o, Verdict{Reason: ReasonLater, Why: why})
}

func (d *Daemon) decline(ctx context.Context, o Offer, v Verdict) {
	if err := d.api.DeclineChallenge(ctx, o.ID, lichess.DeclineReason(v.Reason)); err != nil {
		d.log.Warn().Err(err).Str("challenge", o.ID).Msg("decline failed")
		return
	}
	d.log.Info().Str("challenge", o.ID).Str("from", o.Challenger).Str("reason", v.Reason).Str("why", v.Why).
		Msg("challenge declined")
}

// load counts what the policy needs to know about the daemon's load.
func (d *Daemon) load(ctx context.Context, o Offer) Load {
	d.mu.Lock()
	l := Load{Queued: len(d.queue)}
	l.Playing, l.Correspondence = d.slotsLocked()
	for _, g := range d.games {
		if strings.EqualFold(g.opponent, o.Challenger) {
			l.PlayingVsOpponent++
		}
	}
	for _, a := range d.accepted {
		if strings.EqualFold(a.offer.Challenger, o.Challenger) {
			l.PlayingVsOpponent++
		}
	}
	d.mu.Unlock()
	if o.Bot {
		n, err := d.store.CountGamesSince(ctx, d.now().Add(-botGamesWindow), true, "")
		if err != nil {
			d.log.Warn().Err(err).Msg("count bot games")
		}
		l.BotGamesToday = n
	}
	return l
}

// slotsLocked counts the slots in use: real-time games running, accepted
// or challenged for (the matchmaker's challenges are real-time), and
// correspondence games (mu held).
func (d *Daemon) slotsLocked() (realTime, correspondence int) {
	for _, g := range d.games {
		if g.correspondence {
			correspondence++
		} else {
			realTime++
		}
	}
	for _, a := range d.accepted {
		if a.offer.Correspondence() {
			correspondence++
		} else {
			realTime++
		}
	}
	return realTime + len(d.outgoing) + d.arenaReservedLocked(), correspondence
}

// drainQueue retries the queued challenges while there is room: humans'
// before bots' (a bot has other bots to play; a human waiting may leave),
// each in the order they came.
func (d *Daemon) drainQueue(ctx context.Context) {
	for {
		d.mu.Lock()
		realTime, _ := d.slotsLocked()
		room := d.cfg.Challenge.MaxGames <= 0 || realTime < d.cfg.Challenge.MaxGames
		if len(d.queue) == 0 || !room || d.stopping {
			d.mu.Unlock()
			return
		}
		i := slices.IndexFunc(d.queue, func(q Offer) bool { return !q.Bot })
		if i < 0 {
			i = 0
		}
		o := d.queue[i]
		d.queue = slices.Delete(d.queue, i, i+1)
		d.mu.Unlock()
		d.judge(ctx, o, false)
		d.mu.Lock()
		requeued := len(d.queue) > 0 && d.queue[0].ID == o.ID
		d.mu.Unlock()
		if requeued {
			return
		}
	}
}

// dropQueued forgets a challenge withdrawn by its sender.
func (d *Daemon) dropQueued(id string) {
	d.mu.Lock()
	defer d.mu.Unlock()
	for i, q := range d.queue {
		if q.ID == id {
			d.queue = append(d.queue[:i], d.queue[i+1:]...)
			return
		}
	}
}

// expireSlots frees the slots held by accepted challenges whose game never
// started and by challenges of ours that were never answered.
func (d *Daemon) expireSlots() {
	d.mu.Lock()
	defer d.mu.Unlock()
	for id, a := range d.accepted {
		if time.Since(a.at) > acceptedTTL {
			delete(d.accepted, id)
		}
	}
	for k, o := range d.outgoing {
		if time.Since(o.at) > outgoingTTL {
			delete(d.outgoing, k)
		}
	}
}
