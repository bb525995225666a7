// Package sandbox is a Lichess-compatible HTTP server for loopback use: bot
// and human accounts with tokens, challenges, games under real chess rules
// with clocks, ndjson event and game streams, game export and switchable
// fault injection. The daemon, the tests and the offline demo talk to it with
// the real Lichess client over real HTTP.
package sandbox

import (
	"context"
	crand "crypto/rand"
	"encoding/binary"
	"errors"
	"fmt"
	"math/rand"
	"net"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/rs/zerolog"
)

// Default timings, as on lichess.org.
const (
	DefaultKeepAlive     = 7 * time.Second
	DefaultChallengeTTL  = 20 * time.Second
	DefaultGoneAfter     = 10 * time.Second
	DefaultClaimWinAfter = 10 * time.Second
)

// Account is one sandbox user. Bot accounts use the BOT API, the others the
// Board API, exactly as on Lichess.
type Account struct {
	// Name is the user name; its lower-case form is the user id.
	Name string
	// Token is the API token (sent as "Authorization: Bearer TOKEN").
	Token string
	// Bot marks a BOT account.
	Bot bool
	// Rating is shown in every perf (default 1500).
	Rating int
	// Title is a FIDE/Lichess title such as "GM"; bots always show "BOT".
	Title string
	// Scopes are the OAuth scopes of Token (lila's keys, AllScopes). Nil
	// gives the defaults of the account's kind (bot:play or board:play,
	// challenge:read/write, engine:read/write); an empty, non-nil list
	// gives a token with no scope. A non-BOT account with a bot:play token
	// is Lichess's state before an upgrade to BOT.
	Scopes []string
}

// Config configures a Server. Zero durations take the defaults above.
type Config struct {
	// Accounts are the users known at start-up.
	Accounts []Account
	// KeepAlive is the interval of the blank keep-alive lines on streams.
	KeepAlive time.Duration
	// ChallengeTTL is how long a real-time challenge without
	// keepAliveStream waits to be accepted.
	ChallengeTTL time.Duration
	// NoStartTimeout, when set, is how long each side has for its first
	// move in every real-time game before the game ends as noStart,
	// whatever the speed. Zero (the default) applies Lichess's per-speed
	// deadlines (FirstMoveDeadline), scaled by TimeScale.
	NoStartTimeout time.Duration
	// TimeScale, when positive and not 1, runs every real-time game on a
	// scaled clock: the initial time, the increment and the first-move
	// deadline are multiplied by it, while the game keeps the speed, the
	// time control and the perf of the challenge's nominal clock. At
	// TimeScale 0.01 a 15+0 game is a rapid game with 9-second clocks and
	// a 0.3-second first-move deadline: tests play every speed in
	// seconds. Zero means 1 (real time); the scaled initial time is at
	// least 1 ms.
	TimeScale float64
	// GoneAfter is how long a player's game streams must all be closed
	// before the opponent is told (opponentGone) that the player left.
	GoneAfter time.Duration
	// ClaimWinAfter is the countdown (claimWinInSeconds) after the
	// opponentGone event before victory (or a draw) can be claimed.
	ClaimWinAfter time.Duration
	// BotGamesPerDay is the cap on each BOT account's games against other
	// bots in a day, as lila's BotLimit applies it (0: Lichess's 100;
	// negative: no cap).
	BotGamesPerDay int
	// RequestLimits applies lila's request limits (ratelimit.go: event
	// stream openings, /api/account, challenge creation) with every
	// limit's credits multiplied by it: 1 is Lichess's; 0 or negative (the
	// default) applies none, so tests and the demo are never limited.
	RequestLimits float64
	// Now is the clock (default time.Now).
	Now func() time.Time
	// Logger receives request and game logs; tokens are never logged.
	Logger zerolog.Logger
	// Seed seeds the random faults and other random choices (0 picks a fixed
	// seed of 1). Game and challenge ids are always fresh, never from Seed.
	Seed int64
	// Analyser, when set, analyses every finished game (at least one move,
	// not aborted) as Lichess's fishnet would; the sandbox then serves the
	// game's positions on /api/cloud-eval and, AnalysisDelay after the
	// game's end, attaches the analysis to its export. See Analyser.
	Analyser Analyser
	// AnalysisDelay is how long after a game's end its server analysis
	// appears (0: as soon as it is computed).
	AnalysisDelay time.Duration
	// OnAnalysis, when set, is called once a game's server analysis is
	// attached (err nil) or failed (tests synchronise on it).
	OnAnalysis func(gameID string, err error)
	// Tablebase, when set, resolves the positions of the sandbox's
	// tablebase endpoint (GET /standard); without it only ended
	// positions are resolved and every other is "unknown".
	Tablebase TablebaseProber
	// OnMove, when set, is called after each move the server accepts, with
	// the game's id and its number of plies then (tests synchronise on it
	// instead of polling). It runs on the move request's goroutine before
	// the answer is written, without the server's lock: it may call the
	// server's inspection methods.
	OnMove func(gameID string, plies int)
	// OnRequest, when set, is called with each request's record once it is
	// answered and recorded (tests synchronise on it instead of polling
	// Requests). It runs on the request's goroutine, without the server's
	// lock.
	OnRequest func(RequestRecord)
	// EngineAcquireWait is how long the broker holds a provider's long
	// poll before answering 204 (0: lila-engine's 10 s); EngineStartWait
	// how long an analysis request waits for a provider to take it before
	// 503 (0: lila-engine's 15 s). Tests shorten both.
	EngineAcquireWait, EngineStartWait time.Duration
	// ArenaTick is how often the arenas are organised: started, paired,
	// finished (0: DefaultArenaTick, lila's StartedOrganizer period).
	ArenaTick time.Duration
	// OnArenaEnd, when set, is called with an arena's id once it has
	// finished (tests synchronise on it), without the server's lock.
	OnArenaEnd func(id string)
}

