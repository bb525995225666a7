package daemon

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/rs/zerolog"

	"github.com/outpostchess/outpost/analysis"
	"github.com/outpostchess/outpost/bots/engine"
	"github.com/outpostchess/outpost/config"
	"github.com/outpostchess/outpost/internal/postgame"
	"github.com/outpostchess/outpost/internal/records"
	"github.com/outpostchess/outpost/internal/store"
	"github.com/outpostchess/outpost/lichess"
	"github.com/outpostchess/outpost/lichess/runner"
)

// EngineFactory builds the engine named in the configuration (a built-in
// name, an [engines.NAME] definition or a spec such as maia-1500). The
// engine it returns should never fail to answer (see bots.Fallback).
type EngineFactory func(ctx context.Context, name string) (engine.Engine, error)

// Summariser analyses a finished game once and returns the analysis, its
// JSON (for the store) and the chat lines to post (each at most 140
// characters); *postgame.Summariser is one. The daemon's request carries
// all it knows: the game, our account's username and the gate of its
// games.
type Summariser interface {
	Summarise(ctx context.Context, r postgame.Request) (postgame.Summary, error)
}

// SummaryLine adds one chat line to a summary from its analysis (ok false:
// none); verification's agreement with Lichess's own analysis is one. It
// runs after the summariser, with the analysis it returned, never with a
// summary whose analysis was not ready.
type SummaryLine func(ctx context.Context, g store.Game, a *analysis.Analysis) (line string, ok bool)

// Hooks let an embedding program (the offline demo, tests) follow the
// daemon. Every hook is optional and is called from the daemon's goroutines.
type Hooks struct {
	// AccountRead is called with the bot's username once the daemon has
	// read its account, before any game or background job starts (the
	// verification worker names the bot in its log lines with it).
	AccountRead func(username string)
	// GameFinished is called once a game's end is recorded.
	GameFinished func(g store.Game)
	// SummaryPosted is called once a game's summary is in the chat.
	SummaryPosted func(gameID string, lines []string)
	// SummaryFailed is called once it is settled that a game's summary
	// will not be posted, with the reason: its analysis failed (the
	// summariser's error), or the server refused a line for good (for
	// example a restarted server that no longer knows the game answers
	// 404). Every summarised game ends in SummaryPosted or SummaryFailed.
	SummaryFailed func(gameID string, reason error)
	// RunnerDone is called with each game runner's outcome, also when the
	// runner stopped before the game ended.
	RunnerDone func(out runner.Outcome, err error)
	// ShutdownStarted is called once the daemon refuses new games, at the
	// start of its shutdown, with the [game] shutdown mode.
	ShutdownStarted func(mode string)
	// ChatWait waits before retry attempt n of a chat line (nil: a short
	// wall-clock backoff); tests inject it to control time.
	ChatWait func(ctx context.Context, attempt int) error
	// PostRequeued is called when a summary could not be posted for now
	// (its lines failed with transient errors) and went back to the queue,
	// not marked posted.
	PostRequeued func(gameID string)
	// PostRetryWait, when set, replaces the wait before such a summary is
	// tried again (nil: until the next game's end, at most a minute); tests
	// inject it to control time. Its error ends the summary worker.
	PostRetryWait func(ctx context.Context) error
	// ArenaJoined is called once the daemon joined an arena ([tournaments]).
	ArenaJoined func(id string)
	// ArenaLeft is called once it withdrew from one, with why.
	ArenaLeft func(id, why string)
	// NewAlarm starts the game runners' conduct waits (abort_after, the
	// claim of victory); nil uses wall-clock timers. See
	// runner.Config.NewAlarm.
	NewAlarm func(d time.Duration) (fired <-chan time.Time, stop func())
	// Now, when set, is the clock of the daily bot-game limits and budget
	// (nil: the wall clock); tests move it past a limit's end.
	Now func() time.Time
	// RivalStream is called when the server has closed the event stream
	// closes times within a short window, as it does when another process
	// opens one on the bot's token (see rivalCloses), with the warning.
	RivalStream func(closes int)
	// MatchmakingPaused is called once each time the matchmaker pauses
	// until a daily bot-game limit or budget ends, with that end.
	MatchmakingPaused func(until time.Time)
}

