package sandbox

import "time"

// FirstMoveDeadline is how long a player has for their first move in a
// real-time game of a Lichess speed ("ultraBullet" … "classical") before the
// game is cut off as noStart: Lichess's non-tournament values (15, 20, 25,
// 30 and 35 s; arena games have less, 11/16/21/25/30 s, which the sandbox,
// having no tournaments, does not use). Correspondence games have no
// first-move deadline (0).
func FirstMoveDeadline(speed string) time.Duration {
	switch speed {
	case "ultraBullet":
		return 15 * time.Second
	case "bullet":
		return 20 * time.Second
	case "blitz":
		return 25 * time.Second
	case "rapid":
		return 30 * time.Second
	case "classical":
		return 35 * time.Second
	}
	return 0
}

// scaled multiplies a real-time duration of a game by the server's
// TimeScale (mu not needed: the config is immutable).
func (s *Server) scaled(d time.Duration) time.Duration {
	if s.cfg.TimeScale == 1 || d == 0 {
		return d
	}
	return max(time.Duration(float64(d)*s.cfg.TimeScale), time.Millisecond)
}

// firstMoveDeadline is a new game's deadline for each first move: the
// configured NoStartTimeout, or the speed's Lichess deadline on the scaled
// clock; 0 for games without a real-time clock.
func (s *Server) firstMoveDeadline(g *game) time.Duration {
	if g.clock == nil {
		return 0
	}
	if s.cfg.NoStartTimeout > 0 {
		return s.cfg.NoStartTimeout
	}
	return s.scaled(FirstMoveDeadline(g.speed()))
}
