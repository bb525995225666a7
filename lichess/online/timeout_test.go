package online

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/outpostchess/outpost/bots/engine"
	"github.com/outpostchess/outpost/bots/movesource"
	"github.com/outpostchess/outpost/lichess"
)

// fixedEngine always plays one move.
type fixedEngine struct{ move string }

func (f fixedEngine) SelectMove(context.Context, engine.Position, engine.Limits) (engine.Move, error) {
	return engine.Move{UCI: f.move}, nil
}
func (fixedEngine) Name() string { return "fixed" }
func (fixedEngine) Close() error { return nil }

// TestTablebaseTimeoutCostsOnlyItsBound: a tablebase host that never
// answers (its handler blocked until the test releases it) costs the move
// the source's bound; the engine then plays, and the event says the ask
// ran out of time.
func TestTablebaseTimeoutCostsOnlyItsBound(t *testing.T) {
	release := make(chan struct{})
	host := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-release:
		case <-r.Context().Done():
		}
	}))
	defer host.Close()
	defer close(release)
	svc, err := lichess.NewService(lichess.ServiceOptions{BaseURL: host.URL})
	if err != nil {
		t.Fatal(err)
	}
	src, err := NewTablebase(svc, TablebaseOptions{})
	if err != nil {
		t.Fatal(err)
	}
	var events []movesource.Event
	e := movesource.Wrap(fixedEngine{"g6h6"}, []movesource.Bounded{{Source: src, Timeout: 20 * time.Millisecond}},
		func(ev movesource.Event) { events = append(events, ev) })
	mv, err := e.SelectMove(context.Background(), engine.Position{StartFEN: "7k/8/6K1/8/8/8/8/5Q2 w - - 0 1"}, engine.Limits{})
	if err != nil || mv.UCI != "g6h6" {
		t.Fatalf("got %+v %v, want the engine's move", mv, err)
	}
	if len(events) != 1 || !errors.Is(events[0].Err, context.DeadlineExceeded) {
		t.Fatalf("events %+v, want one ask ending at its deadline", events)
	}
}

// TestTablebaseChess960WithoutCastling: a Chess960 game is asked about once
// no castling right is left; with rights it is not.
func TestTablebaseChess960WithoutCastling(t *testing.T) {
	api := &recordingTB{ans: &lichess.Tablebase{TablebaseResult: lichess.TablebaseResult{Category: "win"}, Moves: []lichess.TablebaseMove{{UCI: "f1f8", TablebaseResult: lichess.TablebaseResult{Category: "loss", Checkmate: true}}}}}
	src, err := NewTablebase(api, TablebaseOptions{})
	if err != nil {
		t.Fatal(err)
	}
	mv, err := src.Move(context.Background(), engine.Position{StartFEN: "7k/8/6K1/8/8/8/8/5Q2 w - - 0 1", Chess960: true}, engine.Limits{})
	if err != nil || mv.UCI != "f1f8" {
		t.Fatalf("got %+v %v", mv, err)
	}
	_, err = src.Move(context.Background(), engine.Position{StartFEN: "1r4k1/8/8/8/8/8/8/1R4K1 w Bb - 0 1", Chess960: true}, engine.Limits{})
	if !errors.Is(err, movesource.ErrNoMove) || api.asked != 1 {
		t.Fatalf("with castling rights: %v after %d asks, want ErrNoMove without asking", err, api.asked)
	}
}

// recordingTB is a TablebaseAPI with a fixed answer.
type recordingTB struct {
	ans   *lichess.Tablebase
	asked int
}

func (r *recordingTB) Tablebase(context.Context, string) (*lichess.Tablebase, error) {
	r.asked++
	return r.ans, nil
}
