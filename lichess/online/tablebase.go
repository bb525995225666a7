package online

import (
	"context"
	"errors"
	"fmt"

	"github.com/outpostchess/outpost/bots/board"
	"github.com/outpostchess/outpost/bots/engine"
	"github.com/outpostchess/outpost/bots/movesource"
	"github.com/outpostchess/outpost/bots/score"
	"github.com/outpostchess/outpost/lichess"
)

// TablebaseAPI is the part of *lichess.Service the tablebase source uses.
type TablebaseAPI interface {
	Tablebase(ctx context.Context, fen string) (*lichess.Tablebase, error)
}

// TablebaseOptions configure a Tablebase source.
type TablebaseOptions struct {
	// MaxPieces is the most pieces, kings included, of a position the
	// source asks about (2–7; 0 means 7).
	MaxPieces int
}

// Tablebase plays the move Lichess's online tablebase says keeps the best
// result: see PickTablebaseMove.
type Tablebase struct {
	api  TablebaseAPI
	opts TablebaseOptions
}

// NewTablebase returns a tablebase source asking api.
func NewTablebase(api TablebaseAPI, opts TablebaseOptions) (*Tablebase, error) {
	if api == nil {
		return nil, errors.New("online: tablebase: no tablebase client")
	}
	if opts.MaxPieces == 0 {
		opts.MaxPieces = lichess.TablebaseMaxPieces
	}
	if opts.MaxPieces < 2 || opts.MaxPieces > lichess.TablebaseMaxPieces {
		return nil, fmt.Errorf("online: tablebase: max pieces %d: want 2 to %d", opts.MaxPieces, lichess.TablebaseMaxPieces)
	}
	return &Tablebase{api: api, opts: opts}, nil
}

// Name returns "tablebase".
func (t *Tablebase) Name() string { return NameTablebase }

// Move returns the tablebase's move for a position of at most MaxPieces
// pieces without castling rights (Chess960 ones included: without
// castling rights they are standard positions); ErrNoMove otherwise.
func (t *Tablebase) Move(ctx context.Context, pos engine.Position, _ engine.Limits) (engine.Move, error) {
	b, err := position(pos, true)
	if err != nil {
		return engine.Move{}, err
	}
	if board.Count(b.All()) > t.opts.MaxPieces || b.CastlingRights() != 0 {
		return engine.Move{}, movesource.ErrNoMove
	}
	ans, err := t.api.Tablebase(ctx, b.FEN())
	if err != nil {
		return engine.Move{}, fmt.Errorf("online: tablebase: %w", err)
	}
	uci, ok := PickTablebaseMove(b, ans.Moves)
	if !ok {
		return engine.Move{}, movesource.ErrNoMove
	}
	sc, ok := tbScore(ans)
	return engine.Move{UCI: uci, PV: []string{uci}, Source: NameTablebase, Score: sc, HasScore: ok}, nil
}

// tbScore is the position's score from the side to move's view: a mate
// distance when DTM is known, else none.
func tbScore(ans *lichess.Tablebase) (score.Score, bool) {
	if ans.DTM == nil || *ans.DTM == 0 {
		return score.Score{}, false
	}
	d := *ans.DTM
	moves := (abs(d) + 1) / 2
	if d < 0 {
		moves = -moves
	}
	return score.Mate(moves), true
}

// outcomeRank orders the results of our move for us, best first, given
// the category of the position after it (the opponent's view). Unknown
// categories are not played (rank 0).
var outcomeRank = map[string]int{
	lichess.TBLoss:        9, // we win
	lichess.TBSyzygyLoss:  8, // we win unless the 50-move rule was already strained
	lichess.TBMaybeLoss:   7,
	lichess.TBBlessedLoss: 6, // we win on the board, the 50-move rule draws
	lichess.TBDraw:        5,
	lichess.TBCursedWin:   4, // we lose on the board, the 50-move rule saves us
	lichess.TBMaybeWin:    3,
	lichess.TBSyzygyWin:   2,
	lichess.TBWin:         1, // we lose
}

// winning ranks are those where we aim to finish fast; below the draw we
// aim to last.
const drawRank = 5

// PickTablebaseMove returns the legal move of moves keeping the best
// result for the side to move; among equals, when winning (cursed wins
// included) the shortest distance, when losing (blessed losses included)
// the longest: by DTM when both moves have one, else by DTZ, where a
// capture or pawn move counts as distance 0 (it resets the 50-move count:
// the winner takes such a move when it keeps the win, the loser avoids
// it). Among draws
// the first listed (Lichess lists best first). A mating move is always
// taken. False when no move is usable.
func PickTablebaseMove(b *board.Board, moves []lichess.TablebaseMove) (string, bool) {
	best, bestUCI := -1, ""
	for i, m := range moves {
		if outcomeRank[m.Category] == 0 && !m.Checkmate {
			continue
		}
		uci, ok := legal(b, m.UCI)
		if !ok {
			continue
		}
		if best < 0 || tbBetter(m, moves[best]) {
			best, bestUCI = i, uci
		}
	}
	return bestUCI, best >= 0
}

// tbBetter reports whether a is a better move than b.
func tbBetter(a, b lichess.TablebaseMove) bool {
	if a.Checkmate != b.Checkmate {
		return a.Checkmate
	}
	ra, rb := outcomeRank[a.Category], outcomeRank[b.Category]
	if ra != rb {
		return ra > rb
	}
	if ra == drawRank {
		return false
	}
	da, db := distance(a.DTM, a.DTZ), distance(b.DTM, b.DTZ)
	if a.DTM == nil || b.DTM == nil {
		da, db = zdistance(a), zdistance(b)
	}
	if ra > drawRank {
		return da < db
	}
	return da > db
}

// unknownDistance stands for a distance the tablebase did not give: worse
// than any known one for the winner, better for the loser.
const unknownDistance = 1 << 20

// zdistance is a move's distance to the next zeroing move in DTZ terms: 0
// for a zeroing move (a capture or pawn move resets the count: DTZ's own
// best move for the winner, its worst for the loser), else |dtz| of the
// position after it.
func zdistance(m lichess.TablebaseMove) int {
	if m.Zeroing {
		return 0
	}
	return distance(nil, m.DTZ)
}

// distance is |dtm| when given, else |dtz|, else unknownDistance.
func distance(dtm, dtz *int) int {
	switch {
	case dtm != nil:
		return abs(*dtm)
	case dtz != nil:
		return abs(*dtz)
	}
	return unknownDistance
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}
