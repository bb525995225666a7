package engine

import (
	"context"
	"errors"
	"strings"
	"testing"
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
