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

	"github.com/outpostchess/outpost/bots/board"

	"github.com/outpostchess/outpost/analysis"
	"github.com/outpostchess/outpost/analysis/chat"
	"github.com/outpostchess/outpost/analysis/ewr"
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
	ewrGate ewr.Gate
	ewrEval ewr.Evaluator // started on first use unless given

	mu   sync.Mutex
	pool *analysis.Pool
}

// New returns a summariser that analyses with an engine pool configured by
// cfg at nodes per position. me is our account name, used for our side's
// player name.
func New(cfg analysis.PoolConfig, nodes int64, me string) *Summariser {
	return &Summariser{cfg: cfg, nodes: nodes, me: me}
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
// computed within EWROptions.Timeout; EWRFailed when it could not be
// computed at all (the reason is logged by the caller's error).
const (
	EWRNotReady = "Expected winrate: not ready in time."
	EWRFailed   = "Expected winrate: could not be computed."
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

// SetGate makes the expected-winrate calculation wait on g before each
// Stockfish search and Maia batch (the daemon holds it back while a game
// is on the clock). Set it before the first summary.
func (s *Summariser) SetGate(g ewr.Gate) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.ewrGate = g
	if e, ok := s.ewrEval.(*ewr.EngineEvaluator); ok {
		e.Gate = g
	}
}

// SetMe sets our account name (known only once the daemon has read its
// account).
func (s *Summariser) SetMe(me string) {
	s.mu.Lock()
	s.me = me
	s.mu.Unlock()
}

// Summarise analyses g and returns the analysis as JSON and the chat lines.
func (s *Summariser) Summarise(ctx context.Context, g store.Game) (string, []string, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	game, err := GameOf(g, s.me)
	if err != nil {
		return "", nil, err
	}
	if len(game.Moves) == 0 {
		return "", nil, fmt.Errorf("postgame: game %s has no moves", g.ID)
	}
	if s.pool == nil {
		p, err := analysis.NewPool(ctx, s.cfg)
		if err != nil {
			return "", nil, fmt.Errorf("postgame: start engines: %w", err)
		}
		s.pool = p
	}
	as, errs, err := s.pool.AnalyseGames(ctx, []*analysis.Game{game}, analysis.EngineOptions{
		Budget: analysis.Budget{Nodes: s.nodes}, BorderlineBand: -1,
	})
	if err != nil {
		return "", nil, fmt.Errorf("postgame: analyse %s: %w", g.ID, err)
	}
	if errs[0] != nil {
		return "", nil, fmt.Errorf("postgame: analyse %s: %w", g.ID, errs[0])
	}
	raw, err := json.Marshal(as[0])
	if err != nil {
		return "", nil, fmt.Errorf("postgame: encode analysis of %s: %w", g.ID, err)
	}
	lines := chat.Summary(as[0])
	if line, ok := s.ewrLine(ctx, as[0]); ok {
		lines = append(lines, line)
	}
	return string(raw), lines, nil
}

// ewrLine computes the expected-winrate line, or reports false when there
// is none to give (no Maia, no judged move, or ctx ended). Past the time
// bound the line says so (EWRNotReady).
func (s *Summariser) ewrLine(ctx context.Context, a *analysis.Analysis) (string, bool) {
	if s.ewr == nil || s.ewr.Prober == nil {
		return "", false
	}
	ply, ok := ewr.WorstPly(a)
	if !ok {
		return "", false
	}
	log := s.ewr.Logger.With().Int("ply", ply).Logger()
	ev, err := s.ewrEvaluator(ctx)
	if err != nil {
		log.Warn().Err(err).Msg("expected winrate not computed")
		return EWRFailed, ctx.Err() == nil
	}
	calc := &ewr.Calculator{Prober: ewr.GatedProber{MoveProber: s.ewr.Prober, Gate: s.ewrGate}, Evaluator: ev, Cache: s.ewr.Cache}
	m, err := ewr.AnalyseMoment(ctx, calc, ewr.GameOf(a), ply, s.ewr.params(), ewr.Options{TimeLimit: s.ewr.Timeout})
	switch {
	case ctx.Err() != nil:
		return "", false
	case m.Result != nil && m.Result.Partial:
		log.Info().Dur("bound", s.ewr.Timeout).Msg("expected winrate not ready in time")
		return EWRNotReady, true
	case err != nil:
		log.Warn().Err(err).Msg("expected winrate not computed")
		return EWRFailed, true
	}
	return m.Line(), true
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

// engineConfig is the configuration of o's engines: niced, one thread
// each, clearing their hash before every search (16 MB) in a mode that
// needs it, else keeping 64 MB across a calculation.
func (o EWROptions) engineConfig() ewr.EngineConfig {
	c := ewr.EngineConfig{Command: o.Engine, Workers: max(1, o.Workers), HashMB: 64, Nice: 19}
	if ewr.ModeClearsHash(o.Mode) {
		c.HashMB, c.ClearEach = ewr.ClearHashMB, true
	}
	return c
}

// ewrEvaluator returns the calculation's engines, starting them on first
// use at low priority.
func (s *Summariser) ewrEvaluator(ctx context.Context) (ewr.Evaluator, error) {
	if s.ewrEval != nil {
		return s.ewrEval, nil
	}
	e, err := ewr.StartEngines(ctx, s.ewr.engineConfig())
	if err != nil {
		return nil, fmt.Errorf("postgame: expected-winrate engines: %w", err)
	}
	e.Gate = s.ewrGate
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

// GameOf turns a stored game into an analysis input: moves with SAN,
// players named from our side.
func GameOf(g store.Game, me string) (*analysis.Game, error) {
	chess960 := g.Variant == "chess960"
	fen := g.InitialFEN
	if fen == "" {
		fen = board.StartFEN
	}
	b, err := board.FromFENVariant(fen, chess960)
	if err != nil {
		return nil, fmt.Errorf("postgame: game %s: initial position: %w", g.ID, err)
	}
	out := &analysis.Game{ID: g.ID, Source: "daemon", Index: 1, StartFEN: g.InitialFEN, Result: resultOf(g)}
	if chess960 {
		out.Tags = append(out.Tags, analysis.Tag{Name: "Variant", Value: "Chess960"})
	}
	if g.InitialFEN != "" {
		// PGN's standard: a game from another position names it.
		out.Tags = append(out.Tags, analysis.Tag{Name: "SetUp", Value: "1"}, analysis.Tag{Name: "FEN", Value: g.InitialFEN})
	}
	out.StartPly = startPly(g.InitialFEN)
	for i, u := range strings.Fields(g.Moves) {
		m, err := b.ParseUCI(u)
		if err != nil {
			return nil, fmt.Errorf("postgame: game %s: move %d: %w", g.ID, i+1, err)
		}
		out.Moves = append(out.Moves, analysis.Move{SAN: b.SAN(m), UCI: m.String()})
		b.Make(m)
	}
	us := analysis.PlayerInfo{Name: me}
	them := analysis.PlayerInfo{Name: g.Opponent, Rating: g.OpponentRating}
	if g.Color == "black" {
		out.White, out.Black = them, us
	} else {
		out.White, out.Black = us, them
	}
	return out, nil
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

func resultOf(g store.Game) string {
	switch g.Winner {
	case "white":
		return "1-0"
	case "black":
		return "0-1"
	}
	if g.Finished() {
		return "1/2-1/2"
	}
	return "*"
}
