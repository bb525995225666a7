package online

import (
	"context"
	"errors"
	"fmt"
	"slices"

	"github.com/outpostchess/outpost/bots/board"
	"github.com/outpostchess/outpost/bots/engine"
	"github.com/outpostchess/outpost/bots/movesource"
	"github.com/outpostchess/outpost/lichess"
)

// ExplorerAPI is the part of *lichess.Service the explorer source uses.
type ExplorerAPI interface {
	Explorer(ctx context.Context, q lichess.ExplorerQuery) (*lichess.Explorer, error)
}

// Selection rules of the explorer source.
const (
	// SelectWinRate plays the move scoring best for the side to move
	// (wins plus half the draws, over the games), ties to the most played.
	SelectWinRate = "winrate"
	// SelectCount plays the most played move, ties to the better score.
	SelectCount = "count"
)

// ExplorerOptions configure an Explorer source.
type ExplorerOptions struct {
	// DB is the database: lichess.ExplorerMasters or ExplorerLichess.
	DB lichess.ExplorerDB
	// Speeds and Ratings filter the lichess database.
	Speeds  []string
	Ratings []int
	// Selection is SelectWinRate or SelectCount; "" means SelectWinRate.
	Selection string
	// MinGames is the least number of games a move must have been played
	// in to be chosen (0 means 1).
	MinGames int
	// MaxPly stops asking past this ply of the game (0: no limit).
	MaxPly int
}

// Explorer plays a move from Lichess's opening explorer.
type Explorer struct {
	api  ExplorerAPI
	opts ExplorerOptions
}

// NewExplorer returns an explorer source asking api.
func NewExplorer(api ExplorerAPI, opts ExplorerOptions) (*Explorer, error) {
	if api == nil {
		return nil, errors.New("online: explorer: no explorer client")
	}
	switch opts.DB {
	case "":
		opts.DB = lichess.ExplorerMasters
	case lichess.ExplorerMasters, lichess.ExplorerLichess:
	default:
		return nil, fmt.Errorf("online: explorer: source %q: want masters or lichess", opts.DB)
	}
	switch opts.Selection {
	case "":
		opts.Selection = SelectWinRate
	case SelectWinRate, SelectCount:
	default:
		return nil, fmt.Errorf("online: explorer: selection %q: want winrate or count", opts.Selection)
	}
	for _, r := range opts.Ratings {
		if !slices.Contains(lichess.ExplorerRatings, r) {
			return nil, fmt.Errorf("online: explorer: rating group %d: want one of %v", r, lichess.ExplorerRatings)
		}
	}
	if opts.MinGames < 0 || opts.MaxPly < 0 {
		return nil, fmt.Errorf("online: explorer: min games %d, max ply %d: want 0 or more", opts.MinGames, opts.MaxPly)
	}
	return &Explorer{api: api, opts: opts}, nil
}

// Name returns "explorer".
func (e *Explorer) Name() string { return NameExplorer }

// Move returns the explorer's move by the selection rule, or ErrNoMove
// past MaxPly or when no move has MinGames games.
func (e *Explorer) Move(ctx context.Context, pos engine.Position, _ engine.Limits) (engine.Move, error) {
	b, err := position(pos, false)
	if err != nil {
		return engine.Move{}, err
	}
	if e.opts.MaxPly > 0 && gamePly(b) >= e.opts.MaxPly {
		return engine.Move{}, movesource.ErrNoMove
	}
	ans, err := e.api.Explorer(ctx, lichess.ExplorerQuery{DB: e.opts.DB, FEN: b.FEN(), Speeds: e.opts.Speeds, Ratings: e.opts.Ratings})
	if err != nil {
		return engine.Move{}, fmt.Errorf("online: explorer: %w", err)
	}
	uci, ok := PickExplorerMove(b, ans.Moves, e.opts.Selection, e.opts.MinGames)
	if !ok {
		return engine.Move{}, movesource.ErrNoMove
	}
	return engine.Move{UCI: uci, PV: []string{uci}, Source: NameExplorer}, nil
}

// PickExplorerMove returns the legal move of moves chosen by selection
// among those played in at least minGames games, or false.
func PickExplorerMove(b *board.Board, moves []lichess.ExplorerMove, selection string, minGames int) (string, bool) {
	white := b.SideToMove() == board.White
	best, bestUCI := -1, ""
	for i, m := range moves {
		n := m.Games()
		if n < max(minGames, 1) {
			continue
		}
		uci, ok := legal(b, m.UCI)
		if !ok {
			continue
		}
		if best < 0 || better(m, moves[best], white, selection) {
			best, bestUCI = i, uci
		}
	}
	return bestUCI, best >= 0
}

// better reports whether a is preferred to b by selection.
func better(a, b lichess.ExplorerMove, white bool, selection string) bool {
	ra, rb := winRate(a, white), winRate(b, white)
	if selection == SelectCount {
		if a.Games() != b.Games() {
			return a.Games() > b.Games()
		}
		return ra > rb
	}
	if ra != rb {
		return ra > rb
	}
	return a.Games() > b.Games()
}

// winRate is the side to move's score in the move's games, in half points
// per game scaled to avoid fractions: (2·wins + draws) / (2·games).
func winRate(m lichess.ExplorerMove, white bool) float64 {
	wins := m.White
	if !white {
		wins = m.Black
	}
	return float64(2*wins+m.Draws) / float64(2*max(m.Games(), 1))
}
