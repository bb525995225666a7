package daemon

import (
	"slices"
	"strings"

	"github.com/outpostchess/outpost/bots/board"

	"github.com/outpostchess/outpost/config"
)

// Lichess decline reasons, as sent in the decline form (camelCase).
const (
	ReasonGeneric     = "generic"
	ReasonLater       = "later"
	ReasonTooFast     = "tooFast"
	ReasonTooSlow     = "tooSlow"
	ReasonTimeControl = "timeControl"
	ReasonRated       = "rated"
	ReasonCasual      = "casual"
	ReasonStandard    = "standard"
	ReasonVariant     = "variant"
	ReasonNoBot       = "noBot"
	ReasonOnlyBot     = "onlyBot"
)

// Offer is what the policy needs to know about an incoming challenge.
type Offer struct {
	ID         string
	Challenger string
	Rating     int
	Title      string // "BOT" for bot accounts, "GM", … or ""
	Bot        bool
	Variant    string // Lichess variant key: standard, fromPosition, chess960, …
	Speed      string // ultraBullet, bullet, blitz, rapid, classical, correspondence
	Rated      bool
	Base       int // initial clock, seconds (0 for correspondence/unlimited)
	Increment  int // seconds
	Days       int // correspondence days per move (0 for real time)
	FEN        string
	// MyRating is our own rating in the challenge's speed (0 = unknown),
	// for the rating window.
	MyRating int
	// Tournament is the arena of an arena game ("" for a challenge).
	Tournament string
	// Rules are the challenge's lila GameRules (lichess.Rule*), which the
	// game's runner obeys.
	Rules []string
}

// Correspondence reports whether the offer is for a correspondence or
// unlimited game (one without a real-time clock).
func (o Offer) Correspondence() bool {
	return o.Speed == "correspondence" || o.Days > 0
}

// Load is the daemon's current load, as the policy sees it.
type Load struct {
	Playing           int // real-time games in progress (and slots held for starting ones)
	Correspondence    int // correspondence and unlimited games in progress
	PlayingVsOpponent int // games in progress against this challenger
	BotGamesToday     int // games against bots started in the last 24 h
	Queued            int // challenges waiting for a free slot
}

// Verdict is the policy's answer to a challenge.
type Verdict struct {
	Accept bool
	Queue  bool   // hold it until a slot frees (Accept is false)
	Reason string // Lichess decline reason when refused
	Why    string // a human-readable explanation for the log
}

// speedOrder ranks Lichess speeds from fastest to slowest.
var speedOrder = []string{"ultraBullet", "bullet", "blitz", "rapid", "classical", "correspondence"}

func speedRank(s string) int { return slices.Index(speedOrder, s) }

// Decide applies the [challenge] policy to an offer. Checks run from the
// most permanent refusal (who and what) to the most transient (load), so
// that a challenge that could never be accepted is not queued.
func Decide(p config.ChallengeConfig, o Offer, l Load) Verdict {
	name := strings.ToLower(o.Challenger)
	if containsFold(p.BlockList, name) {
		return refuse(ReasonGeneric, "challenger is on the block list")
	}
	allowListed := containsFold(p.AllowList, name)
	if len(p.AllowList) > 0 && !allowListed {
		return refuse(ReasonGeneric, "challenger is not on the allow list")
	}
	if o.Bot && !p.AllowBots {
		return refuse(ReasonNoBot, "bots are not accepted")
	}
	if !o.Bot && !p.AllowHumans {
		return refuse(ReasonOnlyBot, "humans are not accepted")
	}
	if !containsFold(p.Variants, o.Variant) {
		if o.Variant != "standard" && containsFold(p.Variants, "standard") {
			return refuse(ReasonStandard, "variant "+o.Variant+" is not accepted")
		}
		return refuse(ReasonVariant, "variant "+o.Variant+" is not accepted")
	}
	if o.Variant == "fromPosition" || o.FEN != "" {
		if o.FEN == "" {
			return refuse(ReasonGeneric, "no starting position given")
		}
		if err := board.Validate(o.FEN, o.Variant == "chess960"); err != nil {
			return refuse(ReasonGeneric, "invalid starting position: "+err.Error())
		}
	}
	if v, ok := decideTime(p, o); !ok {
		return v
	}
	if o.Rated && !p.Rated {
		return refuse(ReasonCasual, "rated games are not accepted")
	}
	if !o.Rated && !p.Casual {
		return refuse(ReasonRated, "casual games are not accepted")
	}
	if !allowListed {
		if v, ok := decideRating(p, o); !ok {
			return v
		}
	}
	if o.Bot && p.BotDailyBudget > 0 && l.BotGamesToday >= p.BotDailyBudget {
		return refuse(ReasonLater, "daily bot-game budget used up")
	}
	if p.MaxGamesPerOpponent > 0 && l.PlayingVsOpponent >= p.MaxGamesPerOpponent {
		return refuse(ReasonLater, "already playing this opponent")
	}
	return decideLoad(p, o, l)
}

