package sandbox

import (
	"fmt"
	"strings"
)

// Arena scoring as lila's arena.Sheet.addResult has it
// (modules/tournament/src/main/arena/ArenaSheet.scala): a win is 2 points, a
// draw 1, a loss 0; after two wins in a row the player is "on fire" and
// every win is 4 and every draw 2 until a game is not won; a draw within
// the first 20 plies ("quickDraw", Pairing.quickDraw) is 0; a draw that
// follows another draw with only losses between them (isDrawStreak) is 0
// unless the game was long (Pairing.longGame: 60 plies in standard chess
// and Chess960). A tournament created without streaks (noStreak) scores
// every win 2. Bots cannot berserk (TournamentApi.berserk), so the berserk
// point never applies here.

// ArenaOutcome is one player's result in one arena game.
type ArenaOutcome int

// The results of an arena game for one player.
const (
	ArenaWin ArenaOutcome = iota
	ArenaDraw
	ArenaLoss
)

// ArenaGame is one finished arena game from one player's side, for the
// score: its result and its length in plies.
type ArenaGame struct {
	Outcome ArenaOutcome
	Plies   int
}

// Sheet flags as lila numbers them (Sheet.Flag).
const (
	flagNull   = 0 // a drawn game in a draw streak: 0 points
	flagNormal = 1
	flagStreak = 2 // a win that may start a streak
	flagDouble = 3 // on fire: points doubled
)

// arenaResult is lila's Sheet.Result, with a quick draw as its own result.
type arenaResult int

const (
	resWin arenaResult = iota
	resDraw
	resLoss
	resDQ // a quick draw: 0 points
)

// sheetScore is one entry of a sheet.
type sheetScore struct {
	res  arenaResult
	flag int
}

// value is the points of a score (Sheet.Score.value without berserk).
func (sc sheetScore) value() int {
	switch {
	case sc.res == resWin && sc.flag == flagDouble:
		return 4
	case sc.res == resWin:
		return 2
	case sc.res == resDraw && sc.flag == flagDouble:
		return 2
	case sc.res == resDraw && sc.flag == flagNull:
		return 0
	case sc.res == resDraw:
		return 1
	}
	return 0
}

// arenaSheet is a player's scores, most recent first, and their total.
type arenaSheet struct {
	scores []sheetScore
	total  int
}

// Plies thresholds of lila's Pairing: quickDraw (< 20 turns) and longGame
// (>= 60 turns in standard chess and Chess960, the variants the sandbox
// plays).
const (
	quickDrawPlies = 20
	longGamePlies  = 60
)

// onFire reports two wins in a row as the latest scores (Sheet.isOnFire).
func (sh *arenaSheet) onFire() bool {
	return len(sh.scores) >= 2 && sh.scores[0].res == resWin && sh.scores[1].res == resWin
}

// drawStreak is lila's isDrawStreak: walking back over losses, the first
// other result is a draw (or a quick draw).
func (sh *arenaSheet) drawStreak() bool {
	for _, sc := range sh.scores {
		switch sc.res {
		case resWin:
			return false
		case resLoss:
			continue
		default:
			return true
		}
	}
	return false
}

// add records one game (Sheet.addResult, version 2).
func (sh *arenaSheet) add(g ArenaGame, streakable bool) {
	var sc sheetScore
	switch g.Outcome {
	case ArenaDraw:
		switch {
		case g.Plies < quickDrawPlies:
			sc = sheetScore{resDQ, flagNormal}
		case streakable && sh.onFire():
			sc = sheetScore{resDraw, flagDouble}
		case g.Plies < longGamePlies && sh.drawStreak():
			sc = sheetScore{resDraw, flagNull}
		default:
			sc = sheetScore{resDraw, flagNormal}
		}
	case ArenaWin:
		switch {
		case !streakable:
			sc = sheetScore{resWin, flagNormal}
		case sh.onFire():
			sc = sheetScore{resWin, flagDouble}
		default:
			sc = sheetScore{resWin, flagStreak}
		}
	default:
		sc = sheetScore{resLoss, flagNormal}
	}
	// A streak starter not followed by a win becomes a normal score.
	if len(sh.scores) > 0 && sh.scores[0].flag == flagStreak && g.Outcome != ArenaWin {
		sh.scores[0].flag = flagNormal
	}
	sh.scores = append([]sheetScore{sc}, sh.scores...)
	sh.total += sc.value()
}

// String is lila's scoresToString: each game's points, most recent first.
func (sh *arenaSheet) String() string {
	var b strings.Builder
	for _, sc := range sh.scores {
		fmt.Fprintf(&b, "%d", sc.value())
	}
	return b.String()
}

// ArenaScore scores a player's arena games in the order played, as lila
// does: the total, the sheet as the API writes it (each game's points,
// most recent first) and whether the player ends on fire. streakable is
// false for an arena created without streaks.
func ArenaScore(games []ArenaGame, streakable bool) (total int, sheet string, fire bool) {
	var sh arenaSheet
	for _, g := range games {
		sh.add(g, streakable)
	}
	return sh.total, sh.String(), streakable && sh.onFire()
}
