// Package demo runs Outpost's daemon against an embedded Lichess sandbox,
// over real loopback HTTP, with a sparring partner (a built-in engine on a
// human account) that keeps challenging the bot. It is the README's first
// command (outpost run --sandbox) and the harness of the daemon's
// end-to-end and soak tests.
package demo

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/rs/zerolog"

	"github.com/outpostchess/outpost/bots"
	"github.com/outpostchess/outpost/config"
	"github.com/outpostchess/outpost/internal/daemon"
	"github.com/outpostchess/outpost/internal/sandbox"
	"github.com/outpostchess/outpost/internal/store"
	"github.com/outpostchess/outpost/internal/verify"
	"github.com/outpostchess/outpost/lichess"
	"github.com/outpostchess/outpost/models/maiaengine"
)

// Account names in the embedded sandbox.
const (
	BotName      = "OutpostBot"
	SparringName = "Sparring"
)

// Options configure a demo run.
type Options struct {
	// Config is the daemon's configuration; its Lichess URL, store and PGN
	// directory are replaced by the demo's own.
	Config *config.Config
	// Games ends the run once this many games are over and summarised
	// (0 = until ctx ends).
	Games int
	// TC is the sparring partner's time control, "MINUTES+SECONDS".
	TC string
	// Sparring is the sparring partner's engine spec (default "easy").
	Sparring string
	// Dir holds the store and PGNs (default: a new temporary directory).
	Dir string
	// Out receives each finished game's PGN and chat transcript.
	Out io.Writer
	// Summariser analyses finished games (nil: no summaries).
	Summariser daemon.Summariser
	// Engines builds the daemon's engines (default: from Config, as the
	// demo rewrites it, so that the engines' Lichess move sources ask the
	// sandbox).
	Engines daemon.EngineFactory
	// EngineOptions are extra options of the default engine factory (a
	// Maia predictor, for example).
	EngineOptions []bots.Option
	// Sandbox tunes the embedded server (accounts are set by the demo).
	Sandbox sandbox.Config
	// Client tunes the daemon's client (BaseURL and Token are set by the
	// demo).
	Client lichess.Options
	// Logger receives the daemon's and the sandbox's logs.
	Logger zerolog.Logger
	// Ready, when set, is called with the running sandbox before the
	// daemon starts (tests switch faults on through it).
	Ready func(*sandbox.Server)
	// Sparrers is how many sparring partners play the bot at once
	// (default 1); set [challenge] max_games to match.
	Sparrers int
	// Ungated lets the sparring partners challenge as often as they like,
	// also once the run's games are started (see gate): for tests of a run
	// that sees more games end than it counts.
	Ungated bool
	// NoSparring runs no human sparring partner (the matchmaking tests
	// have the bot challenge Bots instead).
	NoSparring bool
	// Days makes the sparring partners send correspondence challenges with
	// this many days per move instead of TC.
	Days int
	// SparringResignAfter makes the sparring partners resign instead of
	// making their move number SparringResignAfter+1 (0: play to the end).
	SparringResignAfter int
	// SparringResignEarly makes a sparring partner playing Black resign
	// right after its move number SparringResignAfter, without waiting for
	// the bot's reply (the game can no longer be aborted then): the bot
	// plays only its first move, on the first-move deadline.
	SparringResignEarly bool
	// SparringHoldAfter makes the sparring partners stop moving after
	// their move number SparringHoldAfter (0: never): the game stays
	// running, the partner to move, until the run ends — for tests of a
	// game the daemon leaves, which must not end on the board meanwhile.
	SparringHoldAfter int
	// SparringFEN makes the sparring partners challenge from this position
	// (variant fromPosition, or one of the 960 start positions with
	// SparringVariant "chess960").
	SparringFEN string
	// SparringVariant is the variant key of the sparring partners'
	// challenges ("" = standard, or fromPosition with SparringFEN); the
	// daemon's [challenge] variants gain it for the run.
	SparringVariant string
	// SparringMoveDelay makes the sparring partners wait this long before
	// each move, so that a game lasts (the shutdown tests).
	SparringMoveDelay time.Duration
	// Bots are scripted BOT accounts, online from the start, that answer
	// the daemon's challenges (matchmaking).
	Bots []SparringBot
	// Arena, when above 0, runs an arena of this many sparring bots
	// instead of the sparring partner (arena.go): the games use TC, the
	// run ends once the arena has ended and the daemon has left it.
	Arena int
	// ArenaDuration is the arena's length (0: DefaultArenaDuration).
	ArenaDuration time.Duration
	// ArenaStartIn is how long after the run's start the arena starts
	// (0: at once; tests start it with sandbox.Server.StartArena).
	ArenaStartIn time.Duration
	// Stop, when it fires, shuts the daemon down as SIGINT would, with the
	// configured [game] shutdown mode, while the sandbox and the sparring
	// partners stay up; Run returns once the daemon has returned. Without
	// Stop the daemon always runs with shutdown = "leave", because the
	// sandbox goes away with it.
	Stop <-chan struct{}
	// Restart: each value received stops the daemon as a crash would (its
	// games left running) and starts a new one on the same store. Send on
	// it; do not close it.
	Restart <-chan struct{}
	// WhileDown, when set, is called after each Restart has stopped the
	// daemon and before the next one starts, with the sandbox and the
	// sparring partners' tokens: tests act for the opponent (resign, say)
	// while the bot is down.
	WhileDown func(ctx context.Context, s *sandbox.Server, sparringTokens []string)
	// Hooks are called in addition to the demo's own.
	Hooks daemon.Hooks
	// BotToken is the bot account's token (default: random).
	BotToken string
	// Verify tunes the verification worker, which runs when [verify] is
	// enabled (its clock and hooks; the schedule comes from the config,
	// the client and store from the demo).
	Verify verify.Options
}

