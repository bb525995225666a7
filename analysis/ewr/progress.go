package ewr

// Phase is a step of the calculation.
type Phase int

// The phases, in order.
const (
	// PhaseFilter: Stockfish evaluates the position and every legal move.
	PhaseFilter Phase = iota
	// PhaseTrees: Maia builds the candidates' probability trees (phase A).
	PhaseTrees
	// PhaseEval: Stockfish evaluates the trees (phase B).
	PhaseEval
	// PhaseDone: the calculation finished.
	PhaseDone
)

// String names the phase.
func (p Phase) String() string {
	switch p {
	case PhaseFilter:
		return "filter"
	case PhaseTrees:
		return "maia"
	case PhaseEval:
		return "stockfish"
	case PhaseDone:
		return "done"
	}
	return "unknown"
}

// Event reports progress. Message, when set, is a status line ("Generating
// Maia trees..."). Done and Total count evaluations (Total 0: unknown;
// during PhaseTrees Done counts tree nodes). Ranking, when set, is the
// current ranking: it is re-sorted as evaluations arrive. Trees, when
// set, is a snapshot of the candidates' probability trees keyed by SAN
// (a deep copy the receiver may keep): it is sent once when the Maia
// trees are built (winrates of unevaluated nodes are nil) and again with
// PhaseDone.
type Event struct {
	Phase   Phase
	Message string
	Done    int
	Total   int
	Ranking []MoveResult
	Trees   map[string]*Node
	// Provisional marks a ranking sent during PhaseFilter: the moves
	// evaluated so far that keep the base winrate + loss threshold, by
	// Stockfish's winrate alone (ExpectedWinrate is Stockfish's, coverage
	// 0), so that a first ranking comes within a second or two.
	Provisional bool
}

// snapshotTrees deep-copies the candidates' trees for an Event.
func (r *run) snapshotTrees() map[string]*Node {
	out := make(map[string]*Node, len(r.trees))
	for _, t := range r.trees {
		out[t.SAN] = copyNode(t)
	}
	return out
}

// copyNode copies the exported part of n and its subtree.
func copyNode(n *Node) *Node {
	c := &Node{
		SAN: n.SAN, UCI: n.UCI, FEN: n.FEN,
		Probability: n.Probability, CumulativeProbability: n.CumulativeProbability,
		Pruned: n.Pruned, PruningReason: n.PruningReason,
	}
	if n.Winrate != nil {
		w := *n.Winrate
		c.Winrate = &w
	}
	if n.Children != nil {
		c.Children = make([]*Node, len(n.Children))
		for i, ch := range n.Children {
			c.Children[i] = copyNode(ch)
		}
	}
	return c
}
