package match

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/outpostchess/outpost/bots/board"
	"github.com/outpostchess/outpost/bots/engine"
)

// Result is a finished game's outcome.
type Result string

// Game results in PGN notation.
const (
	WhiteWins Result = "1-0"
	BlackWins Result = "0-1"
	Draw      Result = "1/2-1/2"
)

// Game is one refereed game.
type Game struct {
	Index    int    // 0-based index in the match
	Opening  string // the opening's name
	White    string // engine names
	Black    string
	AIsWhite bool
	Result   Result
	Reason   string // "checkmate", "stalemate", "threefold repetition", "time forfeit", …
	Plies    int    // plies played by the engines (after the opening)
	Start    engine.Position
	Moves    []string // the engines' moves in UCI
}

// ScoreA returns A's points from this game (1, ½ or 0).
func (g Game) ScoreA() float64 {
	switch {
	case g.Result == Draw:
		return 0.5
	case (g.Result == WhiteWins) == g.AIsWhite:
		return 1
	}
	return 0
}

// referee holds the settings a game is played under.
type referee struct {
	moveTime  time.Duration
	nodes     int64 // per move, when positive
	tolerance time.Duration
	maxPlies  int
	clock     func() time.Time // nil: the wall clock (see Config.Clock)
}

// budget names a move's allowance in a forfeit message.
func (r referee) budget() string {
	if r.moveTime == 0 {
		return fmt.Sprintf("%d-node", r.nodes)
	}
	return r.moveTime.String()
}

// play plays one game between white and black from start, refereed by
// bots/board. An engine error, an illegal move or a move later than
// moveTime+tolerance loses the game. Draws are adjudicated on threefold
// repetition, the fifty-move rule, insufficient material and after maxPlies
// plies in total (opening included).
func (r referee) play(ctx context.Context, white, black engine.Engine, start engine.Position) (Game, error) {
	gm := Game{White: white.Name(), Black: black.Name(), Start: start}
	p, err := start.Board()
	if err != nil {
		return gm, fmt.Errorf("match: opening: %w", err)
	}
	for _, e := range []engine.Engine{white, black} {
		if st, ok := e.(engine.Stateful); ok {
			if err := st.NewGame(ctx); err != nil {
				return gm, fmt.Errorf("match: %s: new game: %w", e.Name(), err)
			}
		}
	}
	pos := engine.Position{StartFEN: start.StartFEN, Moves: append([]string(nil), start.Moves...)}
	for {
		if res, reason, over := adjudicate(p); over {
			gm.Result, gm.Reason = res, reason
			return gm, nil
		}
		if len(pos.Moves) >= r.maxPlies {
			gm.Result, gm.Reason = Draw, fmt.Sprintf("adjudicated after %d plies", r.maxPlies)
			return gm, nil
		}
		if err := ctx.Err(); err != nil {
			return gm, err
		}
		side, mover := white, board.White
		if p.SideToMove() == board.Black {
			side, mover = black, board.Black
		}
		lose := func(reason string) (Game, error) {
			gm.Result, gm.Reason = WhiteWins, reason
			if mover == board.White {
				gm.Result = BlackWins
			}
			return gm, nil
		}
		limit := r.moveTime + r.tolerance
		now, mctx, cancel := r.clock, ctx, context.CancelFunc(func() {})
		if now == nil {
			now = time.Now
			mctx, cancel = context.WithTimeout(ctx, limit)
		}
		begin := now()
		m, err := side.SelectMove(mctx, pos, engine.Limits{MoveTime: r.moveTime, Nodes: r.nodes})
		took := now().Sub(begin)
		cancel()
		switch {
		case ctx.Err() != nil:
			return gm, ctx.Err()
		case took > limit:
			return lose(fmt.Sprintf("time forfeit: %s took %v for a %v move", side.Name(), took.Round(time.Millisecond), r.budget()))
		case err != nil && errors.Is(err, context.DeadlineExceeded):
			return lose(fmt.Sprintf("time forfeit: %s: %v", side.Name(), err))
		case err != nil:
			return lose(fmt.Sprintf("engine error: %s: %v", side.Name(), err))
		}
		mv, ok := p.FindUCI(m.UCI)
		if !ok {
			return lose(fmt.Sprintf("illegal move: %s played %q", side.Name(), m.UCI))
		}
		p.Make(mv)
		pos.Moves = append(pos.Moves, m.UCI)
		gm.Moves = append(gm.Moves, m.UCI)
		gm.Plies++
	}
}

// adjudicate reports whether the game is over in p: checkmate, stalemate,
// insufficient material, threefold repetition (in p's history) or the
// fifty-move rule.
func adjudicate(p *board.Board) (Result, string, bool) {
	switch st := p.Status(); st {
	case board.Ongoing:
		return "", "", false
	case board.Checkmate:
		if p.SideToMove() == board.White {
			return BlackWins, "checkmate", true
		}
		return WhiteWins, "checkmate", true
	default:
		return Draw, st.String(), true
	}
}