// Server is the sandbox. It is an http.Handler; Listen serves it on a
// loopback address. All methods are safe for concurrent use.
type Server struct {
	cfg    Config
	log    zerolog.Logger
	faults *Faults
	mux    *router

	mu  sync.Mutex
	rng *rand.Rand
	// ids draws game and challenge ids. It is seeded from crypto/rand, not
	// from Config.Seed: a restarted sandbox must never hand out an id it
	// gave before, or a client's finished game would be overwritten by a
	// new one with the same id.
	ids        *rand.Rand
	accounts   map[string]*account // by user id
	tokens     map[string]*account
	challenges map[string]*challenge
	games      map[string]*game
	order      []string               // game ids in creation order
	events     map[string]*subscriber // event stream per token
	botGames   map[string]*botGames   // bot-vs-bot games in the cap's window, by user id
	limits     *requestLimits         // lila's request limits; nil: none
	requests   []RequestRecord
	cloudEvals map[string]CloudEval // by FEN without move counters
	explorer   map[explorerKey][]ExplorerMove
	arenas     map[string]*arena // arena tournaments by id (arena.go)
	arenaOrder []string          // arena ids in creation order
	arenaLoop  bool              // the arena organizer runs
	baseURL    string
	closed     bool
	httpSrv    *http.Server
	done       chan struct{}

	ext extEngines // external engines and their broker (extengine.go)

	bg       sync.WaitGroup // server analyses in progress
	bgCtx    context.Context
	bgCancel context.CancelFunc
}

// account is the server-side state of one user.
type account struct {
	Account
	id          string
	tokenScopes []string // the token's scopes, fixed when it was made
	createdAt   time.Time
	seenAt      time.Time
}

