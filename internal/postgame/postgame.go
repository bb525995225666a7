// Package postgame is the daemon's post-game analysis: it analyses a
// finished game with the Stockfish pool at a small node budget and turns
// the analysis into the chat summary lines.
package postgame

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/rs/zerolog"

	"github.com/outpostchess/outpost/analysis"
	"github.com/outpostchess/outpost/analysis/chat"
	"github.com/outpostchess/outpost/analysis/ewr"
	"github.com/outpostchess/outpost/analysis/pgn"
	"github.com/outpostchess/outpost/internal/store"
)

// Summariser analyses finished games. It starts its engine pool on first
// use and keeps it for later games; Close stops it. It is safe for
// concurrent use (games are analysed one at a time).
type Summariser struct {
	cfg   analysis.PoolConfig
	nodes int64
	me    string

	// Expected winrate at the critical moment (optional, see WithEWR).
	ewr     *EWROptions
	ewrEval ewr.Evaluator // started on first use unless given

	// phases is the gate of the request being summarised (Request.Phases):
	// the engines this summariser starts, kept across games, and the Maia
	// batches wait on it and take their priority from it (see idleNice).
	phases *requestPhases
	// bound is the longest a summary takes (0: none); after replaces the
	// real timer in tests.
	bound time.Duration
	after func(time.Duration) <-chan time.Time
	log   zerolog.Logger
	// engineStart, when set, starts the summary's engines (tests).
	engineStart EngineStart

	mu   sync.Mutex
	pool *analysis.Pool
}

// New returns a summariser that analyses with an engine pool configured by
// cfg at nodes per position. me is our account name, used for our side's
// player name.
func New(cfg analysis.PoolConfig, nodes int64, me string) *Summariser {
	return &Summariser{cfg: cfg, nodes: nodes, me: me, phases: &requestPhases{p: noGames{}}, log: zerolog.Nop()}
}

// Request is one finished game to summarise, with what the daemon knows of
// it when the summary starts.
type Request struct {
	Game store.Game
	// Me is our account's username, our side's player name ("": the name
	// given to New).
	Me string
	// Phases is the daemon's gate of its games: the summary's Stockfish
	// searches and Maia batches wait on it, and its engines run at the
	// priority of the games' phase (see idleNice). nil: no game of ours
	// runs.
	Phases Phases
}

// Summary is one game's summary: the analysis (nil when the summary's
// bound came first), the same analysis as JSON (for the store) and the chat
// lines to post.
type Summary struct {
	Analysis *analysis.Analysis
	JSON     string
	Lines    []string
}

// requestPhases forwards to the gate of the request being summarised; the
// engines started for one request keep it for later ones.
type requestPhases struct {
	mu sync.Mutex
	p  Phases
}

func (r *requestPhases) set(p Phases) {
	if p == nil {
		p = noGames{}
	}
	r.mu.Lock()
	r.p = p
	r.mu.Unlock()
}

func (r *requestPhases) get() Phases {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.p
}

// Allowed implements ewr.Gate.
func (r *requestPhases) Allowed() (int, <-chan struct{}) { return r.get().Allowed() }

// OnClock implements Phases.
func (r *requestPhases) OnClock() (bool, <-chan struct{}) { return r.get().OnClock() }

// noGames is the Phases of a summariser without the daemon's gate: no game
// of ours is on the clock, so every engine may search at normal priority.
type noGames struct{}

func (noGames) Allowed() (int, <-chan struct{})  { return 1 << 20, nil }
func (noGames) OnClock() (bool, <-chan struct{}) { return false, nil }

// SetBound bounds every summary (0: no bound): d after its analysis
// started, the summary goes out with the parts that are ready — the
// analysis lines and EWRNotReady, or AnalysisNotReady alone — and log
// (which also receives the engines' warnings) says so, naming the game.
// after, when not nil, replaces the real timer (tests fire the bound by
// sending on or closing the channel it returns).
func (s *Summariser) SetBound(d time.Duration, after func(time.Duration) <-chan time.Time, log zerolog.Logger) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.bound, s.after, s.log = d, after, log
}

// EWROptions configure the summary's expected-winrate line.
type EWROptions struct {
	// Prober is Maia (required).
	Prober ewr.MoveProber
	// Cache, when not nil, keeps evaluations and results across games.
	Cache ewr.Cache
	// Engine is the Stockfish command line of the calculation's own
	// engines: Workers of them (default 1), one thread each, started on
	// first use at the lowest CPU priority (nice 19) and kept.
	Engine  []string
	Workers int
	// Evaluator, when not nil, is used instead of starting engines.
	Evaluator ewr.Evaluator
	// Timeout bounds the wait for the line (0: no bound); past it the
	// summary goes out with EWRNotReady instead.
	Timeout time.Duration
	// Mode is the calculation's mode (ewr.Modes; "" is ewr.DefaultMode,
	// the settle mode, whose engines clear their hash before every search).
	Mode string
	// Logger receives the reason when the line cannot be computed.
	Logger zerolog.Logger
}

