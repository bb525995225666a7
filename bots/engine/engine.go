// Package engine defines the contract every Outpost chess engine satisfies:
// a position to play from, the limits of one search (including the real game
// clock), the move chosen, and the small optional capabilities an engine may
// offer. Engines live in sibling packages (easy, search, knobs, uciengine,
// maia); the bots package builds them by name.
package engine

import (
	"context"
	"time"

	"github.com/outpostchess/outpost/bots/score"
)

// StartFEN is the standard initial position.
const StartFEN = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"

// Position is a game to move in: the position it started from and every move
// played since, in UCI notation (e1g1 for castling in standard chess, king
// takes rook such as e1h1 in Chess960). Engines that want the game's history
// (repetitions, opening books) read it from Moves.
type Position struct {
	// StartFEN is the initial position; empty means the standard start.
	StartFEN string
	// Moves are the moves played from StartFEN, in UCI.
	Moves []string
	// Chess960 is set for Chess960 games: StartFEN's castling rights are
	// X-FEN or Shredder-FEN and castling moves are written king takes rook.
	Chess960 bool
}

// FEN returns the starting FEN, defaulting to the standard start position.
func (p Position) FEN() string {
	if p.StartFEN == "" {
		return StartFEN
	}
	return p.StartFEN
}

// Limits bound one search. Zero values mean "not set". When several are set
// the engine stops at the first one reached. The clock fields carry the real
// game clock so that engines can manage their own time.
type Limits struct {
	Depth    int           // maximum depth in plies
	Nodes    int64         // maximum nodes
	MoveTime time.Duration // fixed time for this move
	Infinite bool          // search until the context is cancelled

	WTime, BTime time.Duration // remaining clock of White and Black
	WInc, BInc   time.Duration // increment per move of White and Black
	MovesToGo    int           // moves to the next time control (0 = sudden death)

	// MoveOverhead is subtracted from any time budget to cover network and
	// scheduling latency between choosing a move and the server receiving it.
	MoveOverhead time.Duration

	// FirstMoveTotal, when positive, is the server's deadline for this
	// side's first move (Lichess's gameState.expiration.millisToMove), and
	// FirstMoveLeft what is left of it now (millisToMove − idleMillis, less
	// the time since the state arrived; 0 = all of it). No engine should
	// spend more than a third of FirstMoveTotal: see bots/timeman.
	FirstMoveTotal, FirstMoveLeft time.Duration
	// Deadline, when positive, is the hard limit of this move set by the
	// game's time plan (bots/timeman.Plan): the engine must answer within
	// it whatever its other limits (depth, nodes, its own clock plan) say,
	// with the best move found so far.
	Deadline time.Duration
}

// HasClock reports whether the limits carry a game clock.
func (l Limits) HasClock() bool { return l.WTime > 0 || l.BTime > 0 }

// Move is an engine's answer.
type Move struct {
	UCI string // the move chosen, e.g. "e2e4", "e7e8q", "e1g1"
	// Score is the engine's evaluation of the position from the side to
	// move's point of view, when HasScore.
	Score    score.Score
	HasScore bool
	Depth    int      // depth reached, if known
	Nodes    int64    // nodes searched, if known
	PV       []string // principal variation in UCI, starting with UCI, if known
	// Source names where the move came from when not from the engine's own
	// search: "book", "cloud-eval", "explorer", "tablebase", "syzygy" (see
	// bots/movesource). Empty for a searched move.
	Source string
}

// Engine selects moves. Implementations must honour ctx cancellation and
// return promptly when it is done, with their best move so far when they have
// one.
type Engine interface {
	// SelectMove returns the engine's move in pos, within lim.
	SelectMove(ctx context.Context, pos Position, lim Limits) (Move, error)
	// Name returns a short human-readable name, e.g. "hard" or "stockfish".
	Name() string
	// Close releases the engine's resources. It is idempotent.
	Close() error
}

// Configurable engines take options (UCI options, knob values, temperature).
type Configurable interface {
	Engine
	Configure(options map[string]string) error
}

// Stateful engines keep state across the moves of one game (transposition
// tables, killer moves) and want to know when a new game starts.
type Stateful interface {
	Engine
	NewGame(ctx context.Context) error
}

// Kind tells what an engine is built on.
type Kind string

// The kinds of engine.
const (
	KindBuiltin Kind = "builtin" // pure Go engines: easy, medium, hard, knobs
	KindUCI     Kind = "uci"     // an external process speaking UCI
	KindNeural  Kind = "neural"  // a neural network run in-process (Maia)
)

// Info describes an engine for logs, greetings and the web console.
type Info struct {
	Name    string
	Author  string
	Version string
	Kind    Kind
	// Features names optional abilities ("tt", "pvs", "multipv", "wdl", …).
	Features map[string]bool
}

// Inspectable engines can describe themselves.
type Inspectable interface {
	Engine
	Info() Info
}
