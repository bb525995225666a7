package daemon

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/rs/zerolog"

	"github.com/outpostchess/outpost/bots/engine"
	"github.com/outpostchess/outpost/bots/runner"
	"github.com/outpostchess/outpost/config"
	"github.com/outpostchess/outpost/internal/store"
	"github.com/outpostchess/outpost/lichess"
)

// EngineFactory builds the engine named in the configuration (a built-in
// name, an [engines.NAME] definition or a spec such as maia-1500). The
// engine it returns should never fail to answer (see bots.Fallback).
type EngineFactory func(ctx context.Context, name string) (engine.Engine, error)

// Summariser analyses a finished game and returns the analysis (JSON, for
// the store) and the chat lines to post (each at most 140 characters).
type Summariser interface {
	Summarise(ctx context.Context, g store.Game) (result string, lines []string, err error)
}

// Hooks let an embedding program (the offline demo, tests) follow the
// daemon. Every hook is optional and is called from the daemon's goroutines.
type Hooks struct {
	// GameFinished is called once a game's end is recorded.
	GameFinished func(g store.Game)
	// SummaryPosted is called once a game's summary is in the chat.
	SummaryPosted func(gameID string, lines []string)
	// RunnerDone is called with each game runner's outcome, also when the
	// runner stopped before the game ended.
	RunnerDone func(out runner.Outcome, err error)
}

// Options configure a Daemon.
type Options struct {
	Config     *config.Config
	Client     *lichess.Client
	Store      *store.Store
	Engines    EngineFactory
	Summariser Summariser // nil disables post-game summaries
	Hooks      Hooks
	Logger     zerolog.Logger
	// Background jobs run next to the games for as long as the daemon runs
	// (scheduled comparisons, the web console); each gets a context that
	// ends at shutdown.
	Background []func(ctx context.Context)
}

// Daemon is the running bot. Create it with New; Run it once.
type Daemon struct {
	cfg   *config.Config
	api   *lichess.Client
	bot   *lichess.PlayAPI
	store *store.Store
	eng   EngineFactory
	sum   Summariser
	hooks Hooks
	log   zerolog.Logger
	bg    []func(ctx context.Context)

	me string // our user id

	mu       sync.Mutex
	games    map[string]*gameSlot // running games by id
	accepted map[string]accepted  // challenges accepted, game not started yet
	queue    []Offer              // challenges waiting for a free slot
	stopping bool

	wg         sync.WaitGroup // game runners and background workers
	analyseReq chan struct{}  // wakes the analysis worker
	lastBusy   time.Time      // last time a game was running (matchmaking)
}

// gameSlot is one running game.
type gameSlot struct {
	opponent string
	bot      bool
	cancel   context.CancelFunc
}

// accepted is a challenge we accepted whose game has not started yet; it
// holds a slot so that concurrent accepts cannot exceed max_games.
type accepted struct {
	offer  Offer
	engine string
	label  string
	at     time.Time
}

// acceptedTTL is how long an accepted challenge holds a slot without its
// gameStart arriving (Lichess starts the game at once; this only covers a
// lost event).
const acceptedTTL = 30 * time.Second

// New checks the options and returns a daemon.
func New(o Options) (*Daemon, error) {
	switch {
	case o.Config == nil:
		return nil, errors.New("daemon: no configuration")
	case o.Client == nil:
		return nil, errors.New("daemon: no Lichess client")
	case o.Store == nil:
		return nil, errors.New("daemon: no store")
	case o.Engines == nil:
		return nil, errors.New("daemon: no engine factory")
	}
	return &Daemon{
		cfg: o.Config, api: o.Client, bot: o.Client.Bot(), store: o.Store, eng: o.Engines, sum: o.Summariser,
		hooks: o.Hooks, log: o.Logger, bg: o.Background,
		games: map[string]*gameSlot{}, accepted: map[string]accepted{},
		analyseReq: make(chan struct{}, 1),
	}, nil
}

// Run runs the bot until ctx ends, then shuts down as [game] shutdown says
// and returns nil. It returns an error at once when the token or account is
// unusable.
func (d *Daemon) Run(ctx context.Context) error {
	if _, err := persist(ctx, "token check", d, func(ctx context.Context) (*lichess.TokenInfo, error) {
		return d.api.CheckToken(ctx, "bot:play")
	}); err != nil {
		return fmt.Errorf("daemon: token check: %w", err)
	}
	acct, err := persist(ctx, "read account", d, d.api.Account)
	if err != nil {
		return fmt.Errorf("daemon: read account: %w", err)
	}
	if !strings.EqualFold(acct.Title, "BOT") {
		return fmt.Errorf("daemon: account %s is not a BOT account (run 'outpost account upgrade --yes-i-understand' on an account that has played no games)", acct.Username)
	}
	d.me = strings.ToLower(acct.ID)
	d.log = d.log.With().Str("bot", acct.Username).Logger()
	d.log.Info().Str("server", d.api.BaseURL()).Msg("daemon starting")

	// Games run under their own context so that shutdown can let them finish.
	gamesCtx, stopGames := context.WithCancel(context.WithoutCancel(ctx))
	defer stopGames()

	if err := d.resume(ctx, gamesCtx); err != nil {
		d.log.Warn().Err(err).Msg("resume ongoing games")
	}
	d.wg.Add(1)
	go func() { defer d.wg.Done(); d.analysisWorker(gamesCtx) }()
	d.kickAnalysis()
	for _, job := range d.bg {
		d.wg.Add(1)
		go func() { defer d.wg.Done(); job(ctx) }()
	}
	if d.cfg.Matchmaking.Enabled {
		d.wg.Add(1)
		go func() { defer d.wg.Done(); d.matchmaker(ctx) }()
	}

	err = d.eventLoop(ctx, gamesCtx)
	d.shutdown(gamesCtx, stopGames)
	return err
}