// decideRating checks the absolute rating bounds and the window around our
// own rating; ok is false with the refusal.
func decideRating(p config.ChallengeConfig, o Offer) (Verdict, bool) {
	switch {
	case p.MinRating > 0 && o.Rating < p.MinRating:
		return refuse(ReasonGeneric, "rating below the minimum"), false
	case p.MaxRating > 0 && o.Rating > p.MaxRating:
		return refuse(ReasonGeneric, "rating above the maximum"), false
	case o.MyRating > 0 && p.RatingWindowBelow > 0 && o.Rating < o.MyRating-p.RatingWindowBelow:
		return refuse(ReasonGeneric, "rating below the window around ours"), false
	case o.MyRating > 0 && p.RatingWindowAbove > 0 && o.Rating > o.MyRating+p.RatingWindowAbove:
		return refuse(ReasonGeneric, "rating above the window around ours"), false
	}
	return Verdict{}, true
}

// decideLoad accepts, queues or refuses by the load: correspondence games
// have their own limit; real-time games share max_games, of which a bot
// may not take the slots reserved for humans.
func decideLoad(p config.ChallengeConfig, o Offer, l Load) Verdict {
	if o.Correspondence() {
		if p.MaxCorrespondenceGames > 0 && l.Correspondence >= p.MaxCorrespondenceGames {
			return refuse(ReasonLater, "at the correspondence games limit")
		}
		return Verdict{Accept: true, Why: "accepted"}
	}
	limit, why := p.MaxGames, "at capacity"
	if o.Bot && p.ReservedHumanSlots > 0 {
		limit, why = p.MaxGames-p.ReservedHumanSlots, "the free slots are reserved for humans"
	}
	if p.MaxGames > 0 && l.Playing >= limit {
		if p.Queue && l.Queued < p.QueueSize {
			return Verdict{Queue: true, Why: why + "; queued"}
		}
		return refuse(ReasonLater, why)
	}
	return Verdict{Accept: true, Why: "accepted"}
}

// decideTime checks speed and time control; ok is false with the refusal.
func decideTime(p config.ChallengeConfig, o Offer) (Verdict, bool) {
	if o.Speed == "ultraBullet" {
		return refuse(ReasonTooFast, "bots cannot play ultraBullet"), false
	}
	if !containsFold(p.Speeds, o.Speed) {
		return refuse(speedReason(p.Speeds, o.Speed), "speed "+o.Speed+" is not accepted"), false
	}
	if o.Speed == "correspondence" || o.Days > 0 {
		if o.Days > 0 && (o.Days < p.MinDays || o.Days > p.MaxDays) {
			return refuse(ReasonTimeControl, "days per move out of range"), false
		}
		return Verdict{}, true
	}
	switch {
	case o.Base < p.MinBase:
		return refuse(ReasonTooFast, "initial time below the minimum"), false
	case o.Base > p.MaxBase:
		return refuse(ReasonTooSlow, "initial time above the maximum"), false
	case o.Increment < p.MinIncrement || o.Increment > p.MaxIncrement:
		return refuse(ReasonTimeControl, "increment out of range"), false
	case o.Increment < p.MinIncrementPerSpeed[o.Speed]:
		return refuse(ReasonTimeControl, "increment below the minimum for "+o.Speed), false
	}
	return Verdict{}, true
}

// speedReason says whether a refused speed is faster or slower than every
// accepted one.
func speedReason(accepted []string, speed string) string {
	r := speedRank(speed)
	if r < 0 {
		return ReasonTimeControl
	}
	faster, slower := true, true
	for _, a := range accepted {
		ar := speedRank(a)
		if ar < 0 {
			continue
		}
		if ar <= r {
			faster = false
		}
		if ar >= r {
			slower = false
		}
	}
	switch {
	case faster:
		return ReasonTooFast
	case slower:
		return ReasonTooSlow
	}
	return ReasonTimeControl
}

func refuse(reason, why string) Verdict { return Verdict{Reason: reason, Why: why} }

func containsFold(list []string, s string) bool {
	for _, x := range list {
		if strings.EqualFold(x, s) {
			return true
		}
	}
	return false
}
