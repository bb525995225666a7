// Package fishnet is the sandbox's stand-in for Lichess's fishnet: it
// analyses a finished sandbox game with a local Stockfish at Lichess's node
// budget (or a smaller one, so that tests stay fast), judges it with
// Lichess's own rules (package analysis) and evaluates its positions at a
// moderate depth for the sandbox's cloud-eval cache. It implements
// sandbox.Analyser.
package fishnet

import (
	"context"
	"fmt"
	"strings"
	"sync"

	"github.com/outpostchess/outpost/analysis"
	"github.com/outpostchess/outpost/analysis/replay"
	"github.com/outpostchess/outpost/bots/score"
	"github.com/outpostchess/outpost/bots/uci"
	"github.com/outpostchess/outpost/internal/sandbox"
)

// Defaults of Config.
const (
	// DefaultNodes is Lichess's budget for a requested analysis today.
	DefaultNodes = 1_000_000
	// DefaultCloudDepth is the depth of the cloud evaluations: Lichess's
	// cloud holds deeper searches (users' local engines, usually depth 20
	// or more); 18 is a moderate stand-in that a shared machine can
	// afford for every position of a game.
	DefaultCloudDepth = 18
)

// Config configures an Analyser.
type Config struct {
	// Pool configures the engine (default: Debian's Stockfish, one worker).
	Pool analysis.PoolConfig
	// Nodes is the server analysis's budget per position (default
	// DefaultNodes).
	Nodes int64
	// CloudDepth is the depth of the cloud evaluations (default
	// DefaultCloudDepth); negative serves no cloud evaluations.
	CloudDepth int
}

// Analyser analyses sandbox games. It starts its engines on first use;
// Close stops them. Games are analysed one at a time.
type Analyser struct {
	cfg Config

	mu   sync.Mutex
	pool *analysis.Pool
}

var _ sandbox.Analyser = (*Analyser)(nil)

// New returns an Analyser for cfg with the defaults filled in.
func New(cfg Config) *Analyser {
	if cfg.Nodes <= 0 {
		cfg.Nodes = DefaultNodes
	}
	if cfg.CloudDepth == 0 {
		cfg.CloudDepth = DefaultCloudDepth
	}
	return &Analyser{cfg: cfg}
}

// Close stops the engines.
func (a *Analyser) Close() error {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.pool == nil {
		return nil
	}
	err := a.pool.Close()
	a.pool = nil
	return err
}

// Analyse implements sandbox.Analyser.
func (a *Analyser) Analyse(ctx context.Context, req sandbox.AnalysisRequest) (sandbox.AnalysisResult, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.pool == nil {
		p, err := analysis.NewPool(ctx, a.cfg.Pool)
		if err != nil {
			return sandbox.AnalysisResult{}, fmt.Errorf("fishnet: start engine: %w", err)
		}
		a.pool = p
	}
	g, err := requestGame(req)
	if err != nil {
		return sandbox.AnalysisResult{}, err
	}
	as, errs, err := a.pool.AnalyseGames(ctx, []*analysis.Game{g}, analysis.EngineOptions{
		Budget: analysis.Budget{Nodes: a.cfg.Nodes}, BorderlineBand: -1,
	})
	if err == nil {
		err = errs[0]
	}
	if err != nil {
		return sandbox.AnalysisResult{}, fmt.Errorf("fishnet: analyse %s: %w", req.GameID, err)
	}
	res := sandbox.AnalysisResult{Analysis: Convert(as[0])}
	// A Chess960 game's positions are searched with UCI_Chess960 (the
	// job's position says so) and served to Chess960 lookups only.
	if a.cfg.CloudDepth > 0 {
		if res.Cloud, err = a.cloud(ctx, req); err != nil {
			return sandbox.AnalysisResult{}, err
		}
	}
	return res, nil
}

