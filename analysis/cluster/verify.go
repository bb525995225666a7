package cluster

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"unicode"

	"github.com/outpostchess/outpost/analysis"
	"github.com/outpostchess/outpost/analysis/replay"
	"github.com/outpostchess/outpost/bots/score"
)

// Bounds of a result's outcomes. A worker's result outside them is refused
// by the submitter (docs/cluster.md, "What a submitter accepts").
const (
	// maxCP bounds a centipawn eval: Stockfish's internal scores stay
	// below VALUE_MATE (32,000) and what it prints as "cp" is smaller
	// still (internal units divided by more than a pawn's 100, and 20,000
	// minus the plies for a tablebase win in Stockfish 17 and later).
	maxCP = 32_000
	// maxMate bounds a mate score in moves: Stockfish searches at most
	// MAX_PLY (246) plies, so it never reports a mate beyond 123 moves.
	maxMate = 123
	// maxPly bounds a result's depth and its line's length (Stockfish's
	// MAX_PLY).
	maxPly = 246
	// maxResultNodes bounds a result's node count: a node budget is at
	// most MaxNodes (an engine stops just above it), and a depth-64 search
	// of 10^13 nodes would take days.
	maxResultNodes = 10_000_000_000_000
	// maxEngineName bounds the engine name a result reports (shown in the
	// analysis; Stockfish's is "Stockfish 15.1").
	maxEngineName = 64
)

// verifyOutcomes checks a worker's outcomes against the chunk the
// submitter sent: one per position, and for each a legal best move and
// line from that position, an eval within bounds, and a sane depth and
// node count. A skipped (terminal) position's outcome is not read: the
// submitter fills it in.
func verifyOutcomes(c analysis.Chunk, outs []analysis.Outcome) error {
	if len(outs) != len(c.Jobs) {
		return fmt.Errorf("%d outcomes for %d positions", len(outs), len(c.Jobs))
	}
	for i, j := range c.Jobs {
		if j.Skip {
			continue
		}
		if err := verifyOutcome(j, outs[i]); err != nil {
			return fmt.Errorf("position %d: %w", i, err)
		}
	}
	return nil
}

func verifyOutcome(j analysis.Job, o analysis.Outcome) error {
	b, err := replay.NewVariant(j.Pos.FEN, j.Pos.Chess960)
	if err != nil {
		return err
	}
	for _, u := range j.Pos.Moves {
		m, err := b.ParseUCI(u)
		if err != nil {
			return err
		}
		b = b.Play(m)
	}
	switch {
	case o.Depth < 0 || o.Depth > maxPly:
		return fmt.Errorf("depth %d: want 0..%d", o.Depth, maxPly)
	case o.Nodes < 0 || o.Nodes > maxResultNodes:
		return fmt.Errorf("nodes %d: want 0..%d", o.Nodes, int64(maxResultNodes))
	case len(o.PV) > maxPly:
		return fmt.Errorf("a line of %d moves: want at most %d", len(o.PV), maxPly)
	}
	if err := verifyEval(o.Eval); err != nil {
		return err
	}
	if b.Checkmate() || b.Stalemate() {
		if o.BestUCI != "" || len(o.PV) > 0 {
			return errors.New("a best move in a position without legal moves")
		}
		return nil
	}
	if _, err := b.ParseUCI(o.BestUCI); err != nil {
		return fmt.Errorf("best move: %w", err)
	}
	for k, u := range o.PV {
		m, err := b.ParseUCI(u)
		if err != nil {
			return fmt.Errorf("line move %d: %w", k+1, err)
		}
		b = b.Play(m)
	}
	return nil
}

// verifyEval bounds an eval (nil: the engine gave none).
func verifyEval(e *score.Score) error {
	switch {
	case e == nil:
		return nil
	case e.Mate != 0 && e.CP != 0:
		return fmt.Errorf("eval cp %d and mate %d at once", e.CP, e.Mate)
	case e.Mate < -maxMate || e.Mate > maxMate:
		return fmt.Errorf("eval mate %d out of range (want |mate| ≤ %d)", e.Mate, maxMate)
	case e.CP < -maxCP || e.CP > maxCP:
		return fmt.Errorf("eval cp %d out of range (want |cp| ≤ %d)", e.CP, maxCP)
	}
	return nil
}

// printable is s with control and other non-graphic characters escaped
// (Go's \x, \u notation), for text from the wire shown on a terminal or in
// a log: a worker id cannot move the cursor or forge a line.
func printable(s string) string {
	if strings.IndexFunc(s, func(r rune) bool { return !unicode.IsGraphic(r) }) < 0 {
		return s
	}
	q := strconv.QuoteToGraphic(s)
	return q[1 : len(q)-1]
}
