package sandbox

import (
	"context"
	"fmt"
	"strings"
	"time"
)

// AnalysisRequest is a finished game handed to the Analyser.
type AnalysisRequest struct {
	// GameID is the game's id.
	GameID string
	// InitialFEN is the start position ("" for the standard one).
	InitialFEN string
	// Variant is the game's Lichess variant key (standard, fromPosition or
	// chess960: replay a Chess960 game with its castling rules).
	Variant string
	// Moves are the game's moves in UCI.
	Moves []string
	// FENs are the positions before each move and the final one
	// (len(Moves)+1), written as Lichess writes FEN (an en passant square
	// only when the capture is legal).
	FENs []string
}

// AnalysisResult is what an Analyser returns for one game.
type AnalysisResult struct {
	// Analysis is the server analysis, one entry per move, in the form
	// game export returns it.
	Analysis Analysis
	// Cloud holds the cloud evaluations of the game's positions, by index
	// into AnalysisRequest.FENs; nil entries (or a shorter slice) mean
	// that position is not in the cloud.
	Cloud []*CloudEval
}

// Analyser stands in for Lichess's fishnet: it analyses a finished game
// (Lichess's budget, judgements, per-player figures) and evaluates its
// positions for the cloud-eval cache. It must honour ctx: the server
// cancels it on Close.
type Analyser interface {
	Analyse(ctx context.Context, req AnalysisRequest) (AnalysisResult, error)
}

// scheduleAnalysis starts the server analysis of a game that just ended,
// when an Analyser is configured (mu held).
func (s *Server) scheduleAnalysis(g *game) {
	if s.cfg.Analyser == nil || s.closed || g.plies() == 0 || g.status == "aborted" || g.status == "noStart" {
		return
	}
	req, err := s.analysisRequest(g)
	if err != nil {
		s.log.Warn().Err(err).Str("game", g.id).Msg("server analysis")
		return
	}
	endedAt := s.now()
	s.bg.Add(1)
	go func() {
		defer s.bg.Done()
		err := s.runAnalysis(req, endedAt)
		if err != nil {
			s.log.Warn().Err(err).Str("game", req.GameID).Msg("server analysis")
		}
		if h := s.cfg.OnAnalysis; h != nil {
			h(req.GameID, err)
		}
	}()
}

// analysisRequest lists a game's moves and positions (mu held).
func (s *Server) analysisRequest(g *game) (AnalysisRequest, error) {
	req := AnalysisRequest{GameID: g.id, InitialFEN: g.initialFEN, Variant: g.variant, Moves: append([]string(nil), g.uci...)}
	p, err := newVariantPosition(g.initialFEN, g.variant == "chess960")
	if err != nil {
		return req, fmt.Errorf("sandbox: analyse %s: %w", g.id, err)
	}
	req.FENs = append(req.FENs, p.fen())
	for i, u := range g.uci {
		m, ok := p.find(u)
		if !ok {
			return req, fmt.Errorf("sandbox: analyse %s: ply %d %s: not legal", g.id, i+1, u)
		}
		p.play(m)
		req.FENs = append(req.FENs, p.fen())
	}
	return req, nil
}

// runAnalysis computes a game's analysis, serves its cloud evaluations at
// once and attaches the analysis AnalysisDelay after the game's end.
func (s *Server) runAnalysis(req AnalysisRequest, endedAt time.Time) error {
	res, err := s.cfg.Analyser.Analyse(s.bgCtx, req)
	if err != nil {
		return fmt.Errorf("sandbox: analyse %s: %w", req.GameID, err)
	}
	s.mu.Lock()
	for i, ev := range res.Cloud {
		if ev != nil && i < len(req.FENs) {
			s.cloudEvals[cloudKey(req.Variant, req.FENs[i])] = *ev
		}
	}
	s.mu.Unlock()
	if wait := s.cfg.AnalysisDelay - s.now().Sub(endedAt); wait > 0 {
		t := time.NewTimer(wait)
		defer t.Stop()
		select {
		case <-t.C:
		case <-s.bgCtx.Done():
			return fmt.Errorf("sandbox: analyse %s: %w", req.GameID, s.bgCtx.Err())
		}
	}
	return s.AttachAnalysis(req.GameID, res.Analysis)
}

// cloudKey is the cloud-eval cache's key of a position of a variant: as
// lila's EvalCacheEntry.Id (variant, small FEN), a Chess960 position's
// evals are Chess960's only; standard and from-position games share the
// standard ones.
func cloudKey(variant, fen string) string {
	if variant != "chess960" {
		variant = "standard"
	}
	return variant + " " + fenKey(fen)
}

// fenKey is a FEN without its move counters, for cloud-eval lookups, with
// the en passant square only when the capture is legal (so that a FEN
// written by another library, which always names the square after a double
// step, finds the same position, as on Lichess).
func fenKey(fen string) string {
	if strings.TrimSpace(fen) == "" {
		return ""
	}
	if p, err := newPosition(fen); err == nil {
		fen = p.fen()
	}
	f := strings.Fields(fen)
	if len(f) > 4 {
		f = f[:4]
	}
	return strings.Join(f, " ")
}
