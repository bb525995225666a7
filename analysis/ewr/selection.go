package ewr

import (
	"sort"
	"strings"

	"github.com/outpostchess/outpost/analysis"
)

// MomentPly is a ply of a game chosen for an expected-winrate moment:
// Bot is set for a move of our bot, clear for a side's critical moment.
type MomentPly struct {
	Ply int
	Bot bool
}

// MomentPlies lists the plies of a game's moments in game order: each
// side's worst judgement (CriticalPlies), then up to botMoves of the
// moves of the player named bot (case-insensitive; none when bot is ""),
// those that lost the most winning chances first.
func MomentPlies(a *analysis.Analysis, bot string, botMoves int) []MomentPly {
	var out []MomentPly
	taken := map[int]bool{}
	for _, ply := range CriticalPlies(a) {
		out = append(out, MomentPly{ply, false})
		taken[ply] = true
	}
	if bot != "" && botMoves > 0 {
		botWhite := strings.EqualFold(a.Players.White.Name, bot)
		botBlack := strings.EqualFold(a.Players.Black.Name, bot)
		var cand []*analysis.Ply
		for i := range a.Plies {
			p := &a.Plies[i]
			if taken[p.Ply] || (p.White() && !botWhite) || (!p.White() && !botBlack) {
				continue
			}
			cand = append(cand, p)
		}
		sort.SliceStable(cand, func(i, j int) bool { return deltaOf(cand[i]) > deltaOf(cand[j]) })
		for _, p := range cand[:min(botMoves, len(cand))] {
			out = append(out, MomentPly{p.Ply, true})
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Ply < out[j].Ply })
	return out
}

// deltaOf is the winning chances a ply lost (0 when unknown).
func deltaOf(p *analysis.Ply) float64 {
	if p.Delta == nil {
		return 0
	}
	return *p.Delta
}

// MaiaLevels returns the Maia levels the games' moments need, ascending:
// override's nearest level when it is not 0, else each player's rating's.
func MaiaLevels(games []*analysis.Game, override int) []int {
	seen := map[int]bool{}
	if override != 0 {
		seen[NearestMaiaRating(override)] = true
	}
	for _, g := range games {
		if override == 0 {
			seen[NearestMaiaRating(g.White.Rating)] = true
			seen[NearestMaiaRating(g.Black.Rating)] = true
		}
	}
	out := make([]int, 0, len(seen))
	for lv := range seen {
		out = append(out, lv)
	}
	sort.Ints(out)
	return out
}
