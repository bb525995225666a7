package sandbox

import "testing"

// TestArenaScoreLilaSheets checks the scoring against sheets computed by
// hand from lila's Sheet.addResult (ArenaSheet.scala): each case lists the
// games in the order played and the sheet lila shows (points per game,
// most recent first).
func TestArenaScoreLilaSheets(t *testing.T) {
	w := ArenaGame{Outcome: ArenaWin, Plies: 40}
	l := ArenaGame{Outcome: ArenaLoss, Plies: 40}
	d := ArenaGame{Outcome: ArenaDraw, Plies: 40}     // not quick, not long
	quick := ArenaGame{Outcome: ArenaDraw, Plies: 19} // < 20 plies: 0
	long := ArenaGame{Outcome: ArenaDraw, Plies: 60}  // >= 60 plies: no draw-streak rule
	edge := ArenaGame{Outcome: ArenaDraw, Plies: 20}  // the first non-quick length
	cases := []struct {
		name       string
		games      []ArenaGame
		streakable bool
		total      int
		sheet      string
		fire       bool
	}{
		{"none", nil, true, 0, "", false},
		{"win", []ArenaGame{w}, true, 2, "2", false},
		{"two wins set fire", []ArenaGame{w, w}, true, 4, "22", true},
		{"third win doubled", []ArenaGame{w, w, w}, true, 8, "422", true},
		{"streak broken by a loss", []ArenaGame{w, w, w, l, w}, true, 10, "20422", false},
		{"draw on fire doubled", []ArenaGame{w, w, d}, true, 6, "222", false},
		{"fire again after a loss", []ArenaGame{w, w, l, w, w}, true, 8, "22022", true},
		{"four wins", []ArenaGame{w, w, w, w}, true, 12, "4422", true},
		{"draw streak scores 0", []ArenaGame{d, d}, true, 1, "01", false},
		{"draw streak across a loss", []ArenaGame{d, l, d}, true, 1, "001", false},
		{"a win ends the draw streak", []ArenaGame{d, w, d}, true, 4, "121", false},
		{"long draw escapes the streak", []ArenaGame{d, long}, true, 2, "11", false},
		{"quick draw scores 0", []ArenaGame{quick}, true, 0, "0", false},
		{"quick draw starts a draw streak", []ArenaGame{quick, d}, true, 0, "00", false},
		{"twenty plies is not quick", []ArenaGame{edge}, true, 1, "1", false},
		{"win then draws", []ArenaGame{w, d, d}, true, 3, "012", false},
		{"no streaks: wins are 2", []ArenaGame{w, w, w}, false, 6, "222", false},
		{"no streaks: draw after wins is 1", []ArenaGame{w, w, d}, false, 5, "122", false},
		{"losses", []ArenaGame{l, l}, true, 0, "00", false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			total, sheet, fire := ArenaScore(c.games, c.streakable)
			if total != c.total || sheet != c.sheet || fire != c.fire {
				t.Errorf("ArenaScore = %d %q fire=%v, want %d %q fire=%v", total, sheet, fire, c.total, c.sheet, c.fire)
			}
		})
	}
}

// TestPairArenaAvoidsLastOpponent checks AntmaPairing's weights: four
// waiting players ranked 1..4 pair 1-2 and 3-4, unless 1 and 2 just
// played each other, then 1-3 and 2-4 (the rematch penalty outweighs any
// rank difference; the ratings make 1-3 2-4 the unique best); in the first 15 seconds neighbours pair regardless.
func TestPairArenaAvoidsLastOpponent(t *testing.T) {
	c := []arenaCandidate{{id: "a", rank: 1, rating: 1500}, {id: "b", rank: 2, rating: 1600},
		{id: "c", rank: 3, rating: 1500}, {id: "d", rank: 4, rating: 1600}}
	got := pairIDs(pairArena(c, map[string]string{}, false))
	if got != "a-b c-d" {
		t.Errorf("fresh: %s, want a-b c-d", got)
	}
	last := map[string]string{"a": "b", "b": "a"}
	if got := pairIDs(pairArena(c, last, false)); got != "a-c b-d" {
		t.Errorf("after a-b: %s, want a-c b-d", got)
	}
	if got := pairIDs(pairArena(c, last, true)); got != "a-b c-d" {
		t.Errorf("recently started: %s, want a-b c-d", got)
	}
}

func pairIDs(pairs [][2]arenaCandidate) string {
	s := ""
	for i, p := range pairs {
		if i > 0 {
			s += " "
		}
		s += p[0].id + "-" + p[1].id
	}
	return s
}
