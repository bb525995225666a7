package lichess

import "time"

// Lichess's speed categories, as its API spells them.
const (
	SpeedUltraBullet    = "ultraBullet"
	SpeedBullet         = "bullet"
	SpeedBlitz          = "blitz"
	SpeedRapid          = "rapid"
	SpeedClassical      = "classical"
	SpeedCorrespondence = "correspondence"
)

// SpeedOf is Lichess's speed category of a real-time clock of limit plus
// increment per move: the estimated game time, limit + 40 × increment, below
// 30 s is ultraBullet, below 3 min bullet, below 8 min blitz, below 25 min
// rapid, else classical. Games without a clock are SpeedCorrespondence.
func SpeedOf(limit, increment time.Duration) string {
	est := limit + 40*increment
	switch {
	case est < 30*time.Second:
		return SpeedUltraBullet
	case est < 3*time.Minute:
		return SpeedBullet
	case est < 8*time.Minute:
		return SpeedBlitz
	case est < 25*time.Minute:
		return SpeedRapid
	}
	return SpeedClassical
}