// New returns a Server for cfg, with the defaults filled in.
func New(cfg Config) *Server {
	if cfg.KeepAlive <= 0 {
		cfg.KeepAlive = DefaultKeepAlive
	}
	if cfg.ChallengeTTL <= 0 {
		cfg.ChallengeTTL = DefaultChallengeTTL
	}
	if cfg.NoStartTimeout < 0 {
		cfg.NoStartTimeout = 0
	}
	if cfg.TimeScale <= 0 {
		cfg.TimeScale = 1
	}
	if cfg.GoneAfter <= 0 {
		cfg.GoneAfter = DefaultGoneAfter
	}
	if cfg.ClaimWinAfter <= 0 {
		cfg.ClaimWinAfter = DefaultClaimWinAfter
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	seed := cfg.Seed
	if seed == 0 {
		seed = 1
	}
	s := &Server{
		cfg:        cfg,
		log:        cfg.Logger.With().Str("component", "sandbox").Logger(),
		faults:     newFaults(seed),
		rng:        rand.New(rand.NewSource(seed)),
		ids:        rand.New(rand.NewSource(cryptoSeed())),
		accounts:   map[string]*account{},
		tokens:     map[string]*account{},
		challenges: map[string]*challenge{},
		games:      map[string]*game{},
		events:     map[string]*subscriber{},
		botGames:   map[string]*botGames{},
		limits:     newRequestLimits(cfg.RequestLimits),
		cloudEvals: map[string]CloudEval{},
		explorer:   map[explorerKey][]ExplorerMove{},
		arenas:     map[string]*arena{},
		baseURL:    "http://127.0.0.1",
		done:       make(chan struct{}),
	}
	s.bgCtx, s.bgCancel = context.WithCancel(context.Background())
	for _, a := range cfg.Accounts {
		s.AddAccount(a)
	}
	s.mux = s.routes()
	return s
}

// AddAccount adds (or replaces) an account.
func (s *Server) AddAccount(a Account) {
	if a.Rating == 0 {
		a.Rating = 1500
	}
	if a.Bot {
		a.Title = "BOT"
	}
	id := strings.ToLower(a.Name)
	s.mu.Lock()
	defer s.mu.Unlock()
	if old, ok := s.accounts[id]; ok {
		delete(s.tokens, old.Token)
	}
	acc := &account{Account: a, id: id, tokenScopes: tokenScopesOf(a), createdAt: s.cfg.Now()}
	s.accounts[id] = acc
	if a.Token != "" {
		s.tokens[a.Token] = acc
	}
}

// Faults returns the fault injector, to switch faults on and off at run time.
func (s *Server) Faults() *Faults { return s.faults }

// Listen serves the sandbox on addr (e.g. "127.0.0.1:0") in the background
// until ctx ends or Close is called, and returns its base URL.
func (s *Server) Listen(ctx context.Context, addr string) (string, error) {
	var lc net.ListenConfig
	ln, err := lc.Listen(ctx, "tcp", addr)
	if err != nil {
		return "", fmt.Errorf("sandbox: listen on %s: %w", addr, err)
	}
	url := "http://" + ln.Addr().String()
	srv := &http.Server{Handler: s, ReadHeaderTimeout: 10 * time.Second}
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		_ = ln.Close()
		return "", errors.New("sandbox: listen: server closed")
	}
	s.baseURL = url
	s.httpSrv = srv
	s.mu.Unlock()
	go func() {
		if err := srv.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
			s.log.Error().Err(err).Msg("serve")
		}
	}()
	go func() {
		select {
		case <-ctx.Done():
			s.Close()
		case <-s.done:
		}
	}()
	return url, nil
}

// Close stops the listener started by Listen, ends every open stream and
// stops all timers. It is safe to call more than once.
func (s *Server) Close() {
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		return
	}
	s.closed = true
	close(s.done)
	srv := s.httpSrv
	for _, g := range s.games {
		g.stopTimer()
	}
	for _, c := range s.challenges {
		c.stopTimer()
	}
	s.mu.Unlock()
	s.faults.releaseHolds()
	s.bgCancel()
	s.bg.Wait()
	if srv != nil {
		ctx, cancel := context.WithTimeout(context.Background(), time.Second)
		defer cancel()
		_ = srv.Shutdown(ctx)
		_ = srv.Close()
	}
}

// now is the configured clock.
func (s *Server) now() time.Time { return s.cfg.Now() }

// newID returns a fresh random id of n letters and digits (called with mu held).
func (s *Server) newID(n int) string {
	const alphabet = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
	for {
		b := make([]byte, n)
		for i := range b {
			b[i] = alphabet[s.ids.Intn(len(alphabet))]
		}
		id := string(b)
		if _, ok := s.games[id]; ok {
			continue
		}
		if _, ok := s.challenges[id]; ok {
			continue
		}
		return id
	}
}

// cryptoSeed returns a seed from the system's random source.
func cryptoSeed() int64 {
	var b [8]byte
	if _, err := crand.Read(b[:]); err != nil {
		return time.Now().UnixNano() // crypto/rand does not fail on supported systems
	}
	return int64(binary.LittleEndian.Uint64(b[:]))
}