// cloud evaluates every position of the game that has a move to play.
func (a *Analyser) cloud(ctx context.Context, req sandbox.AnalysisRequest) ([]*sandbox.CloudEval, error) {
	var jobs []analysis.Job
	var idx []int
	chess960 := req.Variant == "chess960"
	for i, fen := range req.FENs {
		b, err := replay.NewVariant(fen, chess960)
		if err != nil {
			return nil, fmt.Errorf("fishnet: cloud eval of %s: %w", req.GameID, err)
		}
		if b.Checkmate() || b.Stalemate() {
			continue
		}
		jobs = append(jobs, analysis.Job{Pos: uci.Position{FEN: fen, Chess960: chess960}, WhiteToMove: b.WhiteToMove(),
			Limits: uci.Limits{Depth: a.cfg.CloudDepth}})
		idx = append(idx, i)
	}
	outs, err := a.pool.Search(ctx, jobs, analysis.SearchOptions{ChunkSize: 1})
	if err != nil {
		return nil, fmt.Errorf("fishnet: cloud eval of %s: %w", req.GameID, err)
	}
	cloud := make([]*sandbox.CloudEval, len(req.FENs))
	for k, o := range outs {
		if o.Eval == nil || len(o.PV) == 0 {
			continue
		}
		pv := sandbox.CloudPV{Moves: strings.Join(o.PV, " ")}
		pv.CP, pv.Mate = cpOrMate(*o.Eval)
		cloud[idx[k]] = &sandbox.CloudEval{Depth: o.Depth, Knodes: int(o.Nodes / 1000), PVs: []sandbox.CloudPV{pv}}
	}
	return cloud, nil
}

// requestGame turns an analysis request into an analysis game (moves with SAN).
func requestGame(req sandbox.AnalysisRequest) (*analysis.Game, error) {
	chess960 := req.Variant == "chess960"
	b, err := replay.NewVariant(req.InitialFEN, chess960)
	if err != nil {
		return nil, fmt.Errorf("fishnet: game %s: %w", req.GameID, err)
	}
	g := &analysis.Game{ID: req.GameID, Source: "sandbox", Index: 1, StartFEN: req.InitialFEN, StartPly: b.Ply()}
	if chess960 {
		// The analysis engine plays Chess960 castling by this tag.
		g.Tags = append(g.Tags, analysis.Tag{Name: "Variant", Value: "Chess960"})
	}
	for i, u := range req.Moves {
		m, err := b.ParseUCI(u)
		if err != nil {
			return nil, fmt.Errorf("fishnet: game %s: ply %d %s: %w", req.GameID, i+1, u, err)
		}
		san, err := b.UCIToSAN(u)
		if err != nil {
			return nil, fmt.Errorf("fishnet: game %s: ply %d %s: %w", req.GameID, i+1, u, err)
		}
		g.Moves = append(g.Moves, analysis.Move{SAN: san, UCI: u})
		b = b.Play(m)
	}
	return g, nil
}

// Convert turns an analysis into the sandbox's server analysis: one entry
// per move (plies beyond Lichess's 300-ply cut stay empty), the best move
// and line on judged plies, the judgement with Lichess's JSON wording, and
// the players' counts, ACPL and accuracy.
func Convert(a *analysis.Analysis) sandbox.Analysis {
	out := sandbox.Analysis{Moves: make([]sandbox.MoveAnalysis, len(a.Plies))}
	for i, p := range a.Plies {
		m := &out.Moves[i]
		if p.Eval != nil {
			m.Eval, m.Mate = cpOrMate(*p.Eval)
		}
		if p.Judgement != analysis.NoJudgement {
			if p.BestUCI != nil {
				m.Best = *p.BestUCI
			}
			m.Variation = strings.Join(p.Variation, " ")
			m.Judgment = &sandbox.Judgment{Name: p.Judgement.String(), Comment: p.Comment}
		}
	}
	out.White = player(a.Players.White)
	out.Black = player(a.Players.Black)
	return out
}

// cpOrMate splits a score the way Lichess's JSON writes it: centipawns or
// moves to mate, the other nil.
func cpOrMate(sc score.Score) (cp, mate *int) {
	if sc.IsMate() {
		m := sc.Mate
		return nil, &m
	}
	c := sc.CP
	return &c, nil
}

func player(p analysis.Player) sandbox.PlayerAnalysis {
	pa := sandbox.PlayerAnalysis{Inaccuracy: p.Inaccuracy, Mistake: p.Mistake, Blunder: p.Blunder, Accuracy: p.Accuracy}
	if p.ACPL != nil {
		pa.ACPL = *p.ACPL
	}
	return pa
}
