package daemon

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/outpostchess/outpost/config"
)

func basePolicy() config.ChallengeConfig {
	return config.ChallengeConfig{
		Variants: []string{"standard", "fromPosition"}, Speeds: []string{"bullet", "blitz", "rapid", "correspondence"},
		MinBase: 60, MaxBase: 1800, MinIncrement: 0, MaxIncrement: 20, MinDays: 1, MaxDays: 7,
		Rated: true, Casual: true, AllowBots: true, AllowHumans: true, MaxGames: 2, MaxGamesPerOpponent: 1,
		BotDailyBudget: 100, Queue: true, QueueSize: 1,
	}
}

func baseOffer() Offer {
	return Offer{ID: "c1", Challenger: "Alice", Rating: 1500, Variant: "standard", Speed: "blitz", Rated: true, Base: 180, Increment: 2}
}

func TestDecide(t *testing.T) {
	tests := []struct {
		name   string
		policy func(*config.ChallengeConfig)
		offer  func(*Offer)
		load   Load
		accept bool
		queue  bool
		reason string
	}{
		{name: "plain accept", accept: true},
		{name: "blocked", policy: func(p *config.ChallengeConfig) { p.BlockList = []string{"alice"} }, reason: ReasonGeneric},
		{name: "not on allow list", policy: func(p *config.ChallengeConfig) { p.AllowList = []string{"bob"} }, reason: ReasonGeneric},
		{name: "allow list bypasses rating bounds", policy: func(p *config.ChallengeConfig) { p.AllowList = []string{"ALICE"}; p.MinRating = 2000 }, accept: true},
		{name: "no bots", policy: func(p *config.ChallengeConfig) { p.AllowBots = false }, offer: func(o *Offer) { o.Bot = true; o.Title = "BOT" }, reason: ReasonNoBot},
		{name: "only bots", policy: func(p *config.ChallengeConfig) { p.AllowHumans = false }, reason: ReasonOnlyBot},
		{name: "variant when standard accepted", offer: func(o *Offer) { o.Variant = "chess960" }, reason: ReasonStandard},
		{name: "variant when standard refused", policy: func(p *config.ChallengeConfig) { p.Variants = []string{"chess960"} }, reason: ReasonVariant},
		{name: "from position valid", offer: func(o *Offer) { o.Variant = "fromPosition"; o.FEN = "4k3/8/8/8/8/8/8/4K2R w K - 0 1" }, accept: true},
		// regression (issue 18): positions no game reaches are declined before any engine sees them
		{name: "from position castling without rook", offer: func(o *Offer) { o.Variant = "fromPosition"; o.FEN = "4k3/8/8/8/8/8/8/4K3 w KQkq - 0 1" }, reason: ReasonGeneric},
		{name: "from position kings touching", offer: func(o *Offer) { o.Variant = "fromPosition"; o.FEN = "8/8/8/8/8/8/4k3/4K2R w K - 0 1" }, reason: ReasonGeneric},
		// trial 19 (D7): Lichess makes a game of it, the bot declines it
		{name: "from position more promotions than missing pawns", offer: func(o *Offer) { o.Variant = "fromPosition"; o.FEN = "8/8/8/8/7k/4Q3/QQQQ3P/QQQQ2K1 w - - 0 1" }, reason: ReasonGeneric},
		{name: "from position invalid FEN", offer: func(o *Offer) { o.Variant = "fromPosition"; o.FEN = "not a fen" }, reason: ReasonGeneric},
		{name: "ultrabullet", offer: func(o *Offer) { o.Speed = "ultraBullet"; o.Base = 15 }, reason: ReasonTooFast},
		{name: "speed faster than accepted", policy: func(p *config.ChallengeConfig) { p.Speeds = []string{"rapid"} }, reason: ReasonTooFast},
		{name: "speed slower than accepted", policy: func(p *config.ChallengeConfig) { p.Speeds = []string{"bullet"} }, reason: ReasonTooSlow},
		{name: "speed between accepted", policy: func(p *config.ChallengeConfig) { p.Speeds = []string{"bullet", "rapid"} }, reason: ReasonTimeControl},
		{name: "base too short", offer: func(o *Offer) { o.Base = 30 }, reason: ReasonTooFast},
		{name: "base too long", offer: func(o *Offer) { o.Base = 3600 }, reason: ReasonTooSlow},
		{name: "increment too big", offer: func(o *Offer) { o.Increment = 30 }, reason: ReasonTimeControl},
		{name: "correspondence days ok", offer: func(o *Offer) { o.Speed = "correspondence"; o.Days = 3; o.Base = 0 }, accept: true},
		{name: "correspondence days too many", offer: func(o *Offer) { o.Speed = "correspondence"; o.Days = 14; o.Base = 0 }, reason: ReasonTimeControl},
		{name: "rated refused", policy: func(p *config.ChallengeConfig) { p.Rated = false }, reason: ReasonCasual},
		{name: "casual refused", policy: func(p *config.ChallengeConfig) { p.Casual = false }, offer: func(o *Offer) { o.Rated = false }, reason: ReasonRated},
		{name: "rating too low", policy: func(p *config.ChallengeConfig) { p.MinRating = 1600 }, reason: ReasonGeneric},
		{name: "rating too high", policy: func(p *config.ChallengeConfig) { p.MaxRating = 1400 }, reason: ReasonGeneric},
		{name: "bot budget used", offer: func(o *Offer) { o.Bot = true }, load: Load{BotGamesToday: 100}, reason: ReasonLater},
		{name: "bot budget does not limit humans", load: Load{BotGamesToday: 100}, accept: true},
		{name: "already playing opponent", load: Load{PlayingVsOpponent: 1}, reason: ReasonLater},
		{name: "at capacity queues", load: Load{Playing: 2}, queue: true},
		{name: "window below", policy: func(p *config.ChallengeConfig) { p.RatingWindowBelow = 100 }, offer: func(o *Offer) { o.MyRating = 1601 }, reason: ReasonGeneric},
		{name: "window below edge", policy: func(p *config.ChallengeConfig) { p.RatingWindowBelow = 100 }, offer: func(o *Offer) { o.MyRating = 1600 }, accept: true},
		{name: "window above", policy: func(p *config.ChallengeConfig) { p.RatingWindowAbove = 100 }, offer: func(o *Offer) { o.MyRating = 1399 }, reason: ReasonGeneric},
		{name: "window above edge", policy: func(p *config.ChallengeConfig) { p.RatingWindowAbove = 100 }, offer: func(o *Offer) { o.MyRating = 1400 }, accept: true},
		{name: "window with our rating unknown", policy: func(p *config.ChallengeConfig) { p.RatingWindowBelow, p.RatingWindowAbove = 1, 1 }, accept: true},
		{name: "window spares the allow list", policy: func(p *config.ChallengeConfig) { p.RatingWindowBelow = 100; p.AllowList = []string{"alice"} }, offer: func(o *Offer) { o.MyRating = 2500 }, accept: true},
		{name: "increment per speed", policy: func(p *config.ChallengeConfig) { p.MinIncrementPerSpeed = map[string]int{"blitz": 3} }, reason: ReasonTimeControl},
		{name: "increment per speed met", policy: func(p *config.ChallengeConfig) { p.MinIncrementPerSpeed = map[string]int{"blitz": 2} }, accept: true},
		{name: "increment per other speed", policy: func(p *config.ChallengeConfig) { p.MinIncrementPerSpeed = map[string]int{"bullet": 5} }, accept: true},
		{name: "increment per speed spares correspondence", policy: func(p *config.ChallengeConfig) { p.MinIncrementPerSpeed = map[string]int{"blitz": 5} },
			offer: func(o *Offer) { o.Speed = "correspondence"; o.Days = 3; o.Base, o.Increment = 0, 0 }, accept: true},
		{name: "correspondence ignores real-time slots", offer: func(o *Offer) { o.Speed = "correspondence"; o.Days = 3; o.Base = 0 },
			policy: func(p *config.ChallengeConfig) { p.MaxCorrespondenceGames = 1 }, load: Load{Playing: 2}, accept: true},
		{name: "correspondence limit", offer: func(o *Offer) { o.Speed = "correspondence"; o.Days = 3; o.Base = 0 },
			policy: func(p *config.ChallengeConfig) { p.MaxCorrespondenceGames = 1 }, load: Load{Correspondence: 1}, reason: ReasonLater},
		{name: "correspondence games leave real-time slots", policy: func(p *config.ChallengeConfig) { p.MaxCorrespondenceGames = 1 },
			load: Load{Correspondence: 1}, accept: true},
		{name: "human takes the reserved slot", policy: func(p *config.ChallengeConfig) { p.ReservedHumanSlots = 1 }, load: Load{Playing: 1}, accept: true},
		{name: "bot cannot take the reserved slot", policy: func(p *config.ChallengeConfig) { p.ReservedHumanSlots = 1 },
			offer: func(o *Offer) { o.Bot = true; o.Title = "BOT" }, load: Load{Playing: 1}, queue: true},
		{name: "bot takes an unreserved slot", policy: func(p *config.ChallengeConfig) { p.ReservedHumanSlots = 1 },
			offer: func(o *Offer) { o.Bot = true; o.Title = "BOT" }, accept: true},
		{name: "bot refused later when the queue is full", policy: func(p *config.ChallengeConfig) { p.ReservedHumanSlots = 1 },
			offer: func(o *Offer) { o.Bot = true; o.Title = "BOT" }, load: Load{Playing: 1, Queued: 1}, reason: ReasonLater},
		{name: "at capacity queue full", load: Load{Playing: 2, Queued: 1}, reason: ReasonLater},
		{name: "at capacity no queue", policy: func(p *config.ChallengeConfig) { p.Queue = false }, load: Load{Playing: 2}, reason: ReasonLater},
		{name: "permanent refusal is not queued", policy: func(p *config.ChallengeConfig) { p.Rated = false }, load: Load{Playing: 2}, reason: ReasonCasual},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p, o := basePolicy(), baseOffer()
			if tc.policy != nil {
				tc.policy(&p)
			}
			if tc.offer != nil {
				tc.offer(&o)
			}
			v := Decide(p, o, tc.load)
			assert.Equal(t, tc.accept, v.Accept, v.Why)
			assert.Equal(t, tc.queue, v.Queue, v.Why)
			assert.Equal(t, tc.reason, v.Reason, v.Why)
			assert.NotEmpty(t, v.Why)
		})
	}
}

