package sandbox

import (
	"strings"
	"time"

	"github.com/outpostchess/outpost/lichess"
)

// Colors index per-player arrays.
const (
	white = 0
	black = 1
)

// noWinner marks a game without a winner.
const noWinner = -1

// colorName is the Lichess name of a color index.
func colorName(c int) string {
	if c == black {
		return "black"
	}
	return "white"
}

// statusIDs are Lichess's numeric game status ids.
var statusIDs = map[string]int{
	"created": 10, "started": 20, "aborted": 25, "mate": 30, "resign": 31, "stalemate": 32,
	"timeout": 33, "draw": 34, "outoftime": 35, "cheat": 36, "noStart": 37, "unknownFinish": 38,
	"insufficientMaterialClaim": 39, "variantEnd": 60,
}

// game is the server-side state of one game. All fields are guarded by the
// server's mutex.
type game struct {
	id           string
	fullIDs      [2]string
	players      [2]*account
	variant      string // "standard", "fromPosition" or "chess960"
	initialFEN   string // "" for the standard start position
	rated        bool
	source       string        // lila's game source: "friend" (a challenge), "lobby", "arena", "pool", "swiss"
	tournamentID string        // the arena of an arena game (arena.go)
	rules        []string      // lila's GameRules (gamerules.go), from the challenge or bulk pairing
	clock        *timeControl  // nominal time control; nil for correspondence / unlimited
	initial      time.Duration // the running (possibly scaled) clock's initial time
	increment    time.Duration // the running clock's increment
	firstMove    time.Duration // deadline of each first move (0: none)
	days         int           // days per turn, 0 if not correspondence
	createdAt    time.Time
	lastMoveAt   time.Time
	pos          *position // rules state, updated move by move
	startPly     int       // ply number of the initial position (from its FEN)
	uci          []string
	movesText    []byte // uci joined by spaces, kept as moves are made
	san          []string
	clocksAfter  []time.Duration // remaining time of the mover after each ply
	remaining    [2]time.Duration
	turnStart    time.Time
	status       string
	winner       int
	drawOffer    [2]bool
	takeback     [2]bool // a takeback proposed by white / black
	subs         map[*subscriber]bool
	streams      [2]int       // open game streams per player
	leftAt       [2]time.Time // last presence of a player without a stream
	goneSent     [2]bool
	claimSent    [2]bool
	chat         []ChatLine
	timer        *time.Timer
	analysis     *Analysis
}

// timeControl is a real-time clock setting.
type timeControl struct {
	limit, increment time.Duration
}

// over reports whether the game has ended.
func (g *game) over() bool { return g.status != "started" }

// plies is the number of moves played.
func (g *game) plies() int { return len(g.uci) }

// turn is the color to move.
func (g *game) turn() int {
	return g.pos.turn()
}

// colorOf returns the color acc plays, or -1.
func (g *game) colorOf(acc *account) int {
	for c, p := range g.players {
		if p == acc {
			return c
		}
	}
	return -1
}

// abortable reports whether the game can still be aborted: fewer than two
// plies, so at least one side has not moved.
func (g *game) abortable() bool { return !g.over() && g.plies() < 2 }

// forceResignable reports whether a gone player's opponent may claim the
// win: lila's Game.forceResignable (modules/core/src/main/game/Game.scala)
// needs the game resignable (started, past the abortable first moves), no
// friend (challenge) game, a clock and no Swiss tournament; so neither a
// challenge game nor a correspondence game is ever won by a claim.
func (g *game) forceResignable() bool {
	return g.forceDrawable() && g.source != SourceFriend
}

// forceDrawable reports whether a gone player's opponent may claim a draw:
// lila's Game.forceDrawable needs the game playable, past the abortable
// first moves and no Swiss tournament (a challenge game included). The
// sandbox also wants a clock: it tells a player gone (opponentGone) only in
// real-time games, so a correspondence game is never claimed. Neither
// claim is possible under noClaimWin (both of lila's predicates say
// !hasRule(noClaimWin)), so no opponentGone is sent either.
func (g *game) forceDrawable() bool {
	return !g.over() && !g.abortable() && g.clock != nil && g.source != SourceSwiss && !g.hasRule(RuleNoClaimWin)
}

// clockRunning reports whether the side to move's clock is ticking: real-
// time games, once both sides have made their first move.
func (g *game) clockRunning() bool { return g.clock != nil && !g.over() && g.plies() >= 2 }

// timeLeft is a player's remaining time at now.
func (g *game) timeLeft(c int, now time.Time) time.Duration {
	if g.clock == nil {
		return 0
	}
	left := g.remaining[c]
	if g.clockRunning() && g.turn() == c {
		left -= now.Sub(g.turnStart)
	}
	return max(left, 0)
}

// speed is the Lichess speed of the game.
func (g *game) speed() string { return speedOf(g.clock, g.days) }

// fen is the current position's FEN.
func (g *game) fen() string { return g.pos.fen() }

// stopTimer cancels the game's deadline timer.
func (g *game) stopTimer() {
	if g.timer != nil {
		g.timer.Stop()
		g.timer = nil
	}
}

// speedOf names the speed of a time control as Lichess does, from the
// estimated duration limit + 40 × increment.
func speedOf(tc *timeControl, days int) string {
	if tc == nil {
		return "correspondence"
	}
	return lichess.SpeedOf(tc.limit, tc.increment)
}

// perfName is the display name of a speed.
func perfName(speed string) string {
	switch speed {
	case "ultraBullet":
		return "UltraBullet"
	case "correspondence":
		return "Correspondence"
	}
	return strings.ToUpper(speed[:1]) + speed[1:]
}

// lichessVariants are the variants Lichess offers, by key: name and short
// name as lila's chess.variant.Variant writes them in the API.
var lichessVariants = map[string]variantJSON{
	"standard":      {Key: "standard", Name: "Standard", Short: "Std"},
	"fromPosition":  {Key: "fromPosition", Name: "From Position", Short: "FEN"},
	"chess960":      {Key: "chess960", Name: "Chess960", Short: "960"},
	"crazyhouse":    {Key: "crazyhouse", Name: "Crazyhouse", Short: "Crazy"},
	"antichess":     {Key: "antichess", Name: "Antichess", Short: "Anti"},
	"atomic":        {Key: "atomic", Name: "Atomic", Short: "Atom"},
	"horde":         {Key: "horde", Name: "Horde", Short: "Horde"},
	"kingOfTheHill": {Key: "kingOfTheHill", Name: "King of the Hill", Short: "KotH"},
	"racingKings":   {Key: "racingKings", Name: "Racing Kings", Short: "Race"},
	"threeCheck":    {Key: "threeCheck", Name: "Three-check", Short: "3check"},
}

// playableVariant reports whether the sandbox has the rules of a variant:
// standard chess, from a position, and Chess960. Challenges in the other
// Lichess variants are created and delivered, but not played.
func playableVariant(key string) bool {
	return key == "standard" || key == "fromPosition" || key == "chess960"
}

// variantOf is the Variant object of a variant key.
func variantOf(key string) variantJSON {
	if v, ok := lichessVariants[key]; ok {
		return v
	}
	return lichessVariants["standard"]
}