// Result is what a demo run produced.
type Result struct {
	URL      string
	Games    []store.Game
	Summary  map[string][]string // posted summary lines by game id
	Sandbox  *sandbox.Server
	StoreDir string
	// Arena is the arena's final state (Options.Arena runs only).
	Arena *sandbox.ArenaInfo
}

// checkSparring builds the sparring partner's engine once, so that a spec
// that cannot play fails at the start, naming it, instead of the partner
// declining every game.
func checkSparring(ctx context.Context, spec string) error {
	eng, err := bots.New(ctx, spec, maiaengine.Register(nil))
	if err != nil {
		return fmt.Errorf("demo: sparring engine %q: %w", spec, err)
	}
	if err := eng.Close(); err != nil {
		return fmt.Errorf("demo: sparring engine %q: close: %w", spec, err)
	}
	return nil
}

// defaults fills opt's unset options and checks the time control and the
// sparring engine; it returns the parsed time control.
func (opt *Options) defaults(ctx context.Context) (config.TimeControl, error) {
	if opt.Config == nil {
		opt.Config = config.Default()
	}
	if opt.Out == nil {
		opt.Out = io.Discard
	}
	if opt.Sparring == "" {
		opt.Sparring = "easy"
	}
	if opt.TC == "" {
		opt.TC = "1+0"
	}
	tc, err := config.ParseTimeControl(opt.TC)
	if err != nil {
		return tc, fmt.Errorf("demo: %w", err)
	}
	if opt.Days == 0 && !opt.NoSparring && tc.Speed() == "ultraBullet" {
		return tc, fmt.Errorf("demo: time control %s is UltraBullet, which Lichess does not let BOT accounts play (the shortest they may play is bullet, such as 0.5+0)", opt.TC)
	}
	return tc, checkSparring(ctx, opt.Sparring)
}

// accounts returns the sandbox configuration with the bot's, the sparring
// partners' and the other bots' accounts, and the partners' and other bots'
// tokens.
func (opt *Options) accounts(botToken string) (sbCfg sandbox.Config, sparTokens, botTokens []string) {
	sbCfg = opt.Sandbox
	sbCfg.Accounts = []sandbox.Account{{Name: BotName, Token: botToken, Bot: true, Rating: 1500}}
	sparrers := max(opt.Sparrers, 1)
	if opt.NoSparring {
		sparrers = 0
	}
	for i := 0; i < sparrers; i++ {
		sparTokens = append(sparTokens, "lip_"+randomHex(12))
		sbCfg.Accounts = append(sbCfg.Accounts, sandbox.Account{Name: sparringName(i), Token: sparTokens[i], Rating: 1500})
	}
	botTokens = make([]string, len(opt.Bots))
	for i, b := range opt.Bots {
		botTokens[i] = "lip_" + randomHex(12)
		sbCfg.Accounts = append(sbCfg.Accounts, b.sandboxAccount(botTokens[i]))
	}
	return sbCfg, sparTokens, botTokens
}