// EWRNotReady is the summary line when the expected winrate was not
// computed within EWROptions.Timeout or the summary's bound; EWRFailed when
// it could not be computed at all (the reason is logged by the caller's
// error); AnalysisNotReady the summary's only line when the summary's
// bound came before the game's analysis was done.
const (
	EWRNotReady      = "Expected winrate: not ready in time."
	EWRFailed        = "Expected winrate: could not be computed."
	AnalysisNotReady = "Analysis: not ready in time (the machine was busy)."
)

// WithEWR adds one line to every summary: the expected winrate of the
// played move against the best practical move at the game's critical
// moment. It returns s.
func (s *Summariser) WithEWR(o EWROptions) *Summariser {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.ewr = &o
	s.ewrEval = o.Evaluator
	return s
}

// EngineStart starts one of the summary's engines, spec (its command
// resolved) at a niceness (0: normal priority, see idleNice).
type EngineStart func(ctx context.Context, spec analysis.EngineSpec, nice int) (analysis.Searcher, error)

// SetEngineStart replaces how the summary starts its engines — the
// post-game analysis pool's (with the pool's threads and hash) and the
// expected winrate's (one thread each) — (tests record the starts and
// their niceness, and wrap a real engine or a fake). Set it before the
// first summary.
func (s *Summariser) SetEngineStart(start EngineStart) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.engineStart = start
}

// Summarise analyses r's game once and returns the analysis, its JSON and
// the chat lines. Within the summary's bound (SetBound) it returns every
// line; past it, the parts that are ready.
func (s *Summariser) Summarise(ctx context.Context, r Request) (Summary, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	g, me := r.Game, r.Me
	if me == "" {
		me = s.me
	}
	s.phases.set(r.Phases)
	game := AnalysisGame(g, me)
	if len(game.Moves) == 0 {
		return Summary{}, fmt.Errorf("postgame: game %s has no moves", g.ID)
	}
	bctx, stop := s.bounded(ctx)
	defer stop()
	a, err := s.analyse(bctx, game)
	if err != nil {
		if ctx.Err() == nil && bctx.Err() != nil {
			s.logBound(g.ID, "the analysis")
			return Summary{Lines: []string{AnalysisNotReady}}, nil
		}
		return Summary{}, err
	}
	raw, err := json.Marshal(a)
	if err != nil {
		return Summary{}, fmt.Errorf("postgame: encode analysis of %s: %w", g.ID, err)
	}
	lines := chat.Summary(a)
	if line, ok := s.ewrLine(ctx, bctx, a, g.ID); ok {
		lines = append(lines, line)
	}
	return Summary{Analysis: a, JSON: string(raw), Lines: lines}, nil
}

// analyse runs the game's analysis on the pool, starting it on first use.
func (s *Summariser) analyse(ctx context.Context, game *analysis.Game) (*analysis.Analysis, error) {
	if s.pool == nil {
		p, err := s.newPool(ctx)
		if err != nil {
			return nil, fmt.Errorf("postgame: start engines: %w", err)
		}
		s.pool = p
	}
	as, errs, err := s.pool.AnalyseGames(ctx, []*analysis.Game{game}, analysis.EngineOptions{
		Budget: analysis.Budget{Nodes: s.nodes}, BorderlineBand: -1,
	})
	if err != nil {
		return nil, fmt.Errorf("postgame: analyse %s: %w", game.ID, err)
	}
	if errs[0] != nil {
		return nil, fmt.Errorf("postgame: analyse %s: %w", game.ID, errs[0])
	}
	return as[0], nil
}

// bounded returns ctx ended also by the summary's bound.
func (s *Summariser) bounded(ctx context.Context) (context.Context, func()) {
	if s.bound <= 0 {
		return ctx, func() {}
	}
	if s.after == nil {
		return context.WithTimeout(ctx, s.bound)
	}
	bctx, cancel := context.WithCancel(ctx)
	fired := s.after(s.bound)
	done := make(chan struct{})
	go func() {
		defer close(done)
		select {
		case <-fired:
			cancel()
		case <-bctx.Done():
		}
	}()
	return bctx, func() { cancel(); <-done }
}

// logBound says which part of game id's summary the bound left out.
func (s *Summariser) logBound(id, what string) {
	s.log.Warn().Str("game", id).Str("bot", s.me).Dur("bound", s.bound).
		Msgf("summary: %s was not ready at the summary's bound ([summary] timeout); posting the parts that are", what)
}