// Options configure a Daemon.
type Options struct {
	Config     *config.Config
	Client     *lichess.Client
	Store      *store.Store
	Engines    EngineFactory
	Summariser Summariser // nil disables post-game summaries
	// SummaryLines add lines to every summary, in order, after the
	// summariser's.
	SummaryLines []SummaryLine
	Hooks        Hooks
	Logger       zerolog.Logger
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
	lines []SummaryLine
	gate  gameGate // the summaries' gate of our games
	hooks Hooks
	log   zerolog.Logger
	rival rivalWatch // the event stream's closes by the server
	bg    []func(ctx context.Context)
	rec   *records.Writer // game records ([records] dir); nil when off

	me       string // our user id
	username string // our account's username, as the summaries name us
	srvKey   string // the server's store key (serverKey of the client's base URL)

	mu       sync.Mutex
	games    map[string]*gameSlot // running games by id
	runners  map[string]int       // runner goroutines by game id, until their bookkeeping is done
	accepted map[string]accepted  // challenges accepted, game not started yet
	outgoing map[string]outgoing  // our challenges not answered yet, by opponent id
	queue    []Offer              // challenges waiting for a free slot
	stopping bool

	wg         sync.WaitGroup // game runners and background workers
	analyseReq chan struct{}  // wakes the analysis worker
	// chatSettled is closed once the chat lines a crash or a shutdown
	// left unsent have been resolved (resumeChat): summaries are posted
	// only after it, so that a game's goodbye comes before its summary
	// and the summary is never marked posted while its game's goodbye is
	// still unresolved.
	chatSettled chan struct{}
	// gamesChanged is closed (and replaced) whenever games changes.
	gamesChanged chan struct{}
	lastBusy     time.Time   // last time a game was running (matchmaking)
	pausedUntil  time.Time   // the end of the matchmaker's last pause, once logged
	blockLists   *blockLists // [matchmaking] block_list_sources; nil when none
	arenas       *arenaBook  // [tournaments] state (tournaments.go); nil when off
}

// gameSlot is one running game.
type gameSlot struct {
	opponent       string
	bot            bool
	correspondence bool     // no real-time clock: does not take a max_games slot
	tournament     string   // the arena of an arena game
	rules          []string // the game's lila GameRules, known from its challenge
	cancel         context.CancelFunc
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
	d := &Daemon{
		cfg: o.Config, api: o.Client, bot: o.Client.Bot(), store: o.Store, eng: o.Engines, sum: o.Summariser, lines: o.SummaryLines,
		hooks: o.Hooks, log: o.Logger, bg: o.Background,
		games: map[string]*gameSlot{}, runners: map[string]int{}, accepted: map[string]accepted{}, outgoing: map[string]outgoing{},
		analyseReq: make(chan struct{}, 1), gamesChanged: make(chan struct{}), chatSettled: make(chan struct{}),
	}
	d.srvKey = serverKey(o.Client.BaseURL())
	if src := o.Config.Matchmaking.BlockListSources; len(src) > 0 {
		d.blockLists = newBlockLists(src)
	}
	d.rec = newRecorder(o.Config, o.Store)
	if d.rec != nil {
		d.rec.Warn = d.recordWarning
	}
	if o.Config.Tournaments.Enabled {
		d.arenas = newArenaBook()
	}
	// The summaries' work yields to games on the clock ([summary]
	// ewr_engines_in_game).
	d.gate = gameGate{d: d, inGame: o.Config.Summary.EWREnginesInGame}
	return d, nil
}