// runDaemons runs the daemon until runCtx ends or opt.Stop, starting it
// again on opt.Restart. It returns the last run's error, or an error that
// kept a daemon from starting.
func runDaemons(runCtx context.Context, opt Options, copt lichess.Options, cfg *config.Config, st *store.Store,
	engines daemon.EngineFactory, hooks daemon.Hooks, vf *verifyFlow, report func(string, []string), whileDown func()) (runErr, err error) {
	for {
		dcopt := copt // each (re)started daemon reads the lockout back from the store
		if err := daemon.PersistLockouts(runCtx, st, &dcopt, copt.Logger); err != nil {
			return runErr, err
		}
		client, err := lichess.New(dcopt)
		if err != nil {
			return runErr, err
		}
		dhooks := hooks
		sum, lines, bg, err := vf.wire(opt, client, st, &dhooks, report)
		if err != nil {
			client.Close()
			return runErr, err
		}
		d, err := daemon.New(daemon.Options{Config: cfg, Client: client, Store: st, Engines: engines,
			Summariser: sum, SummaryLines: lines, Hooks: dhooks, Background: bg, Logger: opt.Logger.With().Str("component", "daemon").Logger()})
		if err != nil {
			client.Close()
			return runErr, err
		}
		dctx, crash := context.WithCancel(runCtx)
		restarted, stopped := make(chan struct{}), make(chan struct{})
		watched := make(chan struct{})
		go func() {
			defer close(watched)
			select {
			case <-opt.Restart:
				close(restarted)
				crash()
			case <-opt.Stop:
				close(stopped)
				crash()
			case <-dctx.Done():
			}
		}()
		runErr = d.Run(dctx)
		crash()
		<-watched
		client.Close()
		select {
		case <-restarted:
			if whileDown != nil {
				whileDown()
			}
			fmt.Fprintln(opt.Out, "(daemon restarted)")
			continue
		case <-stopped:
			fmt.Fprintln(opt.Out, "(daemon stopped)")
		default:
		}
		break
	}
	return runErr, nil
}

// demoHooks are opt.Hooks with the demo's own: a game counts as done when
// it is over (no summariser, or [summary] enabled = false), else once its
// summary is posted (and verified,
// when the verification flow is on) or refused by the server for good.
func demoHooks(opt Options, vf *verifyFlow, report func(string, []string)) daemon.Hooks {
	hooks := opt.Hooks
	if opt.Summariser == nil || !opt.Config.Summary.Enabled {
		inner := hooks.GameFinished
		hooks.GameFinished = func(g store.Game) {
			if inner != nil {
				inner(g)
			}
			report(g.ID, nil)
		}
	} else {
		inner := hooks.SummaryPosted
		hooks.SummaryPosted = func(id string, lines []string) {
			if inner != nil {
				inner(id, lines)
			}
			if vf.on {
				vf.posted(id, lines, report) // reported once verified too
				return
			}
			report(id, lines)
		}
		failed := hooks.SummaryFailed
		hooks.SummaryFailed = func(id string, reason error) {
			if failed != nil {
				failed(id, reason)
			}
			report(id, nil) // refused for good: no summary will come
		}
	}
	return hooks
}

