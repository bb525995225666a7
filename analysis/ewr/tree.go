package ewr

import (
	"context"
	"fmt"
	"math"
	"sort"
	"strings"

	"github.com/outpostchess/outpost/bots/board"
)

// evalKey is the evaluation cache key of a position: its FEN without the
// move counters.
func evalKey(b *board.Board) string { return fenKey(b.FEN()) }

// fenKey is evalKey of the board whose FEN (as the board writes it) is fen.
func fenKey(fen string) string {
	f := strings.Fields(fen)
	return strings.Join(f[:4], " ")
}

// newChild plays m on parent (unchanged) and returns the node after it.
// Game-ending positions get their winrate at once.
func newChild(parent *board.Board, m board.Move, parentPath []string, prob, cum float64, ours bool) *Node {
	san := parent.SAN(m)
	b := parent.Clone()
	b.Make(m)
	uci := m.String()
	path := make([]string, len(parentPath)+1)
	copy(path, parentPath)
	path[len(parentPath)] = uci
	fen := b.FEN()
	n := &Node{
		SAN: san, UCI: uci, FEN: fen,
		Probability: prob, CumulativeProbability: cum,
		Children: []*Node{},
		depth:    len(path), ours: ours, path: path, key: fenKey(fen), b: b,
	}
	if reason, wr, ok := gameEnd(b, ours); ok {
		n.Winrate = &wr
		n.Pruned, n.PruningReason = true, reason
		n.b = nil
	}
	return n
}

// gameEnd reports whether the game ends (or, for a repetition, is scored as
// a draw) in b, reached by a move of the analysing player when ours, and
// the analysing player's winrate then.
func gameEnd(b *board.Board, ours bool) (reason string, wr float64, ok bool) {
	if !b.HasLegalMoves() {
		if b.InCheck() {
			if ours {
				return ReasonCheckmate, 1, true
			}
			return ReasonCheckmate, 0, true
		}
		return ReasonStalemate, 0.5, true
	}
	switch {
	case b.InsufficientMaterial():
		return ReasonInsufficient, 0.5, true
	case b.RepetitionCount() >= 1:
		return ReasonRepetition, 0.5, true
	case b.IsFiftyMoveDraw():
		return ReasonFiftyMoves, 0.5, true
	}
	return "", 0, false
}

// grow is phase A: it expands the candidates' trees level by level with one
// batched prober call per level.
func (r *run) grow(ctx context.Context) error {
	var frontier []*Node
	for _, t := range r.trees {
		if t.b != nil && !t.Pruned {
			frontier = append(frontier, t)
		}
	}
	for level := 1; len(frontier) > 0; level++ {
		if err := ctx.Err(); err != nil {
			return err
		}
		r.progress(Event{Phase: PhaseTrees, Message: fmt.Sprintf("Generating Maia trees... ply %d, %d positions", level+1, len(frontier)), Done: r.stats.Nodes})
		reqs := make([]ProbeRequest, len(frontier))
		for i, n := range frontier {
			usToMove := n.b.SideToMove() == r.us
			rating, opp := r.p.OpponentRating, r.p.Rating
			if usToMove {
				rating, opp = r.p.Rating, r.p.OpponentRating
			}
			moves := make([]string, 0, len(r.pos.Moves)+len(n.path))
			moves = append(append(moves, r.pos.Moves...), n.path...)
			reqs[i] = ProbeRequest{StartFEN: r.pos.StartFEN, Moves: moves, Chess960: r.pos.Chess960, Rating: rating, OppRating: opp}
		}
		probs, err := r.c.Prober.Probe(ctx, reqs)
		if err != nil {
			return fmt.Errorf("ewr: maia: %w", err)
		}
		if len(probs) != len(reqs) {
			return fmt.Errorf("ewr: maia: %d answers for %d positions", len(probs), len(reqs))
		}
		r.stats.MaiaCalls++
		r.stats.MaiaPositions += len(reqs)
		var next []*Node
		for i, n := range frontier {
			kids, err := r.expand(n, probs[i])
			if err != nil {
				return err
			}
			next = append(next, kids...)
		}
		frontier = next
	}
	if r.opt.Progress != nil {
		r.progress(Event{Phase: PhaseTrees, Message: fmt.Sprintf("Maia trees ready: %d nodes", r.stats.Nodes), Done: r.stats.Nodes, Trees: r.snapshotTrees()})
	}
	return nil
}

// expand adds n's children whose cumulative probability reaches the
// threshold and returns those to expand further.
func (r *run) expand(n *Node, moves []MoveProb) ([]*Node, error) {
	b := n.b
	n.b = nil
	type kid struct {
		m board.Move
		p float64
	}
	var keep []kid
	for _, mp := range moves {
		if math.IsNaN(mp.P) || mp.P < 0 || mp.P > 1+1e-6 {
			return nil, fmt.Errorf("ewr: maia: probability %v of %s in %s", mp.P, mp.UCI, n.FEN)
		}
		m, err := b.ParseUCI(mp.UCI)
		if err != nil {
			return nil, fmt.Errorf("ewr: maia: %w", err)
		}
		if n.CumulativeProbability*mp.P >= r.p.Threshold-eps {
			keep = append(keep, kid{m, min(mp.P, 1)})
		}
	}
	if len(keep) == 0 {
		return nil, nil
	}
	if r.stats.Nodes+len(keep) > r.p.MaxNodes {
		n.Pruned, n.PruningReason = true, ReasonNodeLimit
		r.warn(fmt.Sprintf("node limit %d reached: some paths end early", r.p.MaxNodes))
		return nil, nil
	}
	sort.SliceStable(keep, func(i, j int) bool { return keep[i].p > keep[j].p })
	ours := b.SideToMove() == r.us
	var next []*Node
	for _, k := range keep {
		ch := newChild(b, k.m, n.path, k.p, n.CumulativeProbability*k.p, ours)
		r.stats.Nodes++
		n.Children = append(n.Children, ch)
		switch {
		case ch.b == nil:
		case ch.depth >= MaxPlies:
			ch.b = nil
			ch.Pruned, ch.PruningReason = true, ReasonMaxPlies
		default:
			next = append(next, ch)
		}
	}
	return next, nil
}