func TestSelectEngine(t *testing.T) {
	yes, no := true, false
	cfg := config.Default()
	cfg.Engines.Default = "medium"
	cfg.Rules = []config.Rule{
		{Name: "friends", Users: []string{"bob"}, Engine: "stockfish"},
		{Speeds: []string{"bullet"}, Bot: &yes, Engine: "hard"},
		{MaxRating: 1200, Human: &yes, Engine: "easy"},
		{Titles: []string{"none"}, Rated: &no, Engine: "maia-1500"},
		{Variants: []string{"chess960"}, MinRating: 2000, Engine: "knobs"},
	}
	tests := []struct {
		name, engine, label string
		offer               func(*Offer)
	}{
		{name: "user rule first", offer: func(o *Offer) { o.Challenger = "bob"; o.Speed = "bullet"; o.Bot = true }, engine: "stockfish", label: "friends"},
		{name: "bullet bot", offer: func(o *Offer) { o.Speed = "bullet"; o.Bot = true; o.Title = "BOT" }, engine: "hard", label: "rules[1]"},
		{name: "bullet human skips bot rule", offer: func(o *Offer) { o.Speed = "bullet"; o.Rating = 1000 }, engine: "easy", label: "rules[2]"},
		{name: "casual untitled", offer: func(o *Offer) { o.Rated = false }, engine: "maia-1500", label: "rules[3]"},
		{name: "casual titled falls through", offer: func(o *Offer) { o.Rated = false; o.Title = "GM" }, engine: "medium", label: "default"},
		{name: "chess960 strong", offer: func(o *Offer) { o.Variant = "chess960"; o.Rating = 2100; o.Title = "IM" }, engine: "knobs", label: "rules[4]"},
		{name: "default", engine: "medium", label: "default"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			o := baseOffer()
			if tc.offer != nil {
				tc.offer(&o)
			}
			e, l := selectEngine(cfg, o)
			assert.Equal(t, tc.engine, e)
			assert.Equal(t, tc.label, l)
		})
	}
}
