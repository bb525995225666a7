package sandbox

import "time"

// Game sources as lila names them (lila modules/core/src/main/game/misc.scala,
// enum Source): a game created from a challenge is "friend"; the others come
// from Lichess's own pairings, which tests create with Server.Pair.
const (
	SourceFriend = "friend" // a challenge (the sandbox's challenge endpoints)
	SourceLobby  = "lobby"  // a lobby seek
	SourceArena  = "arena"  // an arena tournament
	SourcePool   = "pool"   // quick pairing
	SourceSwiss  = "swiss"  // a Swiss tournament
)

// Expirable reports whether games of a source have a first-move deadline:
// lila's Source.expirable is {Lobby, Arena, Pool, Swiss}
// (modules/core/src/main/game/misc.scala); a challenge game ("friend") has
// none.
func Expirable(source string) bool {
	switch source {
	case SourceLobby, SourceArena, SourcePool, SourceSwiss:
		return true
	}
	return false
}

// FirstMoveDeadline is how long a player has for their first move in a
// real-time game of a Lichess speed ("ultraBullet" … "classical") outside
// arenas, standard chess: lila's non-tournament values (15, 20, 25, 30 and
// 35 s). Correspondence games have no first-move deadline (0). See
// TimeForFirstMove for arenas and Chess960.
func FirstMoveDeadline(speed string) time.Duration {
	return TimeForFirstMove(speed, false, false)
}

// TimeForFirstMove is lila's RoundGame.timeForFirstMove
// (modules/round/src/main/RoundGame.scala): per speed 15/20/25/30/35 s, in an
// arena ("isTournament": a Swiss game is not one) 11/16/21/25/30 s, and in
// Chess960 the base × 5 / 4 in whole seconds (integer division: bullet 25 s,
// blitz 31 s, an arena's ultraBullet 13 s). 0 for correspondence.
func TimeForFirstMove(speed string, arena, chess960 bool) time.Duration {
	var base int
	switch speed {
	case "ultraBullet":
		base = pick(arena, 11, 15)
	case "bullet":
		base = pick(arena, 16, 20)
	case "blitz":
		base = pick(arena, 21, 25)
	case "rapid":
		base = pick(arena, 25, 30)
	case "classical":
		base = pick(arena, 30, 35)
	default:
		return 0
	}
	if chess960 {
		base = base * 5 / 4
	}
	return time.Duration(base) * time.Second
}

// pick is a if cond, else b.
func pick(cond bool, a, b int) int {
	if cond {
		return a
	}
	return b
}

// scaled multiplies a real-time duration of a game by the server's
// TimeScale (mu not needed: the config is immutable).
func (s *Server) scaled(d time.Duration) time.Duration {
	if s.cfg.TimeScale == 1 || d == 0 {
		return d
	}
	return max(time.Duration(float64(d)*s.cfg.TimeScale), time.Millisecond)
}

// firstMoveDeadline is a new game's deadline for each first move: none (0)
// unless the game is expirable as lila's RoundGame.expirable has it (a
// real-time clock and an expirable source); then the configured
// NoStartTimeout, or lila's time for the game on the scaled clock.
func (s *Server) firstMoveDeadline(g *game) time.Duration {
	if g.clock == nil || !Expirable(g.source) {
		return 0
	}
	if s.cfg.NoStartTimeout > 0 {
		return s.cfg.NoStartTimeout
	}
	return s.scaled(TimeForFirstMove(g.speed(), g.source == SourceArena, g.variant == "chess960"))
}
