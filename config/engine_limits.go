package config

import (
	"math"
	"time"

	"github.com/outpostchess/outpost/analysis/duration"
)

// SearchCaps bound one search: each is a cap the game's time plan can still
// cut (a move never takes longer than the plan's deadline). Zero = no cap.
type SearchCaps struct {
	Nodes    int           `toml:"nodes"`    // nodes searched
	Depth    int           `toml:"depth"`    // depth in plies
	MoveTime time.Duration `toml:"movetime"` // thinking time per move
}

// IsZero reports whether no cap is set.
func (s SearchCaps) IsZero() bool { return s == SearchCaps{} }

// SpeedLimits is [engines.NAME.limits]: caps per Lichess speed.
type SpeedLimits struct {
	UltraBullet    SearchCaps `toml:"ultraBullet"`
	Bullet         SearchCaps `toml:"bullet"`
	Blitz          SearchCaps `toml:"blitz"`
	Rapid          SearchCaps `toml:"rapid"`
	Classical      SearchCaps `toml:"classical"`
	Correspondence SearchCaps `toml:"correspondence"`
}

// For returns the caps of a Lichess speed (zero for an unknown one).
func (l SpeedLimits) For(speed string) SearchCaps {
	switch speed {
	case "ultraBullet":
		return l.UltraBullet
	case "bullet":
		return l.Bullet
	case "blitz":
		return l.Blitz
	case "rapid":
		return l.Rapid
	case "classical":
		return l.Classical
	case "correspondence":
		return l.Correspondence
	}
	return SearchCaps{}
}

// ThinkTime is [engines.NAME.think_time]: a human-like delay before a move
// the engine found quickly (Maia answers at once).
type ThinkTime struct {
	// Min and Max bound the delay, drawn uniformly between them; Max 0 =
	// off. The delay never passes the time plan's target for the move.
	Min time.Duration `toml:"min"`
	Max time.Duration `toml:"max"`
	// ShortClock: with less than this on our clock no delay is added
	// (0 = 30s).
	ShortClock time.Duration `toml:"short_clock"`
}

// Enabled reports whether a delay is configured.
func (t ThinkTime) Enabled() bool { return t.Max > 0 }

// Caps returns the caps of the engine for a game of the given speed: its
// go_commands and its limits for the speed together, the tighter of the two
// where both are set.
func (e EngineConfig) Caps(speed string) SearchCaps {
	a, b := e.GoCommands, e.Limits.For(speed)
	tight := func(x, y int64) int64 {
		switch {
		case x == 0:
			return y
		case y == 0:
			return x
		}
		return min(x, y)
	}
	return SearchCaps{
		Nodes:    int(tight(int64(a.Nodes), int64(b.Nodes))),
		Depth:    int(tight(int64(a.Depth), int64(b.Depth))),
		MoveTime: time.Duration(tight(int64(a.MoveTime), int64(b.MoveTime))),
	}
}

// checkSearchCaps checks one table of caps.
func checkSearchCaps(ch *checker, key string, s SearchCaps) {
	ch.intRange(key+".nodes", s.Nodes, 0, math.MaxInt32, "nodes (0 = no cap)")
	ch.intRange(key+".depth", s.Depth, 0, 200, "plies (0 = no cap)")
	ch.durRange(key+".movetime", s.MoveTime, 0, 24*time.Hour)
}

// checkEngineLimits checks limits, go_commands and think_time.
func checkEngineLimits(ch *checker, key string, e EngineConfig) {
	for _, sp := range []struct {
		name string
		caps SearchCaps
	}{
		{"ultraBullet", e.Limits.UltraBullet}, {"bullet", e.Limits.Bullet}, {"blitz", e.Limits.Blitz},
		{"rapid", e.Limits.Rapid}, {"classical", e.Limits.Classical}, {"correspondence", e.Limits.Correspondence},
	} {
		checkSearchCaps(ch, key+".limits."+sp.name, sp.caps)
	}
	checkSearchCaps(ch, key+".go_commands", e.GoCommands)
	t, tkey := e.ThinkTime, key+".think_time"
	ch.durRange(tkey+".max", t.Max, 0, time.Minute)
	ch.durRange(tkey+".min", t.Min, 0, time.Minute)
	ch.durRange(tkey+".short_clock", t.ShortClock, 0, time.Hour)
	if t.Min > t.Max {
		ch.fail(tkey+".min", rawValue(`"`+duration.Format(t.Min)+`"`), "above think_time.max ("+duration.Format(t.Max)+")",
			"a delay between 0s and think_time.max")
	}
}
