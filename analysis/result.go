package analysis

import (
	"github.com/outpostchess/outpost/analysis/replay"
	"github.com/outpostchess/outpost/bots/score"
)

// Analysis is the analysis of one game; its JSON form is the schema
// documented in the package doc.
type Analysis struct {
	ID         string      `json:"id"`
	Index      int         `json:"index"`
	Source     string      `json:"source,omitempty"`
	Players    Players     `json:"players"`
	Result     string      `json:"result"`
	FEN        string      `json:"fen,omitempty"`
	Engine     string      `json:"engine"`
	Plies      []Ply       `json:"plies"`
	Comparison *Comparison `json:"comparison,omitempty"`
	// Game is the analysed game (for the PGN and text writers).
	Game *Game `json:"-"`

	// boards are the positions of the analysed moves (see Boards), under
	// Chess960's castling rules when boards960.
	boards    []*replay.Board
	boards960 bool
}

// Players holds both players' summaries.
type Players struct {
	White Player `json:"white"`
	Black Player `json:"black"`
}

// Player is one side's summary.
type Player struct {
	Name   string `json:"name,omitempty"`
	Rating int    `json:"rating,omitempty"`
	// Accuracy is the game accuracy rounded as Lichess does; null when it
	// cannot be computed (evals missing).
	Accuracy *int `json:"accuracy"`
	// AccuracyExact is the unrounded game accuracy.
	AccuracyExact *float64 `json:"accuracy_exact,omitempty"`
	ACPL          *int     `json:"acpl"`
	Inaccuracy    int      `json:"inaccuracy"`
	Mistake       int      `json:"mistake"`
	Blunder       int      `json:"blunder"`
}

// Count returns the player's number of moves with judgement j.
func (p Player) Count(j Judgement) int {
	switch j {
	case Inaccuracy:
		return p.Inaccuracy
	case Mistake:
		return p.Mistake
	case Blunder:
		return p.Blunder
	}
	return 0
}

// Ply is the analysis of one move.
type Ply struct {
	Ply        int    `json:"ply"` // 1-based index in the game
	MoveNumber int    `json:"move_number"`
	Color      string `json:"color"` // "white" or "black"
	SAN        string `json:"san"`
	UCI        string `json:"uci"`
	// Eval is the eval after the move (White POV); null when unknown or the
	// position is checkmate.
	Eval    *score.Score `json:"eval"`
	BestUCI *string      `json:"best_uci"` // engine's best move in the position before
	BestSAN *string      `json:"best_san"`
	// Variation is the engine's line from the position before (SAN, at
	// most 12 plies for our engine), present on judged plies.
	Variation []string  `json:"variation,omitempty"`
	Judgement Judgement `json:"judgment"`
	NAG       string    `json:"nag,omitempty"`
	// Comment is Lichess's judgement comment as in its JSON export
	// ("Inaccuracy. dxe4 was best."); EvalChange is the literate PGN's
	// "(a → b)" part without parentheses.
	Comment    string `json:"comment,omitempty"`
	EvalChange string `json:"eval_change,omitempty"`
	// MateCase is "created" or "lost" for the mate judgements.
	MateCase string `json:"mate_case,omitempty"`
	// Delta is the mover's loss of winning chances (both evals cp).
	Delta *float64 `json:"delta,omitempty"`
	// Accuracy is the move accuracy (0..100).
	Accuracy *float64 `json:"accuracy,omitempty"`
	// Borderline marks a judgement whose delta stayed within the borderline
	// band of a threshold after the deeper re-search.
	Borderline bool `json:"borderline,omitempty"`

	prev    *score.Score
	verdict Verdict
	gate    Gate
}

// Gate returns the best-move gate the ply was judged with.
func (p *Ply) Gate() Gate { return p.gate }

// White reports whether White played the move.
func (p *Ply) White() bool { return p.Color == "white" }

// Prev returns the eval before the move used for judging (nil if unknown).
func (p *Ply) Prev() *score.Score { return p.prev }

// Verdict returns the full verdict of the move.
func (p *Ply) Verdict() Verdict { return p.verdict }

// LiterateComment is the judgement comment of Lichess's literate PGN export:
// "(a → b) Inaccuracy. X was best." ("" when not judged). withEval false
// drops the "(a → b) " prefix.
func (p *Ply) LiterateComment(withEval bool) string {
	if p.Judgement == NoJudgement {
		return ""
	}
	if withEval && p.EvalChange != "" {
		return "(" + p.EvalChange + ") " + p.Comment
	}
	return p.Comment
}
