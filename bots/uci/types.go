// Package uci is a context-aware client for external chess engines that speak
// the Universal Chess Interface (Stockfish and friends): it starts the
// process, performs the handshake, sets options, runs searches and parses
// their "info" output, detects crashes and restarts the process.
//
// The analysis pipeline and the "uci" bot engine are both built on it.
package uci

import (
	"time"

	"github.com/outpostchess/outpost/bots/score"
)

// Position is what to search: a start FEN ("" or "startpos" for the standard
// start) and the moves played from it in UCI notation.
type Position struct {
	FEN   string
	Moves []string
	// Chess960 searches with UCI_Chess960 on (castling rights in X-FEN or
	// Shredder-FEN, castling moves written king takes rook); Analyse sets
	// the option when it differs from the engine's.
	Chess960 bool
}

// Limits bound one search ("go" command). Zero values are not sent. If none
// is set the search is "go infinite" and runs until the context ends.
type Limits struct {
	Depth    int
	Nodes    int64
	MoveTime time.Duration
	MultiPV  int // lines to report; 0 or 1 = one line

	WTime, BTime time.Duration
	WInc, BInc   time.Duration
	MovesToGo    int

	// SearchMoves restricts the search to these moves (UCI), when non-empty.
	SearchMoves []string

	// OnInfo, when set, is called with each info line that carries a score
	// or a PV, as it is read (on Analyse's goroutine: keep it short); the
	// caller learns the engine's best move so far before its bestmove.
	// It is not part of the go command, nor of any encoding (json "-").
	OnInfo func(Info) `json:"-"`
}

// WDL is a win/draw/loss estimate in permille from the side to move's view.
type WDL struct{ Win, Draw, Loss int }

// Info is one parsed "info" line that carried a score or a PV.
type Info struct {
	Depth, SelDepth int
	MultiPV         int // 1-based line number (1 when the engine did not say)
	// Score is the line's score from the side to move's view, when
	// HasScore. "score mate 0" (the side to move is checkmated) gives no
	// Score but Mated (score.FromUCI).
	Score    score.Score
	HasScore bool
	Mated    bool
	// LowerBound and UpperBound: the engine said "lowerbound" (the true
	// score is at least Score) or "upperbound" (at most).
	LowerBound, UpperBound bool
	WDL                    *WDL
	Nodes                  int64
	NPS                    int64
	Time                   time.Duration
	HashFull               int
	PV                     []string
}

// Result is the outcome of one search.
type Result struct {
	BestMove string // "(none)" is reported as "" with Err set by the caller's check
	Ponder   string
	// Lines holds the last complete info per MultiPV line, index 0 = line 1.
	Lines []Info
	// Nodes and Time are the totals of the search as last reported.
	Nodes int64
	Time  time.Duration
	// Stopped is true when the search was ended early by "stop" because the
	// caller's context ended; BestMove is then the engine's best so far.
	Stopped bool
}

// Best returns the first line's info, or false when the engine reported none.
func (r *Result) Best() (Info, bool) {
	if r == nil || len(r.Lines) == 0 {
		return Info{}, false
	}
	return r.Lines[0], true
}