// ewrLine computes the expected-winrate line in bctx (ctx with the
// summary's bound), or reports false when there is none to give (no Maia,
// no judged move, or ctx ended). Past a time bound the line says so
// (EWRNotReady).
func (s *Summariser) ewrLine(ctx, bctx context.Context, a *analysis.Analysis, id string) (string, bool) {
	if s.ewr == nil || s.ewr.Prober == nil {
		return "", false
	}
	ply, ok := ewr.WorstPly(a)
	if !ok {
		return "", false
	}
	log := s.ewr.Logger.With().Str("game", id).Int("ply", ply).Logger()
	ev, err := s.ewrEvaluator(bctx)
	if err == nil {
		calc := &ewr.Calculator{Prober: ewr.GatedProber{MoveProber: s.ewr.Prober, Gate: s.phases}, Evaluator: ev, Cache: s.ewr.Cache}
		var m ewr.Moment
		m, err = ewr.AnalyseMoment(bctx, calc, ewr.FromAnalysis(a), ply, s.ewr.params(), ewr.Options{TimeLimit: s.ewr.Timeout})
		partial := m.Result != nil && m.Result.Partial
		switch {
		case err == nil && !partial:
			return m.Line(), true
		case partial && bctx.Err() == nil:
			// the line's own bound, [summary] ewr_timeout
			log.Info().Dur("bound", s.ewr.Timeout).Msg("expected winrate not ready in time")
			return EWRNotReady, true
		}
	}
	switch {
	case ctx.Err() != nil:
		return "", false
	case bctx.Err() != nil:
		s.logBound(id, "the expected winrate")
		return EWRNotReady, true
	}
	log.Warn().Err(err).Msg("expected winrate not computed")
	return EWRFailed, true
}

// params are the calculation's parameters: the defaults in o's mode (an
// unknown mode, refused by the configuration, is the default one).
func (o EWROptions) params() ewr.Params {
	p, ok := ewr.DefaultParams().WithMode(o.Mode)
	if !ok {
		p, _ = ewr.DefaultParams().WithMode(ewr.DefaultMode)
	}
	return p
}

// engineHash is the hash of o's engines and whether they clear it before
// every search: 16 MB cleared in a mode that needs it, else ewrHashMB kept
// across a calculation.
func (o EWROptions) engineHash() (hashMB int, clearEach bool) {
	if ewr.ModeClearsHash(o.Mode) {
		return ewr.ClearHashMB, true
	}
	return ewrHashMB, false
}

// ewrEvaluator returns the calculation's engines, starting them on first
// use (see idleNice for their priority).
func (s *Summariser) ewrEvaluator(ctx context.Context) (ewr.Evaluator, error) {
	if s.ewrEval != nil {
		return s.ewrEval, nil
	}
	hashMB, clearEach := s.ewr.engineHash()
	engines, err := s.ewrEngines(ctx, max(1, s.ewr.Workers), s.ewr.Engine, hashMB)
	if err != nil {
		return nil, fmt.Errorf("postgame: expected-winrate engines: %w", err)
	}
	e := ewr.NewEngineEvaluator(engines...)
	e.Gate = s.phases
	e.ClearEach = clearEach
	s.ewrEval = e
	return e, nil
}

// Close stops the engines (also the expected-winrate engines it started).
func (s *Summariser) Close() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	var errs []error
	if e, ok := s.ewrEval.(*ewr.EngineEvaluator); ok && (s.ewr == nil || s.ewr.Evaluator == nil) {
		errs = append(errs, e.Close())
		s.ewrEval = nil
	}
	if s.pool != nil {
		errs = append(errs, s.pool.Close())
		s.pool = nil
	}
	return errors.Join(errs...)
}

// AnalysisGame turns a stored game into an analysis input: its moves in
// UCI (the analysis replays them once, checking each and writing its SAN:
// analysis.Pool.AnalyseGames), players named from our side.
func AnalysisGame(g store.Game, me string) *analysis.Game {
	chess960 := g.Variant == "chess960"
	out := &analysis.Game{ID: g.ID, Source: "daemon", Index: 1, StartFEN: g.InitialFEN, Result: pgn.ResultOf(g.Winner, g.Status)}
	if chess960 {
		out.Tags = append(out.Tags, analysis.Tag{Name: "Variant", Value: "Chess960"})
	}
	if g.InitialFEN != "" {
		// PGN's standard: a game from another position names it.
		out.Tags = append(out.Tags, analysis.Tag{Name: "SetUp", Value: "1"}, analysis.Tag{Name: "FEN", Value: g.InitialFEN})
	}
	out.StartPly = startPly(g.InitialFEN)
	for _, u := range strings.Fields(g.Moves) {
		out.Moves = append(out.Moves, analysis.Move{UCI: u})
	}
	us := analysis.PlayerInfo{Name: me}
	them := analysis.PlayerInfo{Name: g.Opponent, Rating: g.OpponentRating}
	if g.Color == "black" {
		out.White, out.Black = them, us
	} else {
		out.White, out.Black = us, them
	}
	return out
}

// startPly is the number of plies before a FEN's position, from its side to
// move and fullmove number (0 for the standard start).
func startPly(fen string) int {
	f := strings.Fields(fen)
	if len(f) < 2 {
		return 0
	}
	full := 1
	if len(f) >= 6 {
		if n, err := strconv.Atoi(f[5]); err == nil && n > 0 {
			full = n
		}
	}
	ply := (full - 1) * 2
	if f[1] == "b" {
		ply++
	}
	return ply
}
