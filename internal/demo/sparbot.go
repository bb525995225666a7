package demo

import (
	"context"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/rs/zerolog"

	"github.com/outpostchess/outpost/config"
	"github.com/outpostchess/outpost/internal/sandbox"
	"github.com/outpostchess/outpost/internal/store"
	"github.com/outpostchess/outpost/lichess"
	"github.com/outpostchess/outpost/lichess/runner"
)

// SparringBot is a scripted BOT account in the sandbox, for the
// matchmaking tests: it is online (its event stream is open, so GET
// /api/bot/online lists it) for the whole run, answers every challenge it
// receives with Answer, and plays the games it accepted through the BOT
// API with a built-in engine.
type SparringBot struct {
	// Name is the account name (its lower-case form is the user id).
	Name string
	// Rating is shown in every perf (default 1500).
	Rating int
	// Answer returns "" to accept a challenge, or the reason to decline it
	// with. nil accepts every challenge.
	Answer func(c lichess.Challenge) lichess.DeclineReason
	// Engine is the engine spec it plays with (default "easy").
	Engine string
	// ResignAfter makes it resign instead of making its move number
	// ResignAfter+1, to keep games short (0: play to the end).
	ResignAfter int
	// inArena makes it join the demo's arena (arena.go).
	inArena bool
}

// sparBot runs one SparringBot.
type sparBot struct {
	spec   SparringBot
	client *lichess.Client
	cfg    *config.Config
	log    zerolog.Logger
	wg     sync.WaitGroup
	arena  string // the demo arena it joins (inArena)
}

func newSparBot(url, token string, spec SparringBot, opt Options, cfg *config.Config) (*sparBot, error) {
	if spec.Engine == "" {
		spec.Engine = "easy"
	}
	c, log, err := opponentClient(url, token, "sparbot", spec.Name, opt)
	if err != nil {
		return nil, err
	}
	return &sparBot{spec: spec, client: c, cfg: cfg, log: log}, nil
}

// sandboxAccount is the bot's sandbox account.
func (b *SparringBot) sandboxAccount(token string) sandbox.Account {
	return sandbox.Account{Name: b.Name, Token: token, Bot: true, Rating: b.Rating}
}

// run follows the bot's event stream until ctx ends; the games it plays
// end with ctx too.
func (b *sparBot) run(ctx context.Context) {
	defer b.client.Close()
	journal := openJournal(ctx, b.log)
	if journal == nil {
		return
	}
	defer journal.Close()
	defer b.wg.Wait() // the games end before the journal closes
	stream, err := b.client.StreamEvents(ctx)
	if err != nil {
		if ctx.Err() == nil {
			b.log.Error().Err(err).Msg("event stream")
		}
		return
	}
	defer stream.Close()
	b.joinArena(ctx)
	playing := map[string]bool{}
	for ev := range stream.Events() {
		switch e := ev.(type) {
		case *lichess.ChallengeEvent:
			b.answer(ctx, e.Challenge)
		case *lichess.GameStartEvent:
			id := gameID(e.Game)
			if playing[id] {
				continue
			}
			playing[id] = true
			b.wg.Add(1)
			go func() { defer b.wg.Done(); b.play(ctx, id, journal) }()
		}
	}
}

// answer accepts or declines a challenge sent to the bot.
func (b *sparBot) answer(ctx context.Context, c lichess.Challenge) {
	if c.DestUser == nil || !strings.EqualFold(c.DestUser.ID, b.spec.Name) {
		return // one of its own, or not for it
	}
	var reason lichess.DeclineReason
	if b.spec.Answer != nil {
		reason = b.spec.Answer(c)
	}
	if reason == "" {
		if err := b.client.AcceptChallenge(ctx, c.ID, ""); err != nil && ctx.Err() == nil {
			b.log.Warn().Err(err).Str("challenge", c.ID).Msg("accept")
		}
		return
	}
	if err := b.client.DeclineChallenge(ctx, c.ID, reason); err != nil && ctx.Err() == nil {
		b.log.Warn().Err(err).Str("challenge", c.ID).Msg("decline")
	}
}

// play plays one game through the BOT API.
func (b *sparBot) play(ctx context.Context, id string, journal *store.Store) {
	api := &scripted{GameAPI: b.client.Bot(), after: int64(b.spec.ResignAfter)}
	playOpponent(ctx, id, b.spec.Name, b.spec.Engine, api, b.cfg, journal, b.log)
}

// quietGame is the conduct of the harness's opponents: no chat, no
// resignation by evaluation, no abort; draws by evaluation late only.
func quietGame(g config.GameConfig) config.GameConfig {
	g.Greeting, g.Goodbye, g.ChatCommands, g.ResignEnabled = "", "", false, false
	g.AcceptDraw, g.DrawMinPly, g.AbortAfter = "by_eval", 80, 0
	return g
}

// scripted is the game API of a harness opponent: it waits delay before
// each move, so that a test can count on a game lasting, and resigns in
// place of move number after+1 (after = 0: never), or with early right after
// move number after, to keep games short.
type scripted struct {
	runner.GameAPI
	after int64
	early bool
	// hold > 0 stops the partner after its move number hold: asked for
	// another move, it waits without moving until the game's context ends.
	hold  int64
	delay time.Duration
	moves atomic.Int64 // the moves asked of it so far
}

// Move sends the move after the delay, or resigns once the opponent has
// made its moves, or holds (see hold).
func (r *scripted) Move(ctx context.Context, gameID, uci string, offeringDraw bool) error {
	n := r.moves.Add(1)
	if r.after > 0 && n > r.after {
		return r.GameAPI.Resign(ctx, gameID)
	}
	if r.hold > 0 && n > r.hold {
		<-ctx.Done()
		return ctx.Err()
	}
	if r.delay > 0 {
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(r.delay):
		}
	}
	if err := r.GameAPI.Move(ctx, gameID, uci, offeringDraw); err != nil || !r.early || n != r.after {
		return err
	}
	return r.GameAPI.Resign(ctx, gameID)
}

// gameID is a GameInfo's game id.
func gameID(g lichess.GameInfo) string {
	if g.GameID != "" {
		return g.GameID
	}
	return g.ID
}
