package engine

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"
)

type plain struct{}

func (plain) SelectMove(context.Context, Position, Limits) (Move, error) { return Move{}, nil }
func (plain) Name() string                                               { return "plain" }
func (plain) Close() error                                               { return nil }

type rich struct {
	plain
	opts  map[string]string
	games int
}

func (r *rich) Info() Info { return Info{Name: "rich", Author: "us"} }
func (r *rich) Configure(o map[string]string) error {
	if o["bad"] != "" {
		return errors.New("bad option")
	}
	r.opts = o
	return nil
}
func (r *rich) NewGame(context.Context) error { r.games++; return nil }

func TestWrapHelpers(t *testing.T) {
	ctx := context.Background()
	if got := InfoOf(plain{}); got.Name != "plain" || got.Author != "" {
		t.Errorf("InfoOf(plain) = %+v", got)
	}
	r := &rich{}
	if got := InfoOf(r); got.Author != "us" {
		t.Errorf("InfoOf(rich) = %+v", got)
	}
	if err := ConfigureOf(plain{}, map[string]string{"a": "1"}); err == nil || !strings.Contains(err.Error(), "plain takes no options") {
		t.Errorf("ConfigureOf(plain): %v", err)
	}
	if err := ConfigureOf(r, map[string]string{"a": "1"}); err != nil || r.opts["a"] != "1" {
		t.Errorf("ConfigureOf(rich): %v, %v", err, r.opts)
	}
	if err := ConfigureOf(r, map[string]string{"bad": "1"}); err == nil {
		t.Error("ConfigureOf passed over the engine's error")
	}
	if err := NewGameOf(ctx, plain{}); err != nil {
		t.Errorf("NewGameOf(plain): %v", err)
	}
	if err := NewGameOf(ctx, r); err != nil || r.games != 1 {
		t.Errorf("NewGameOf(rich): %v, %d games", err, r.games)
	}
}

type pondering struct{ pos Position }

func (p *pondering) Hit(context.Context, Limits) (Move, error) { return Move{UCI: "e2e4"}, nil }
func (p *pondering) Stop()                                     {}

type ponderer struct{ plain }

func (ponderer) Ponder(_ context.Context, pos Position, _ Limits) (Pondering, error) {
	return &pondering{pos: pos}, nil
}

func TestPonderOf(t *testing.T) {
	if _, err := PonderOf(context.Background(), plain{}, Position{}, Limits{}); err == nil || !strings.Contains(err.Error(), "plain cannot ponder") {
		t.Errorf("PonderOf(plain) = %v, want an error naming it", err)
	}
	pos := Position{Moves: []string{"e2e4", "e7e5"}}
	p, err := PonderOf(context.Background(), ponderer{}, pos, Limits{})
	if err != nil {
		t.Fatal(err)
	}
	if got := p.(*pondering).pos; len(got.Moves) != 2 {
		t.Errorf("pondering got %v, want the position given", got)
	}
}

// stopCounter is a Pondering that counts its Stop calls.
type stopCounter struct {
	pondering
	stops int
}

func (p *stopCounter) Stop() { p.stops++ }

type stopPonderer struct {
	plain
	last *stopCounter
}

func (s *stopPonderer) Ponder(_ context.Context, pos Position, _ Limits) (Pondering, error) {
	s.last = &stopCounter{pondering: pondering{pos: pos}}
	return s.last, nil
}

func TestPonderWrapped(t *testing.T) {
	ctx := context.Background()
	hit := func(ctx context.Context, in Pondering, pos Position, lim Limits) (Move, error) {
		m, err := in.Hit(ctx, lim)
		m.UCI += "/" + pos.Moves[0] + "/" + lim.MoveTime.String()
		return m, err
	}
	if _, err := PonderWrapped(ctx, "wrapper", plain{}, Position{}, Limits{}, hit); err == nil || !strings.Contains(err.Error(), "wrapper: engine plain cannot ponder") {
		t.Errorf("PonderWrapped(plain) = %v, want an error naming it", err)
	}
	inner := &stopPonderer{}
	p, err := PonderWrapped(ctx, "wrapper", inner, Position{Moves: []string{"d2d4"}}, Limits{}, hit)
	if err != nil {
		t.Fatal(err)
	}
	m, err := p.Hit(ctx, Limits{MoveTime: time.Second})
	if err != nil || m.UCI != "e2e4/d2d4/1s" {
		t.Errorf("Hit = %q, %v; want the inner move through hit with the position and the limits", m.UCI, err)
	}
	p.Stop()
	if inner.last.stops != 1 {
		t.Errorf("Stop reached the inner pondering %d times, want 1", inner.last.stops)
	}
}