// eventLoop follows the event stream until ctx ends.
func (d *Daemon) eventLoop(ctx, gamesCtx context.Context) error {
	stream, err := d.api.StreamEvents(ctx)
	if err != nil {
		if ctx.Err() != nil {
			return nil
		}
		return fmt.Errorf("daemon: open event stream: %w", err)
	}
	defer stream.Close()
	tick := time.NewTicker(time.Second)
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			return nil
		case <-tick.C:
			d.expireAccepted()
			d.drainQueue(ctx)
		case ev, ok := <-stream.Events():
			if !ok {
				if ctx.Err() != nil {
					return nil
				}
				return fmt.Errorf("daemon: event stream ended: %w", stream.Err())
			}
			d.onEvent(ctx, gamesCtx, ev)
		}
	}
}

func (d *Daemon) onEvent(ctx, gamesCtx context.Context, ev lichess.Event) {
	switch e := ev.(type) {
	case *lichess.ChallengeEvent:
		d.onChallenge(ctx, &e.Challenge)
	case *lichess.ChallengeCanceledEvent:
		d.dropQueued(e.Challenge.ID)
	case *lichess.ChallengeDeclinedEvent:
		if dest := e.Challenge.DestUser; dest != nil {
			d.log.Info().Str("by", dest.Name).Str("reason", e.Challenge.DeclineReasonKey).Msg("our challenge was declined")
			if err := d.store.RecordDecline(ctx, dest.ID, e.Challenge.DeclineReasonKey); err != nil {
				d.log.Warn().Err(err).Msg("record decline")
			}
		}
	case *lichess.GameStartEvent:
		d.startGame(gamesCtx, e.Game)
	case *lichess.GameFinishEvent:
		d.onGameFinishEvent(gamesCtx, e.Game)
	case *lichess.Reconnected:
		d.log.Info().Int("attempt", e.Attempt).AnErr("cause", e.Cause).Msg("event stream reconnected")
	}
}

// shutdown stops taking new games and ends the running ones as configured.
func (d *Daemon) shutdown(gamesCtx context.Context, stopGames context.CancelFunc) {
	d.mu.Lock()
	d.stopping = true
	ids := make([]string, 0, len(d.games))
	for id := range d.games {
		ids = append(ids, id)
	}
	d.mu.Unlock()
	mode := d.cfg.Game.Shutdown
	d.log.Info().Str("mode", mode).Int("games", len(ids)).Msg("shutting down")
	switch mode {
	case "abort":
		actx, cancel := context.WithTimeout(gamesCtx, 10*time.Second)
		for _, id := range ids {
			if err := d.bot.Abort(actx, id); err != nil {
				d.log.Info().Err(err).Str("game", id).Msg("cannot abort; leaving the game")
			}
		}
		cancel()
		stopGames()
	case "finish":
		if len(ids) > 0 {
			d.waitGames(d.cfg.Game.ShutdownTimeout)
		}
		stopGames()
	default: // leave: the games go on without us and resume on the next start
		stopGames()
	}
	d.wg.Wait()
	d.log.Info().Msg("daemon stopped")
}

// waitGames waits until no game runs or the timeout passes.
func (d *Daemon) waitGames(timeout time.Duration) {
	deadline := time.Now().Add(timeout)
	for time.Now().Before(deadline) {
		d.mu.Lock()
		n := len(d.games)
		d.mu.Unlock()
		if n == 0 {
			return
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// AddBackground adds a job to run next to the games (see
// Options.Background). Call it before Run.
func (d *Daemon) AddBackground(job func(ctx context.Context)) { d.bg = append(d.bg, job) }

// Playing returns the ids of the games running now.
func (d *Daemon) Playing() []string {
	d.mu.Lock()
	defer d.mu.Unlock()
	out := make([]string, 0, len(d.games))
	for id := range d.games {
		out = append(out, id)
	}
	return out
}

// newRunnerConfig returns the runner configuration for a game.
func (d *Daemon) newRunnerConfig(id, engineName string) runner.Config {
	return runner.Config{GameID: id, Me: d.me, EngineName: engineName, Game: d.cfg.Game,
		Logger: d.log.With().Str("engine", engineName).Logger()}
}
