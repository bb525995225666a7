package lichess

import (
	"testing"
	"time"
)

// TestSpeedOf checks the boundaries of Lichess's speed categories.
func TestSpeedOf(t *testing.T) {
	s := time.Second
	for _, tc := range []struct {
		limit, inc time.Duration
		want       string
	}{
		{15 * s, 0, SpeedUltraBullet},
		{0, 0, SpeedUltraBullet},
		{29 * s, 0, SpeedUltraBullet},
		{30 * s, 0, SpeedBullet},
		{0, 1 * s, SpeedBullet}, // 0+1: 40 s
		{60 * s, 1 * s, SpeedBullet},
		{179 * s, 0, SpeedBullet},
		{180 * s, 0, SpeedBlitz},
		{120 * s, 1 * s, SpeedBullet}, // 2+1: 160 s
		{3 * 60 * s, 2 * s, SpeedBlitz},
		{479 * s, 0, SpeedBlitz},
		{480 * s, 0, SpeedRapid},
		{10 * 60 * s, 0, SpeedRapid},
		{1499 * s, 0, SpeedRapid},
		{1500 * s, 0, SpeedClassical},
		{30 * 60 * s, 20 * s, SpeedClassical},
	} {
		if got := SpeedOf(tc.limit, tc.inc); got != tc.want {
			t.Errorf("SpeedOf(%v, %v) = %s, want %s", tc.limit, tc.inc, got, tc.want)
		}
	}
}