// Run starts the sandbox, the sparring partner and the daemon, and returns
// once opt.Games games are over and summarised, or ctx ends.
// Long: the wiring of sandbox, store, sparring partners and daemon in start
// order, each step's failure stopping what was started before it.
func Run(ctx context.Context, opt Options) (*Result, error) {
	tc, err := opt.defaults(ctx)
	if err != nil {
		return nil, err
	}
	if opt.Dir == "" {
		if opt.Dir, err = os.MkdirTemp("", "outpost-demo-"); err != nil {
			return nil, fmt.Errorf("demo: %w", err)
		}
	}
	botToken := opt.BotToken
	if botToken == "" {
		botToken = "lip_" + randomHex(12)
	}
	opt.addArenaBots()
	sbCfg, sparTokens, botTokens := opt.accounts(botToken)
	sbCfg.Logger = opt.Logger.With().Str("component", "sandbox").Logger()
	vf := newVerifyFlow(opt)
	if vf.on {
		inner := sbCfg.OnAnalysis
		sbCfg.OnAnalysis = func(id string, err error) {
			vf.analysed(id, err)
			if inner != nil {
				inner(id, err)
			}
		}
	}
	if sbCfg.Tablebase == nil {
		sbCfg.Tablebase = sandbox.MateSearchProber{} // exact near mates; see internal/sandbox
	}
	srv := sandbox.New(sbCfg)
	runCtx, stop := context.WithCancel(ctx)
	defer stop()
	// The sandbox outlives runCtx, so that a daemon shutting down can still
	// finish or abort its games; it closes when Run returns.
	url, err := srv.Listen(context.WithoutCancel(ctx), "127.0.0.1:0")
	if err != nil {
		return nil, fmt.Errorf("demo: start sandbox: %w", err)
	}
	defer srv.Close()
	scale := ""
	if s := sbCfg.TimeScale; s > 0 && s != 1 {
		scale = fmt.Sprintf(", clocks scaled ×%g", s)
	}
	speed := opt.TC
	if opt.Days > 0 {
		speed, scale = fmt.Sprintf("correspondence, %d days per move", opt.Days), ""
		if opt.Days == 1 {
			speed = "correspondence, 1 day per move"
		}
	}
	fmt.Fprintf(opt.Out, "Lichess sandbox on %s (bot %s, sparring partner %s playing %s at %s%s)\n",
		url, BotName, SparringName, opt.Sparring, speed, scale)

	cfg := *opt.Config
	if v := opt.SparringVariant; v != "" && !slices.Contains(cfg.Challenge.Variants, v) {
		cfg.Challenge.Variants = append(slices.Clone(cfg.Challenge.Variants), v)
	}
	arenaID, err := opt.createArena(srv, tc, &cfg)
	if err != nil {
		return nil, err
	}
	cfg.Lichess.URL = url
	cfg.Lichess.ExplorerURL, cfg.Lichess.TablebaseURL = url, url // the sandbox serves both
	cfg.Store.Path = filepath.Join(opt.Dir, "outpost.db")
	cfg.Store.PGNDir = filepath.Join(opt.Dir, "pgn")
	if opt.Stop == nil {
		cfg.Game.Shutdown = "leave"
	}
	st, err := store.Open(ctx, cfg.Store.Path)
	if err != nil {
		return nil, err
	}
	defer st.Close()

	copt := opt.Client
	copt.BaseURL, copt.Token = url, lichess.Token(botToken)
	copt.Logger = opt.Logger // the client adds its component ("lichess")
	if copt.RateLimit == 0 {
		copt.RateLimit = time.Duration(cfg.RateLimit.Seconds) * time.Second
	}
	res := &Result{URL: url, Summary: map[string][]string{}, Sandbox: srv, StoreDir: opt.Dir}
	var mu sync.Mutex
	finished := 0
	gt := newGate(opt.Games)
	report := func(id string, lines []string) {
		mu.Lock()
		defer mu.Unlock()
		if _, seen := res.Summary[id]; seen {
			return
		}
		if opt.Games > 0 && finished >= opt.Games {
			// The run is over: a game of the sparring partner that ends
			// while the daemon stops is not one of its games (the result
			// holds exactly opt.Games of them).
			return
		}
		res.Summary[id] = lines
		finished++
		if opt.Games > 0 && finished >= opt.Games {
			// Stop before the gate opens: a sparring partner woken by
			// the last report must find the run over, not challenge
			// again while the daemon is still accepting (seen under
			// load: the bot played a move of an extra game).
			stop()
		}
		gt.gameReported(id)
		printGame(opt.Out, srv, st, id, finished, opt.Games)
	}
	hooks := demoHooks(opt, vf, report)
	if arenaID != "" {
		left := hooks.ArenaLeft
		hooks.ArenaLeft = func(id, why string) {
			if left != nil {
				left(id, why)
			}
			if id == arenaID && why == arenaEnded {
				stop() // the arena is over: so is the run
			}
		}
	}
	endedHook := hooks.GameFinished
	hooks.GameFinished = func(g store.Game) {
		// No summary will come for an aborted or unstarted game: it frees
		// its place. With [summary] enabled = false every game is reported
		// as it ends (demoHooks), which stops the run before the gate
		// opens; voiding it first opened the gate early, and under load a
		// sparring partner challenged again before the run stopped (a
		// demo of one game played two).
		if opt.Summariser != nil && cfg.Summary.Enabled && (g.Status == string(lichess.StatusAborted) || g.Status == string(lichess.StatusNoStart)) {
			gt.gameVoided(g.ID)
		}
		if endedHook != nil {
			endedHook(g)
		}
	}
	engines := opt.Engines
	if engines == nil {
		engines = daemon.NewEngineFactory(&cfg, opt.Logger, opt.EngineOptions...)
	}
	if opt.Ready != nil {
		opt.Ready(srv)
	}
	var wg sync.WaitGroup
	fail := func(err error) (*Result, error) {
		stop()
		wg.Wait()
		return nil, err
	}
	for i := range sparTokens {
		sp, err := newSparring(url, sparTokens[i], sparringName(i), opt, tc, &cfg)
		if err != nil {
			return fail(err)
		}
		if !opt.Ungated {
			sp.gate = gt
		}
		wg.Add(1)
		go func() { defer wg.Done(); sp.run(runCtx) }()
	}
	for i, spec := range opt.Bots {
		b, err := newSparBot(url, botTokens[i], spec, opt, &cfg)
		if err != nil {
			return fail(err)
		}
		b.arena = arenaID
		wg.Add(1)
		go func() { defer wg.Done(); b.run(runCtx) }()
	}
	if err := waitOnline(runCtx, srv, opt.Bots); err != nil {
		return fail(err)
	}
	var whileDown func()
	if opt.WhileDown != nil {
		whileDown = func() { opt.WhileDown(runCtx, srv, sparTokens) }
	}
	runErr, err := runDaemons(runCtx, opt, copt, &cfg, st, engines, hooks, vf, report, whileDown)
	if err != nil {
		return fail(err)
	}
	stop()
	wg.Wait()
	if arenaID != "" {
		res.Arena = printArena(opt.Out, srv, arenaID)
	}
	games, gamesErr := st.RecentGames(context.WithoutCancel(ctx), 1000)
	res.Games = games
	if gamesErr != nil {
		gamesErr = fmt.Errorf("demo: read the games played: %w", gamesErr)
	}
	if runErr != nil {
		return res, errors.Join(runErr, gamesErr)
	}
	if gamesErr != nil {
		return res, gamesErr
	}
	if opt.Games > 0 && finished < opt.Games {
		return res, fmt.Errorf("demo: stopped after %d of %d games%s: %w", finished, opt.Games, waitingOn(srv, gt.pending()), ctx.Err())
	}
	return res, nil
}

