package match

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/notnil/chess"

	"github.com/outpostchess/outpost/bots"
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
	tolerance time.Duration
	maxPlies  int
}

// play plays one game between white and black from start, refereed by
// notnil/chess. An engine error, an illegal move or a move later than
// moveTime+tolerance loses the game. Draws are adjudicated on threefold
// repetition, the fifty-move rule, insufficient material and after maxPlies
// plies in total (opening included).
func (r referee) play(ctx context.Context, white, black engine.Engine, start engine.Position) (Game, error) {
	gm := Game{White: white.Name(), Black: black.Name(), Start: start}
	p, err := bots.Replay(start)
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
	seen := map[string]int{repetitionKey(p): 1}
	pos := engine.Position{StartFEN: start.StartFEN, Moves: append([]string(nil), start.Moves...)}
	for {
		if res, reason, over := adjudicate(p, seen); over {
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
		side, mover := white, chess.White
		if p.Turn() == chess.Black {
			side, mover = black, chess.Black
		}
		lose := func(reason string) (Game, error) {
			gm.Result, gm.Reason = WhiteWins, reason
			if mover == chess.White {
				gm.Result = BlackWins
			}
			return gm, nil
		}
		limit := r.moveTime + r.tolerance
		mctx, cancel := context.WithTimeout(ctx, limit)
		begin := time.Now()
		m, err := side.SelectMove(mctx, pos, engine.Limits{MoveTime: r.moveTime})
		took := time.Since(begin)
		cancel()
		switch {
		case ctx.Err() != nil:
			return gm, ctx.Err()
		case took > limit:
			return lose(fmt.Sprintf("time forfeit: %s took %v for a %v move", side.Name(), took.Round(time.Millisecond), r.moveTime))
		case err != nil && errors.Is(err, context.DeadlineExceeded):
			return lose(fmt.Sprintf("time forfeit: %s: %v", side.Name(), err))
		case err != nil:
			return lose(fmt.Sprintf("engine error: %s: %v", side.Name(), err))
		}
		next, err := bots.Play(p, m.UCI)
		if err != nil {
			return lose(fmt.Sprintf("illegal move: %s played %q", side.Name(), m.UCI))
		}
		p = next
		seen[repetitionKey(p)]++
		pos.Moves = append(pos.Moves, m.UCI)
		gm.Moves = append(gm.Moves, m.UCI)
		gm.Plies++
	}
}

// adjudicate reports whether the game is over in p.
func adjudicate(p *chess.Position, seen map[string]int) (Result, string, bool) {
	switch p.Status() {
	case chess.Checkmate:
		if p.Turn() == chess.White {
			return BlackWins, "checkmate", true
		}
		return WhiteWins, "checkmate", true
	case chess.Stalemate:
		return Draw, "stalemate", true
	}
	switch {
	case insufficientMaterial(p.Board()):
		return Draw, "insufficient material", true
	case seen[repetitionKey(p)] >= 3:
		return Draw, "threefold repetition", true
	case p.HalfMoveClock() >= 100:
		return Draw, "fifty-move rule", true
	}
	return "", "", false
}

// repetitionKey identifies a position for repetition: the FEN without the
// move counters.
func repetitionKey(p *chess.Position) string {
	f := strings.Fields(p.String())
	return strings.Join(f[:min(4, len(f))], " ")
}

// insufficientMaterial reports whether neither side can mate: no pawns,
// rooks or queens, and at most one minor piece, or only bishops all on
// squares of one colour.
func insufficientMaterial(b *chess.Board) bool {
	minors, bishopColours := 0, map[int]bool{}
	for sq, pc := range b.SquareMap() {
		switch pc.Type() {
		case chess.King:
		case chess.Knight:
			minors++
			bishopColours[-1] = true // a knight breaks the same-colour rule
		case chess.Bishop:
			minors++
			bishopColours[(int(sq.File())+int(sq.Rank()))%2] = true
		default:
			return false
		}
	}
	return minors <= 1 || (len(bishopColours) == 1 && !bishopColours[-1])
}
