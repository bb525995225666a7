package demo

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/rs/zerolog"

	"github.com/outpostchess/outpost/bots"
	"github.com/outpostchess/outpost/config"
	"github.com/outpostchess/outpost/internal/daemon"
	"github.com/outpostchess/outpost/internal/store"
	"github.com/outpostchess/outpost/lichess"
	"github.com/outpostchess/outpost/lichess/runner"
	"github.com/outpostchess/outpost/models/maiaengine"
)

// sparring is the human account that keeps challenging the bot and plays
// its games through the Board API with a built-in engine.
type sparring struct {
	name   string
	client *lichess.Client
	opt    Options
	tc     config.TimeControl
	cfg    *config.Config
	log    zerolog.Logger
	gate   *gate // holds challenges back once the run's games are over
}

func newSparring(url, token, name string, opt Options, tc config.TimeControl, cfg *config.Config) (*sparring, error) {
	c, log, err := opponentClient(url, token, "sparring", name, opt)
	if err != nil {
		return nil, err
	}
	return &sparring{name: name, client: c, opt: opt, tc: tc, cfg: cfg, log: log}, nil
}

// opponentClient is the client and logger of one of the harness's
// opponents (component "sparring" or "sparbot").
func opponentClient(url, token, component, name string, opt Options) (*lichess.Client, zerolog.Logger, error) {
	log := opt.Logger.With().Str("component", component).Str("user", name).Logger()
	// the client names itself (component "lichess"): its logger gets the
	// user only, not a second component key
	c, err := lichess.New(lichess.Options{BaseURL: url, Token: lichess.Token(token), Logger: opt.Logger.With().Str("user", name).Logger(),
		ReconnectMin: 100 * time.Millisecond, RateLimit: opt.Client.RateLimit})
	if err != nil {
		return nil, log, fmt.Errorf("demo: %s %s: %w", component, name, err)
	}
	return c, log, nil
}

// run challenges the bot, plays the game, and starts over, until ctx ends.
func (s *sparring) run(ctx context.Context) {
	defer s.client.Close()
	journal := openJournal(ctx, s.log)
	if journal == nil {
		return
	}
	defer journal.Close()
	// The colours alternate per game played: a challenge the bot declines
	// (it is still busy with the last game, say) is sent again as it was.
	colors := []lichess.Color{lichess.Black, lichess.White}
	for n := 0; ctx.Err() == nil; {
		s.gate.wait(ctx)
		if ctx.Err() != nil {
			return
		}
		p := lichess.ChallengeParams{Color: colors[n%2], FEN: s.opt.SparringFEN, Variant: s.opt.SparringVariant}
		if s.opt.Days > 0 {
			p.Days = s.opt.Days
		} else {
			p.Clock = &lichess.ChallengeClock{Limit: int(s.tc.Base / time.Second), Increment: int(s.tc.Increment / time.Second)}
		}
		pc, err := s.client.CreateChallengeKeepAlive(ctx, strings.ToLower(BotName), p)
		if err != nil {
			if ctx.Err() == nil {
				s.log.Warn().Err(err).Msg("challenge the bot")
				sleep(ctx, time.Second)
			}
			continue
		}
		id := pc.Challenge.ID
		wctx, cancel := context.WithTimeout(ctx, 30*time.Second)
		fate, err := pc.Wait(wctx)
		cancel()
		switch {
		case err != nil && ctx.Err() == nil:
			// The connection dropped: find out from the game itself.
			if !s.waitStart(ctx, id) {
				continue
			}
		case fate != "accepted":
			s.log.Info().Str("challenge", id).Str("fate", fate).Msg("challenge not accepted")
			sleep(ctx, time.Second)
			continue
		}
		if ctx.Err() != nil {
			return
		}
		n++
		s.gate.gameStarted(id)
		s.play(ctx, id, journal, p.Color == lichess.Black && s.opt.SparringResignEarly)
	}
}

// waitStart waits until the challenge became a game (the bot accepted).
func (s *sparring) waitStart(ctx context.Context, id string) bool {
	deadline := time.Now().Add(10 * time.Second)
	for ctx.Err() == nil && time.Now().Before(deadline) {
		g, err := s.client.ExportGame(ctx, id, lichess.ExportOptions{})
		if err == nil && g.Status != "" && g.Status != lichess.StatusCreated {
			return true
		}
		sleep(ctx, 200*time.Millisecond)
	}
	return false
}

func (s *sparring) play(ctx context.Context, id string, journal *store.Store, early bool) {
	api := &scripted{GameAPI: s.client.Board(), after: int64(s.opt.SparringResignAfter), hold: int64(s.opt.SparringHoldAfter),
		delay: s.opt.SparringMoveDelay, early: early}
	playOpponent(ctx, id, s.name, s.opt.Sparring, api, s.cfg, journal, s.log)
}

// openJournal opens a harness opponent's game journal, in memory; it logs
// the error and returns nil when the store cannot be opened.
func openJournal(ctx context.Context, log zerolog.Logger) *store.Store {
	journal, err := store.Open(ctx, ":memory:")
	if err != nil {
		log.Error().Err(err).Msg("opponent journal")
		return nil
	}
	return journal
}

// playOpponent plays one game of a harness opponent (user me) with engine
// spec through api, quietly (see quietGame), until it ends or ctx does.
func playOpponent(ctx context.Context, id, me, spec string, api runner.GameAPI, cfg *config.Config,
	journal *store.Store, log zerolog.Logger) {
	eng, err := bots.New(ctx, spec, maiaengine.Register(nil), bots.WithFallback(), bots.WithLogger(log))
	if err != nil {
		log.Error().Err(err).Str("engine", spec).Msg("opponent engine")
		return
	}
	defer eng.Close()
	r := runner.New(runner.Config{GameID: id, Me: strings.ToLower(me), EngineName: spec,
		Game: daemon.Conduct(quietGame(cfg.Game)), Logger: log}, api, eng, journal)
	if _, err := r.Run(ctx); err != nil && !errors.Is(err, context.Canceled) {
		log.Warn().Err(err).Str("game", id).Msg("opponent game")
	}
}

func sleep(ctx context.Context, d time.Duration) {
	select {
	case <-ctx.Done():
	case <-time.After(d):
	}
}
