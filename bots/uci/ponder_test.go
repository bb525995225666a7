package uci

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/outpostchess/outpost/bots/uci/ucitest"
)

// commandLog starts the fake engine recording its commands and returns it
// with a function reading the commands so far.
func commandLog(t *testing.T) (*Engine, func() []string) {
	t.Helper()
	name := filepath.Join(t.TempDir(), "commands.log")
	e := startFake(t, fakeConfig(ucitest.Normal, ucitest.EnvLog+"="+name))
	return e, func() []string {
		b, err := os.ReadFile(name)
		if err != nil {
			t.Fatalf("read command log: %v", err)
		}
		return strings.Split(strings.TrimSpace(string(b)), "\n")
	}
}

// after returns the commands that follow the last one starting with prefix.
func after(cmds []string, prefix string) []string {
	for i := len(cmds) - 1; i >= 0; i-- {
		if strings.HasPrefix(cmds[i], prefix) {
			return cmds[i+1:]
		}
	}
	return nil
}

func TestPonderUCICommands(t *testing.T) {
	ucitest.NoLeak(t)
	pos := Position{FEN: "startpos", Moves: []string{"e2e4", "e7e5"}}
	clock := Limits{WTime: time.Minute, BTime: time.Minute, WInc: time.Second, BInc: time.Second, Depth: 9, MoveTime: time.Second}
	tests := []struct {
		name string
		hit  bool
	}{{"hit", true}, {"miss", false}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e, cmds := commandLog(t)
			ctx := context.Background()
			s, err := e.Ponder(ctx, pos, clock)
			if err != nil {
				t.Fatalf("Ponder: %v", err)
			}
			if tt.hit {
				res, err := s.Hit(ctx)
				if err != nil || res.BestMove == "" || res.Stopped {
					t.Fatalf("Hit = %+v, %v", res, err)
				}
				s.Stop() // a no-op after a hit
				if _, err := s.Hit(ctx); !errors.Is(err, ErrPonderState) {
					t.Errorf("second Hit: %v, want ErrPonderState", err)
				}
			} else {
				s.Stop()
				s.Stop() // idempotent
			}
			// The engine is free again: an ordinary search follows.
			if _, err := e.Analyse(ctx, Position{FEN: "startpos"}, Limits{Depth: 1}); err != nil {
				t.Fatalf("Analyse after ponder: %v", err)
			}
			all := cmds()
			ponder := after(all, "position startpos moves e2e4 e7e5")
			if len(ponder) == 0 || ponder[0] != "go ponder wtime 60000 btime 60000 winc 1000 binc 1000 depth 9" {
				t.Fatalf("commands after the position: %q (want go ponder with the clocks and depth, no movetime)", ponder)
			}
			want := []string{"stop", "position startpos", "go depth 1"}
			if tt.hit {
				want = []string{"ponderhit", "position startpos", "go depth 1"}
			}
			if got := ponder[1:]; strings.Join(got, "|") != strings.Join(want, "|") {
				t.Errorf("after go ponder: %q, want %q", got, want)
			}
		})
	}
}

func TestPonderUCIHitStopsAtContext(t *testing.T) {
	ucitest.NoLeak(t)
	e, cmds := commandLog(t)
	// No clock: after ponderhit the fake searches on until stopped.
	s, err := e.Ponder(context.Background(), Position{FEN: "startpos"}, Limits{})
	if err != nil {
		t.Fatalf("Ponder: %v", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	res, err := s.Hit(ctx)
	if err != nil || res.BestMove == "" || !res.Stopped {
		t.Fatalf("Hit with an ended context = %+v, %v; want the best move so far", res, err)
	}
	if got := strings.Join(after(cmds(), "position startpos"), "|"); got != "go ponder infinite|ponderhit|stop" {
		t.Errorf("commands = %q", got)
	}
}

func TestPonderUCIContextEndStops(t *testing.T) {
	ucitest.NoLeak(t)
	e, cmds := commandLog(t)
	ctx, cancel := context.WithCancel(context.Background())
	s, err := e.Ponder(ctx, Position{FEN: "startpos"}, Limits{WTime: time.Minute, BTime: time.Minute})
	if err != nil {
		t.Fatalf("Ponder: %v", err)
	}
	cancel()
	<-s.Done()
	if err := e.IsReady(context.Background()); err != nil {
		t.Fatalf("IsReady after a cancelled ponder: %v", err)
	}
	if got := strings.Join(after(cmds(), "position startpos"), "|"); got != "go ponder wtime 60000 btime 60000|stop|isready" {
		t.Errorf("commands = %q", got)
	}
}