// Run runs the bot until ctx ends (SIGINT/SIGTERM in outpost run), then
// shuts down as [game] shutdown says and returns nil once nothing of it
// runs any more. It returns an error at once when the token or account is
// unusable, and after the shutdown when the event stream fails for good.
func (d *Daemon) Run(ctx context.Context) error {
	release, err := d.store.LockDaemon()
	if err != nil {
		return fmt.Errorf("daemon: %w", err)
	}
	defer func() {
		if err := release(); err != nil {
			d.log.Warn().Err(err).Msg("release the store lock")
		}
	}()
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
	d.username = acct.Username
	d.log = d.log.With().Str("bot", acct.Username).Logger()
	if d.hooks.AccountRead != nil {
		d.hooks.AccountRead(acct.Username)
	}
	d.log.Info().Str("server", d.api.BaseURL()).Msg("daemon starting")

	// The games and the event stream outlive ctx: at shutdown the stream
	// keeps answering challenges (declined "later") while the games finish
	// or are aborted; both end when the shutdown is complete.
	gamesCtx, stopGames := context.WithCancel(context.WithoutCancel(ctx))
	defer stopGames()
	streamCtx, stopStream := context.WithCancel(context.WithoutCancel(ctx))
	defer stopStream()

	live, err := d.resume(ctx, gamesCtx)
	if err != nil {
		d.log.Warn().Err(err).Msg("resume ongoing games")
	}
	if live != nil {
		d.resumeChat(gamesCtx, live)
	} else {
		close(d.chatSettled) // the games in progress are unknown: nothing to resume
	}
	d.wg.Add(1)
	go func() { defer d.wg.Done(); d.analysisWorker(gamesCtx) }()
	d.kickAnalysis()
	// The background jobs and the matchmaker end with ctx, or when the
	// event stream failed for good, once the shutdown is over.
	jobsCtx, stopJobs := context.WithCancel(ctx)
	defer stopJobs()
	for _, job := range d.bg {
		d.wg.Add(1)
		go func() { defer d.wg.Done(); job(jobsCtx) }()
	}
	if d.cfg.Matchmaking.Enabled {
		if d.blockLists != nil {
			d.wg.Add(1)
			go func() { defer d.wg.Done(); d.blockListWorker(jobsCtx) }()
		}
		d.wg.Add(1)
		go func() { defer d.wg.Done(); d.matchmaker(jobsCtx) }()
	}
	if d.arenas != nil {
		d.wg.Add(1)
		go func() { defer d.wg.Done(); d.tournaments(jobsCtx) }()
	}

	err = d.eventLoop(ctx, streamCtx, gamesCtx, stopGames)
	stopJobs()
	stopStream()
	stopGames()
	d.wg.Wait()
	d.log.Info().Msg("daemon stopped")
	return err
}

// eventLoop follows the event stream until ctx ends or the stream fails for
// good, and on through the shutdown, which it starts, until that is done.
func (d *Daemon) eventLoop(ctx, streamCtx, gamesCtx context.Context, stopGames context.CancelFunc) error {
	stream, err := d.api.StreamEvents(streamCtx)
	if err != nil {
		d.beginStop()
		d.shutdown(gamesCtx, stopGames)
		if ctx.Err() != nil {
			return nil
		}
		return fmt.Errorf("daemon: open event stream: %w", err)
	}
	defer stream.Close()
	tick := time.NewTicker(time.Second)
	defer tick.Stop()
	var (
		loopErr error
		done    chan struct{} // closed when the shutdown is complete; nil before it starts
		stop    = ctx.Done()
		events  = stream.Events()
	)
	startShutdown := func() {
		stop = nil
		d.beginStop()
		done = make(chan struct{})
		go func() { defer close(done); d.shutdown(gamesCtx, stopGames) }()
	}
	for {
		select {
		case <-stop:
			startShutdown()
		case <-done:
			return loopErr
		case <-tick.C:
			d.expireSlots()
			d.drainQueue(streamCtx)
		case ev, ok := <-events:
			if !ok {
				events = nil
				if done == nil {
					loopErr = fmt.Errorf("daemon: event stream ended: %w", stream.Err())
					d.log.Error().Err(loopErr).Msg("shutting down")
					startShutdown()
				}
				continue
			}
			d.onEvent(streamCtx, gamesCtx, ev)
		}
	}
}