// waitingOn describes the games a run that stopped short was waiting on —
// started by a sparring partner, never summarised nor voided — with their
// state on the sandbox, so that a run past its deadline says why.
func waitingOn(srv *sandbox.Server, ids []string) string {
	if len(ids) == 0 {
		return ""
	}
	parts := make([]string, 0, len(ids))
	for _, id := range ids {
		g, ok := srv.Game(id)
		if !ok {
			parts = append(parts, id+" (unknown to the sandbox)")
			continue
		}
		last := g.LastMoveAt
		if last.IsZero() {
			last = g.CreatedAt
		}
		parts = append(parts, fmt.Sprintf("%s (%s after %d plies, white %s, black %s, last change %s)",
			id, g.Status, len(g.Moves), g.WhiteTime.Round(time.Millisecond), g.BlackTime.Round(time.Millisecond),
			last.UTC().Format("15:04:05.000")))
	}
	return "; waiting on " + strings.Join(parts, ", ")
}

// printGame writes a finished game's PGN and chat transcript.
func printGame(w io.Writer, srv *sandbox.Server, st *store.Store, id string, n, of int) {
	pgn, err := srv.ExportPGN(id)
	if err != nil {
		if g, gerr := st.Game(context.Background(), id); gerr == nil {
			pgn = g.PGN
		}
	}
	total := ""
	if of > 0 {
		total = fmt.Sprintf("/%d", of)
	}
	fmt.Fprintf(w, "\n=== Game %d%s: %s ===\n%s\n", n, total, id, strings.TrimSpace(pgn))
	fmt.Fprintln(w, "--- chat ---")
	for _, l := range srv.Chat(id) {
		fmt.Fprintf(w, "[%s] %s: %s\n", l.Room, l.User, l.Text)
	}
	if v, err := st.Verification(context.Background(), id); err == nil {
		fmt.Fprintf(w, "--- %s ---\n", verify.Text(v, verify.StandIn))
	}
}

// sparringName names the i-th sparring partner: Sparring, Sparring2, …
func sparringName(i int) string {
	if i == 0 {
		return SparringName
	}
	return fmt.Sprintf("%s%d", SparringName, i+1)
}

func randomHex(n int) string {
	b := make([]byte, n)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}

// waitOnline waits until every scripted bot's event stream is open, so
// that the daemon's first look at the online bots sees them all.
func waitOnline(ctx context.Context, srv *sandbox.Server, bots []SparringBot) error {
	deadline := time.Now().Add(10 * time.Second)
	for _, b := range bots {
		for !srv.Online(b.Name) {
			if ctx.Err() != nil || time.Now().After(deadline) {
				return fmt.Errorf("demo: sparring bot %s did not come online", b.Name)
			}
			time.Sleep(10 * time.Millisecond)
		}
	}
	return nil
}
