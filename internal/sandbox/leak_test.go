package sandbox

import (
	"runtime"
	"testing"
	"time"
)

// TestNoGoroutineLeak runs a session with open streams and timers and checks
// that closing the server leaves no goroutine behind.
func TestNoGoroutineLeak(t *testing.T) {
	before := runtime.NumGoroutine()
	t.Run("session", func(t *testing.T) {
		e := newEnv(t, Config{NoStartTimeout: time.Hour})
		e.open(tokBot1, "/api/stream/event")
		id, _, _ := e.botGame(nil)
		e.srv.Faults().Stall("/api/board/game/stream/", 0, 0)
		e.open(tokAlice, "/api/board/game/stream/"+id) // stalled until the end
		e.play(id, "e2e4", "e7e5")
	})
	deadline := time.Now().Add(waitTimeout)
	for runtime.NumGoroutine() > before {
		if time.Now().After(deadline) {
			buf := make([]byte, 1<<16)
			t.Fatalf("%d goroutines before, %d after:\n%s", before, runtime.NumGoroutine(), buf[:runtime.Stack(buf, true)])
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// BenchmarkMove measures a move through the rules engine and clocks,
// without HTTP (each iteration plays a four-move opening in a new game).
func BenchmarkMove(b *testing.B) {
	s := New(Config{Accounts: []Account{{Name: "w", Token: "a"}, {Name: "b", Token: "b"}}})
	defer s.Close()
	moves := []string{"e2e4", "e7e5", "g1f3", "b8c6"}
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		s.mu.Lock()
		c := &challenge{id: s.newID(8), color: "white", finalColor: "white", variant: "standard",
			clock: &timeControl{limit: time.Minute}}
		g := s.startGame(c, s.accounts["w"], s.accounts["b"])
		for j, m := range moves {
			if err := s.move(g, g.players[j%2], m, false); err != nil {
				b.Fatal(err)
			}
		}
		g.stopTimer()
		s.mu.Unlock()
	}
}

// BenchmarkMoveHTTP measures one move request over loopback HTTP
// (a game is recreated every four moves).
func BenchmarkMoveHTTP(b *testing.B) {
	s := New(Config{Accounts: []Account{{Name: "w", Token: "a"}, {Name: "b", Token: "b", Bot: true}}})
	defer s.Close()
	url, err := s.Listen(b.Context(), "127.0.0.1:0")
	if err != nil {
		b.Fatal(err)
	}
	client := newBenchClient()
	moves := []string{"e2e4", "e7e5", "g1f3", "b8c6"}
	var id string
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		if i%4 == 0 {
			s.mu.Lock()
			c := &challenge{id: s.newID(8), color: "white", finalColor: "white", variant: "standard", days: 1}
			id = s.startGame(c, s.accounts["w"], s.accounts["b"]).id
			s.mu.Unlock()
		}
		api, tok := "/api/board/game/", "a"
		if i%2 == 1 {
			api, tok = "/api/bot/game/", "b"
		}
		if code := client.post(url+api+id+"/move/"+moves[i%4], tok); code != 200 {
			b.Fatalf("move: %d", code)
		}
	}
}