func (d *Daemon) onEvent(ctx, gamesCtx context.Context, ev lichess.Event) {
	switch e := ev.(type) {
	case *lichess.ChallengeEvent:
		d.onChallenge(ctx, &e.Challenge)
	case *lichess.ChallengeCanceledEvent:
		d.dropQueued(e.Challenge.ID)
		if c := e.Challenge; c.Challenger != nil && strings.EqualFold(c.Challenger.ID, d.me) && c.DestUser != nil {
			d.takeOutgoing(c.DestUser.ID) // ours expired or was withdrawn
		}
	case *lichess.ChallengeDeclinedEvent:
		if dest := e.Challenge.DestUser; dest != nil {
			d.log.Info().Str("by", dest.Name).Str("reason", e.Challenge.DeclineReasonKey).Msg("our challenge was declined")
			if err := d.store.RecordDecline(ctx, dest.ID, e.Challenge.DeclineReasonKey); err != nil {
				d.log.Warn().Err(err).Msg("record decline")
			}
			// Only now is the slot free: the matchmaker, idle again, must
			// already see the decline.
			d.takeOutgoing(dest.ID)
		}
	case *lichess.GameStartEvent:
		d.onGameStart(ctx, gamesCtx, e.Game)
	case *lichess.GameFinishEvent:
		d.onGameFinishEvent(gamesCtx, e.Game)
	case *lichess.Reconnected:
		d.onReconnected(e)
	}
}

// onGameStart starts a game's runner. During a shutdown only "finish"
// plays a game that starts now (a challenge accepted just before); "abort"
// aborts it and "leave" leaves it for the next start.
func (d *Daemon) onGameStart(ctx, gamesCtx context.Context, info lichess.GameInfo) {
	d.mu.Lock()
	stopping := d.stopping
	d.mu.Unlock()
	if !stopping || d.cfg.Game.Shutdown == "finish" {
		d.startGame(gamesCtx, info)
		return
	}
	id := gameIDOf(info)
	if d.cfg.Game.Shutdown == "abort" {
		if err := d.bot.Abort(ctx, id); err == nil {
			d.finishFromServer(ctx, id)
			return
		}
	}
	d.log.Info().Str("game", id).Msg("game started during shutdown; left for the next start")
}

// beginStop makes the daemon refuse new games: challenges arriving from now
// on are declined "later" and the matchmaker sends none.
func (d *Daemon) beginStop() {
	d.mu.Lock()
	d.stopping = true
	d.mu.Unlock()
	if h := d.hooks.ShutdownStarted; h != nil {
		h(d.cfg.Game.Shutdown)
	}
}

// shutdown ends the running games as [game] shutdown says: "finish" waits
// up to shutdown_timeout for them and for their summaries, "abort" aborts
// those that can still be aborted and records them, "leave" leaves them all
// to be resumed on the next start. Queued challenges are declined "later"
// and pending challenges of ours are withdrawn. The games' context is
// cancelled on return.
func (d *Daemon) shutdown(gamesCtx context.Context, stopGames context.CancelFunc) {
	defer stopGames()
	d.mu.Lock()
	ids := make([]string, 0, len(d.games))
	for id := range d.games {
		ids = append(ids, id)
	}
	queued := d.queue
	d.queue = nil
	var ours []string
	for _, o := range d.outgoing {
		if o.id != "" {
			ours = append(ours, o.id)
		}
	}
	d.mu.Unlock()
	mode := d.cfg.Game.Shutdown
	d.log.Info().Str("mode", mode).Int("games", len(ids)).Int("queued", len(queued)).Msg("shutting down")
	octx, cancel := context.WithTimeout(gamesCtx, 10*time.Second)
	for _, o := range queued {
		d.decline(octx, o, Verdict{Reason: ReasonLater, Why: "shutting down"})
	}
	for _, id := range ours {
		if err := d.api.CancelChallenge(octx, id); err != nil {
			d.log.Info().Err(err).Str("challenge", id).Msg("withdraw our challenge")
		}
	}
	cancel()
	switch mode {
	case "abort":
		d.abortGames(gamesCtx, ids)
	case "finish":
		deadline := time.Now().Add(d.cfg.Game.ShutdownTimeout)
		if !d.waitGames(deadline) {
			d.log.Warn().Dur("timeout", d.cfg.Game.ShutdownTimeout).Strs("games", d.Playing()).
				Msg("games still running at the shutdown timeout; left for the next start")
		}
		d.waitSummaries(gamesCtx, deadline)
	}
}

