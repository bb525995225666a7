package provider

import (
	"context"
	"fmt"
	"math"
	"strconv"
	"time"

	"github.com/outpostchess/outpost/bots/board"
	"github.com/outpostchess/outpost/lichess"
	"github.com/outpostchess/outpost/models"
)

// MaiaEngine is a slot served by Maia at one rating, in-process: its lines
// are the moves a human of that rating plays, ordered by Maia's
// probabilities (the order `outpost predict` prints), each scored from the
// value head of Maia's network in the position after the move. One
// evaluation per line: there is no search, so every job answers at once
// whatever its limit, at depth 1.
type MaiaEngine struct {
	reg   lichess.EngineRegistration
	model string
	pred  *models.Predictor
}

// MaiaName is the registration name of Maia at level: the rating, and what
// its lines and scores are.
func MaiaName(level int) string {
	return fmt.Sprintf("Maia %d (Outpost: human moves by probability, scores from Maia's value head)", level)
}

// NewMaiaEngine returns the slot of Maia-1 at level on pred (shared; the
// slot does not close it).
func NewMaiaEngine(pred *models.Predictor, level int) (*MaiaEngine, error) {
	model := models.Maia1Name(level)
	if _, err := models.ParseModel(model); err != nil {
		return nil, fmt.Errorf("provider: maia level %d: %w", level, err)
	}
	if err := pred.Load(model); err != nil {
		return nil, fmt.Errorf("provider: %s: %w", model, err)
	}
	reg := lichess.EngineRegistration{Name: MaiaName(level), MaxThreads: 1, MaxHash: 1, Variants: []string{"chess"}}
	return &MaiaEngine{reg: reg, model: model, pred: pred}, nil
}

// Registration implements Engine.
func (m *MaiaEngine) Registration() lichess.EngineRegistration { return m.reg }

// Close implements Engine (the predictor is the caller's).
func (m *MaiaEngine) Close() error { return nil }

// Analyse implements Engine: the top multiPv moves of Maia's prediction,
// best first, then bestmove (the most likely move).
func (m *MaiaEngine) Analyse(ctx context.Context, w lichess.EngineWork, out func(string) error) error {
	start := time.Now()
	b, err := CheckWork(w, m.reg)
	if err != nil {
		return fmt.Errorf("provider: %s: %w", m.reg.Name, err)
	}
	switch b.Status() {
	case board.Checkmate:
		return endLines(out, "mate 0")
	case board.Stalemate:
		return endLines(out, "cp 0")
	}
	root, err := m.pred.PredictOne(ctx, m.request(w, nil))
	if err != nil {
		return fmt.Errorf("provider: %s: %w", m.reg.Name, err)
	}
	if len(root.Moves) == 0 {
		return out("bestmove (none)")
	}
	n := min(w.MultiPV, len(root.Moves))
	for i, mv := range root.Moves[:n] {
		sc, err := m.scoreAfter(ctx, w, b, mv.UCI)
		if err != nil {
			return fmt.Errorf("provider: %s: %w", m.reg.Name, err)
		}
		line := fmt.Sprintf("info multipv %d depth 1 seldepth 1 score %s nodes %d time %d pv %s",
			i+1, sc, i+2, time.Since(start).Milliseconds(), mv.UCI)
		if err := out(line); err != nil {
			return err
		}
	}
	return out("bestmove " + root.Moves[0].UCI)
}

// request is the Maia request of the work's position with extra moves.
func (m *MaiaEngine) request(w lichess.EngineWork, extra []string) models.Request {
	moves := append(append([]string(nil), w.Moves...), extra...)
	return models.Request{StartFEN: w.InitialFEN, Moves: moves, Chess960: true, Model: m.model}
}

// scoreAfter is the UCI score (side to move's view) of playing mv from b:
// mate when it mates, 0 for stalemate, else the value head's expected
// score for the side to move after mv, turned round.
func (m *MaiaEngine) scoreAfter(ctx context.Context, w lichess.EngineWork, b *board.Board, mv string) (string, error) {
	if err := b.MakeUCI(mv); err != nil {
		return "", fmt.Errorf("maia move %q: %w", mv, err)
	}
	status := b.Status()
	b.Unmake()
	switch status {
	case board.Checkmate:
		return "mate 1", nil
	case board.Stalemate, board.DrawInsufficient:
		return "cp 0", nil
	}
	p, err := m.pred.PredictOne(ctx, m.request(w, []string{mv}))
	if err != nil {
		return "", err
	}
	return "cp " + strconv.Itoa(ValueCP(1-p.Win)), nil
}

// ValueCP turns an expected score in [0, 1] (a value head's W + D/2) into
// centipawns with Leela Chess Zero's mapping, the one lc0 reports for nets
// of Maia's kind: cp = 111.714640912 · tan(1.5620688421 · q), q = 2s − 1,
// capped at ±10000 (q = ±1 is a won or lost position, not a mate).
func ValueCP(s float64) int {
	q := math.Max(-1, math.Min(1, 2*s-1))
	cp := 111.714640912 * math.Tan(1.5620688421*q)
	return int(math.Round(math.Max(-10000, math.Min(10000, cp))))
}

// endLines answers a position without moves as Stockfish does: one info
// line with the score and no PV, then "bestmove (none)".
func endLines(out func(string) error, score string) error {
	if err := out("info depth 0 score " + score); err != nil {
		return err
	}
	return out("bestmove (none)")
}
