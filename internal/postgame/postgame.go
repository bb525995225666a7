// Package postgame is the daemon's post-game analysis: it analyses a
// finished game with the Stockfish pool at a small node budget and turns
// the analysis into the chat summary lines.
package postgame

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/notnil/chess"

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
	ewrProber ewr.MoveProber
	ewrCache  ewr.Cache
	ewrLimit  time.Duration

	mu   sync.Mutex
	pool *analysis.Pool
}

// New returns a summariser that analyses with an engine pool configured by
// cfg at nodes per position. me is our account name, used for our side's
// player name.
func New(cfg analysis.PoolConfig, nodes int64, me string) *Summariser {
	return &Summariser{cfg: cfg, nodes: nodes, me: me}
}

// WithEWR adds one line to every summary: the expected winrate of the
// played move against the best practical move at the game's critical moment
// (Maia through prober, Stockfish through the summariser's own pool, cached
// in cache when it is not nil), computed within limit. It returns s.
func (s *Summariser) WithEWR(prober ewr.MoveProber, cache ewr.Cache, limit time.Duration) *Summariser {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.ewrProber, s.ewrCache, s.ewrLimit = prober, cache, limit
	return s
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

// ewrLine computes the expected-winrate line, or reports false (the
// summary goes out without it when it cannot be computed in time).
func (s *Summariser) ewrLine(ctx context.Context, a *analysis.Analysis) (string, bool) {
	if s.ewrProber == nil {
		return "", false
	}
	ply, ok := ewr.WorstPly(a)
	if !ok {
		return "", false
	}
	calc := &ewr.Calculator{Prober: s.ewrProber, Evaluator: ewr.NewPoolEvaluator(s.pool)}
	if s.ewrCache != nil {
		calc.Cache = s.ewrCache
	}
	line, err := ewr.CriticalMomentLine(ctx, calc, ewr.GameOf(a), ply, ewr.Options{TimeLimit: s.ewrLimit})
	if err != nil || line == "" {
		return "", false
	}
	return line, true
}

// Close stops the engines.
func (s *Summariser) Close() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.pool == nil {
		return nil
	}
	err := s.pool.Close()
	s.pool = nil
	return err
}

// GameOf turns a stored game into an analysis input: moves with SAN,
// players named from our side.
func GameOf(g store.Game, me string) (*analysis.Game, error) {
	var opts []func(*chess.Game)
	if g.InitialFEN != "" {
		f, err := chess.FEN(g.InitialFEN)
		if err != nil {
			return nil, fmt.Errorf("postgame: game %s: initial position: %w", g.ID, err)
		}
		opts = append(opts, f)
	}
	cg := chess.NewGame(opts...)
	out := &analysis.Game{ID: g.ID, Source: "daemon", Index: 1, StartFEN: g.InitialFEN, Result: resultOf(g)}
	out.StartPly = startPly(g.InitialFEN)
	for i, u := range strings.Fields(g.Moves) {
		pos := cg.Position()
		m, err := chess.UCINotation{}.Decode(pos, u)
		if err != nil {
			return nil, fmt.Errorf("postgame: game %s: move %d %q: %w", g.ID, i+1, u, err)
		}
		san := chess.AlgebraicNotation{}.Encode(pos, m)
		if err := cg.Move(m); err != nil {
			return nil, fmt.Errorf("postgame: game %s: move %d %q: %w", g.ID, i+1, u, err)
		}
		out.Moves = append(out.Moves, analysis.Move{SAN: san, UCI: u})
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