// abortGames aborts the games that can still be aborted (nobody or only one
// side has moved) and waits a little for their runners to record the end;
// the others are left to be resumed on the next start. Nothing is resigned.
func (d *Daemon) abortGames(gamesCtx context.Context, ids []string) {
	actx, cancel := context.WithTimeout(gamesCtx, 10*time.Second)
	defer cancel()
	var aborted []string
	for _, id := range ids {
		if err := d.bot.Abort(actx, id); err != nil {
			d.log.Info().Err(err).Str("game", id).Msg("cannot abort; leaving the game for the next start")
			continue
		}
		d.log.Info().Str("game", id).Msg("aborted")
		aborted = append(aborted, id)
	}
	if len(aborted) == 0 {
		return
	}
	// The runners see the abort on their streams and record it; a game
	// whose runner did not is recorded from the server's export.
	deadline := time.Now().Add(5 * time.Second)
	for time.Now().Before(deadline) && d.anyRunning(aborted) {
		time.Sleep(50 * time.Millisecond)
	}
	for _, id := range aborted {
		if g, err := d.store.Game(actx, id); err == nil && !g.Finished() {
			d.finishFromServer(actx, id)
		}
	}
}

// anyRunning reports whether a runner of one of the games is still running
// or recording the game's end.
func (d *Daemon) anyRunning(ids []string) bool {
	d.mu.Lock()
	defer d.mu.Unlock()
	for _, id := range ids {
		if d.runners[id] > 0 {
			return true
		}
	}
	return false
}

// waitGames waits until no runner runs (a game's end recorded, its analysis
// queued) and no accepted challenge waits for its game, or the deadline
// passes; it reports whether everything ended.
func (d *Daemon) waitGames(deadline time.Time) bool {
	for {
		d.mu.Lock()
		n := len(d.runners) + len(d.games) + len(d.accepted)
		d.mu.Unlock()
		if n == 0 {
			return true
		}
		if !time.Now().Before(deadline) {
			return false
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// waitSummaries waits until every finished game's summary is posted (or its
// analysis failed), or the deadline passes.
func (d *Daemon) waitSummaries(ctx context.Context, deadline time.Time) {
	if d.sum == nil || !d.cfg.Summary.Enabled {
		return
	}
	d.kickAnalysis()
	for {
		left, err := d.store.AnalysesIn(ctx, store.AnalysisPending, store.AnalysisDone, store.AnalysisPosting)
		if err != nil || len(left) == 0 {
			return
		}
		if !time.Now().Before(deadline) {
			d.log.Warn().Int("summaries", len(left)).Msg("summaries not posted at the shutdown timeout; posted on the next start")
			return
		}
		time.Sleep(50 * time.Millisecond)
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
	return runner.Config{GameID: id, Me: d.me, EngineName: engineName, Game: Conduct(d.cfg.Game),
		Ponder: d.ponders(engineName), NewAlarm: d.hooks.NewAlarm, Logger: d.log.With().Str("engine", engineName).Logger()}
}
