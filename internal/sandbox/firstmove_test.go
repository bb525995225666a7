package sandbox

import (
	"net/url"
	"strings"
	"testing"
	"time"
)

// TestTimeForFirstMove: lila's RoundGame.timeForFirstMove, seconds per
// speed outside arenas and in arenas, Chess960's × 5 / 4 in whole seconds.
func TestTimeForFirstMove(t *testing.T) {
	cases := []struct {
		speed                        string
		plain, arena, c960, arena960 int // seconds
	}{
		{"ultraBullet", 15, 11, 18, 13},
		{"bullet", 20, 16, 25, 20},
		{"blitz", 25, 21, 31, 26},
		{"rapid", 30, 25, 37, 31},
		{"classical", 35, 30, 43, 37},
		{"correspondence", 0, 0, 0, 0},
	}
	for _, c := range cases {
		for _, v := range []struct {
			arena, c960 bool
			want        int
		}{{false, false, c.plain}, {true, false, c.arena}, {false, true, c.c960}, {true, true, c.arena960}} {
			if got := TimeForFirstMove(c.speed, v.arena, v.c960); got != time.Duration(v.want)*time.Second {
				t.Errorf("TimeForFirstMove(%s, arena %v, chess960 %v) = %v, want %ds", c.speed, v.arena, v.c960, got, v.want)
			}
		}
		if got := FirstMoveDeadline(c.speed); got != time.Duration(c.plain)*time.Second {
			t.Errorf("FirstMoveDeadline(%s) = %v, want %ds", c.speed, got, c.plain)
		}
	}
	for src, want := range map[string]bool{SourceLobby: true, SourceArena: true, SourcePool: true, SourceSwiss: true, SourceFriend: false, "": false, "api": false} {
		if Expirable(src) != want {
			t.Errorf("Expirable(%q) = %v, want %v", src, !want, want)
		}
	}
}

// TestFirstMoveDeadlines plays, for each speed on a clock scaled by 1/10,
// the first moves of a lobby game (Server.Pair) on an injected clock: the gameFull announces the
// scaled clock and the speed's scaled first-move deadline as
// expiration.millisToMove; White moves one millisecond before its deadline;
// Black, whose deadline runs from White's move, misses its own and the game
// ends as noStart, won by White.
func TestFirstMoveDeadlines(t *testing.T) {
	cases := []struct {
		limit, inc string
		speed      string
		deadline   time.Duration // scaled
	}{
		{"15", "0", "ultraBullet", 1500 * time.Millisecond},
		{"60", "0", "bullet", 2 * time.Second},
		{"180", "2", "blitz", 2500 * time.Millisecond},
		{"900", "0", "rapid", 3 * time.Second},
		{"1800", "20", "classical", 3500 * time.Millisecond},
	}
	for _, c := range cases {
		t.Run(c.speed, func(t *testing.T) {
			clk := &fakeClock{t: time.Date(2026, 11, 25, 12, 0, 0, 0, time.UTC)}
			e := newEnv(t, Config{Now: clk.now, TimeScale: 0.1})
			// Two human accounts: bots cannot play ultraBullet.
			id, err := e.srv.Pair(Pairing{White: "alice", Black: "bob", Source: SourceLobby,
				Limit: parseDur(c.limit, time.Second), Increment: parseDur(c.inc, time.Second)})
			if err != nil {
				t.Fatal(err)
			}
			gs := e.open(tokAlice, "/api/board/game/stream/"+id)
			defer gs.close()
			full := gs.next()
			if full["speed"] != c.speed {
				t.Fatalf("speed %v, want %s", full["speed"], c.speed)
			}
			clock := full["clock"].(map[string]any)
			if lim := parseDur(c.limit, time.Second) / 10; clock["initial"] != float64(lim.Milliseconds()) {
				t.Errorf("clock.initial %v, want the scaled %v", clock["initial"], lim)
			}
			if inc := parseDur(c.inc, time.Second) / 10; clock["increment"] != float64(inc.Milliseconds()) {
				t.Errorf("clock.increment %v, want the scaled %v", clock["increment"], inc)
			}
			exp := full["state"].(map[string]any)["expiration"].(map[string]any)
			if exp["millisToMove"] != float64(c.deadline.Milliseconds()) || exp["idleMillis"] != 0.0 {
				t.Fatalf("expiration %v, want millisToMove %d", exp, c.deadline.Milliseconds())
			}
			clk.add(c.deadline - time.Millisecond)
			e.mustOK(tokAlice, "/api/board/game/"+id+"/move/e2e4", nil)
			st := gs.nextType("gameState")
			exp = st["expiration"].(map[string]any)
			if exp["millisToMove"] != float64(c.deadline.Milliseconds()) || exp["idleMillis"] != 0.0 {
				t.Fatalf("Black's expiration %v", exp)
			}
			clk.add(c.deadline)
			e.wantError(tokBob, "/api/board/game/"+id+"/move/e7e5", 400, errNotYourTurn)
			if g := e.snapshot(id); g.Status != "noStart" || g.Winner != "white" {
				t.Fatalf("Black missed its first move: %+v", g)
			}
		})
	}
}

// TestScaledClock checks that a scaled game keeps its nominal time control
// in the export and runs its clock, increment included, scaled.
func TestScaledClock(t *testing.T) {
	clk := &fakeClock{t: time.Date(2026, 11, 25, 12, 0, 0, 0, time.UTC)}
	e := newEnv(t, Config{Now: clk.now, TimeScale: 0.01})
	id := e.startGame(url.Values{"clock.limit": {"180"}, "clock.increment": {"2"}, "color": {"white"}})
	e.play(id, "e2e4", "e7e5")
	clk.add(500 * time.Millisecond)
	e.play(id, "g1f3")
	g := e.snapshot(id)
	// 1.8 s − 0.5 s + 0.02 s.
	if g.WhiteTime != 1320*time.Millisecond || g.BlackTime != 1800*time.Millisecond {
		t.Errorf("clocks %v / %v", g.WhiteTime, g.BlackTime)
	}
	if g.Speed != "blitz" || g.ClockLimit != 180*time.Second || g.ClockIncrement != 2*time.Second {
		t.Errorf("nominal time control lost: %+v", g)
	}
	code, b := e.do("", "GET", "/game/export/"+id, nil)
	if code != 200 || !strings.Contains(string(b), `[TimeControl "180+2"]`) {
		t.Errorf("export %d %s", code, b)
	}
}

func parseDur(s string, unit time.Duration) time.Duration {
	var n int
	for _, r := range s {
		n = n*10 + int(r-'0')
	}
	return time.Duration(n) * unit
}
