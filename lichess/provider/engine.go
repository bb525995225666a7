package provider

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"github.com/outpostchess/outpost/bots/board"
	"github.com/outpostchess/outpost/bots/uci"
	"github.com/outpostchess/outpost/lichess"
)

// Engine is one slot the provider serves.
type Engine interface {
	// Registration is the slot's registration without its provider secret:
	// name, maxThreads, maxHash and variants.
	Registration() lichess.EngineRegistration
	// Analyse searches work, calling out with each UCI output line ("info
	// …", and last "bestmove …"), until the search's limit or until ctx
	// ends (then it stops the search and returns promptly). An error from
	// out ends the search too. work has passed CheckWork.
	Analyse(ctx context.Context, work lichess.EngineWork, out func(line string) error) error
	// Close releases the slot's engine.
	Close() error
}

// CheckWork reports what is wrong with a job's work for reg, or nil: the
// limits of the request (lichess.EngineWork.Check), a variant reg does not
// support, and an initial position or move that is not legal (castling
// written king takes rook, as the broker sends it).
func CheckWork(w lichess.EngineWork, reg lichess.EngineRegistration) (*board.Board, error) {
	if err := w.Check(); err != nil {
		return nil, err
	}
	variants := reg.Variants
	if len(variants) == 0 {
		variants = []string{"chess"}
	}
	supported := false
	for _, v := range variants {
		supported = supported || v == w.Variant
	}
	if !supported {
		return nil, fmt.Errorf("variant %q is not one of %s's (%s)", w.Variant, reg.Name, strings.Join(variants, ", "))
	}
	b, err := board.FromFENVariant(w.InitialFEN, true)
	if err != nil {
		return nil, fmt.Errorf("initialFen %q: %w", clip(w.InitialFEN), err)
	}
	for i, m := range w.Moves {
		if err := b.MakeUCI(m); err != nil {
			return nil, fmt.Errorf("move %d %q: %w", i+1, clip(m), err)
		}
	}
	return b, nil
}

// clip shortens a value quoted in an error.
func clip(s string) string {
	if len(s) > 100 {
		return s[:100] + "…"
	}
	return s
}

// infoLine renders a search line as the broker reads it: multipv always
// written (lila-engine takes a line without it as line 1), depth, score,
// nodes, time and the PV; "" for a line without a score or a PV, which
// carries nothing the broker shows.
func infoLine(in uci.Info) string {
	if (!in.HasScore && !in.Mated) || len(in.PV) == 0 {
		return ""
	}
	multipv := max(in.MultiPV, 1)
	var b strings.Builder
	b.WriteString("info multipv ")
	b.WriteString(strconv.Itoa(multipv))
	b.WriteString(" depth ")
	b.WriteString(strconv.Itoa(in.Depth))
	if in.SelDepth > 0 {
		b.WriteString(" seldepth ")
		b.WriteString(strconv.Itoa(in.SelDepth))
	}
	switch {
	case in.Mated:
		b.WriteString(" score mate 0")
	case in.Score.IsMate():
		b.WriteString(" score mate " + strconv.Itoa(in.Score.Mate))
	default:
		b.WriteString(" score cp " + strconv.Itoa(in.Score.CP))
	}
	if in.LowerBound {
		b.WriteString(" lowerbound")
	} else if in.UpperBound {
		b.WriteString(" upperbound")
	}
	b.WriteString(" nodes " + strconv.FormatInt(max(in.Nodes, 0), 10))
	b.WriteString(" time " + strconv.FormatInt(in.Time.Milliseconds(), 10))
	b.WriteString(" pv " + strings.Join(in.PV, " "))
	return b.String()
}
