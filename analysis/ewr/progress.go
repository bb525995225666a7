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
// current ranking: it is re-sorted as evaluations arrive.
type Event struct {
	Phase   Phase
	Message string
	Done    int
	Total   int
	Ranking []MoveResult
}
