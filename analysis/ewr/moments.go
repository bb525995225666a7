package ewr

import (
	"context"
	"fmt"

	"github.com/outpostchess/outpost/analysis"
	"github.com/outpostchess/outpost/bots/board"
)

// Game is a played game as the hooks need it.
type Game struct {
	// StartFEN is the initial position ("" for the standard start).
	StartFEN string
	// Moves are the moves played, in UCI.
	Moves []string
	// Chess960 is set for a Chess960 game.
	Chess960 bool
	// WhiteRating and BlackRating are the players' ratings (0: unknown);
	// each maps to the nearest Maia level.
	WhiteRating, BlackRating int
}

// FromAnalysis returns the game of a Lichess-style analysis with its players'
// ratings.
func FromAnalysis(a *analysis.Analysis) Game {
	g := Game{WhiteRating: a.Players.White.Rating, BlackRating: a.Players.Black.Rating}
	if a.Game != nil {
		g.StartFEN = a.Game.StartFEN
		g.Chess960 = a.Game.Chess960()
		for _, m := range a.Game.Moves {
			g.Moves = append(g.Moves, m.UCI)
		}
	} else {
		g.StartFEN = a.FEN
		for _, p := range a.Plies {
			g.Moves = append(g.Moves, p.UCI)
		}
	}
	return g
}

// Moment is the expected-winrate view of one move of a game.
type Moment struct {
	// Ply is the move's 1-based index in the game; Label its number and
	// SAN ("23... Nxe5", analysis.MoveLabel).
	Ply   int
	Label string
	// White is true when White played the move.
	White bool
	// Rating is the mover's Maia level, OpponentRating the other side's.
	Rating, OpponentRating int
	// Played is the move played; Best the best practical move (highest
	// expected winrate). They are equal when the best move was played.
	Played, Best MoveResult
	// Result is the whole calculation in the position before the move.
	Result *Result
}

// PlayedWasBest reports whether the played move was the best practical
// move.
func (m Moment) PlayedWasBest() bool { return m.Played.UCI == m.Best.UCI }

// AnalyseMoment computes, in the position before the move at ply (1-based),
// the expected winrate of the move played against the best practical move,
// for the mover at the Maia level nearest their rating (the opponent at
// theirs). p's ratings are replaced; its other parameters are used as
// given (DefaultParams for the product defaults).
func AnalyseMoment(ctx context.Context, c *Calculator, g Game, ply int, p Params, opt Options) (Moment, error) {
	return AnalyseMomentOn(ctx, c, g, ply, nil, p, opt)
}

// AnalyseMomentOn is AnalyseMoment on b, the board before the move at ply
// as Boards returns it (nil: g is replayed to ply, counted in ctx's
// analysis.Counts). b is not changed.
func AnalyseMomentOn(ctx context.Context, c *Calculator, g Game, ply int, b *board.Board, p Params, opt Options) (Moment, error) {
	if ply < 1 || ply > len(g.Moves) {
		return Moment{}, fmt.Errorf("ewr: ply %d out of range 1..%d", ply, len(g.Moves))
	}
	pos := Position{StartFEN: g.StartFEN, Moves: g.Moves[:ply-1], Chess960: g.Chess960}
	if b == nil {
		analysis.CountReplay(ctx) // the calculation below takes b, not replaying pos again
		var err error
		if b, err = replay(pos); err != nil {
			return Moment{}, err
		}
	}
	played := g.Moves[ply-1]
	m, err := b.ParseUCI(played)
	if err != nil {
		return Moment{}, fmt.Errorf("ewr: ply %d: %w", ply, err)
	}
	white := b.SideToMove() == board.White
	mo := Moment{Ply: ply, White: white, Label: analysis.MoveLabel(b.FullmoveNumber(), white, b.SAN(m))}
	mo.Rating, mo.OpponentRating = NearestMaiaRating(g.WhiteRating), NearestMaiaRating(g.BlackRating)
	if !white {
		mo.Rating, mo.OpponentRating = mo.OpponentRating, mo.Rating
	}
	p.Rating, p.OpponentRating = mo.Rating, mo.OpponentRating
	opt.Include = append(append([]string(nil), opt.Include...), played)
	res, err := c.calculate(ctx, pos, b, p, opt)
	if err != nil {
		return Moment{}, err
	}
	mo.Result = res
	var ok bool
	if mo.Played, ok = res.Move(played); !ok {
		return mo, fmt.Errorf("ewr: ply %d: the played move %s was not evaluated (time limit?)", ply, played)
	}
	mo.Best, _ = res.Best()
	return mo, nil
}

// Boards replays g once (counted in ctx's analysis.Counts) and returns the
// board before the move at each of plies (1-based), for AnalyseMomentOn: the
// moments of one game then replay it once. A ply out of range, or after an
// illegal move, has no board (AnalyseMomentOn then replays it and reports
// the error).
func Boards(ctx context.Context, g Game, plies []int) map[int]*board.Board {
	want := map[int]bool{}
	for _, ply := range plies {
		want[ply] = true
	}
	out := map[int]*board.Board{}
	analysis.CountReplay(ctx)
	_, _ = replayVisiting(Position{StartFEN: g.StartFEN, Moves: g.Moves, Chess960: g.Chess960}, func(ply int, b *board.Board) {
		if want[ply] {
			out[ply] = b.Clone()
		}
	}) // an error ends the boards; the moments past it report it
	return out
}

// CriticalPlies returns each side's critical moment in an analysed game:
// the ply of its worst judgement (analysis.Worst, the rule of the chat
// summary's "Worst:"), White's first. A side without a judged move has
// none.
func CriticalPlies(a *analysis.Analysis) []int {
	var out []int
	for _, white := range []bool{true, false} {
		if p := a.Worst(func(p *analysis.Ply) bool { return p.White() == white }); p != nil {
			out = append(out, p.Ply)
		}
	}
	return out
}

// WorstPly returns the game's critical moment for a one-line summary: the
// ply of the worst judgement of either side by analysis.Worst (false when
// nothing was judged).
func WorstPly(a *analysis.Analysis) (int, bool) {
	if p := a.Worst(nil); p != nil {
		return p.Ply, true
	}
	return 0, false
}

// AnalyseCritical computes the moments of CriticalPlies(a) (for
// `outpost analyse --ewr`), plus any extra plies (e.g. our bot's moves).
func AnalyseCritical(ctx context.Context, c *Calculator, a *analysis.Analysis, extra []int, p Params, opt Options) ([]Moment, error) {
	g := FromAnalysis(a)
	plies := CriticalPlies(a)
	for _, x := range extra {
		if !containsInt(plies, x) {
			plies = append(plies, x)
		}
	}
	out := make([]Moment, 0, len(plies))
	boards := Boards(ctx, g, plies)
	for _, ply := range plies {
		m, err := AnalyseMomentOn(ctx, c, g, ply, boards[ply], p, opt)
		if err != nil {
			return out, err
		}
		out = append(out, m)
	}
	return out, nil
}

func containsInt(xs []int, x int) bool {
	for _, y := range xs {
		if y == x {
			return true
		}
	}
	return false
}

// Comment renders m for an annotated PGN or a text report:
// "EWR (Maia 1500): Nxe5 41.2%, best practical Qd2 58.7%".
func (m Moment) Comment() string {
	if m.PlayedWasBest() {
		return fmt.Sprintf("EWR (Maia %d): %s %.1f%%, the best practical move", m.Rating, m.Played.SAN, 100*m.Played.ExpectedWinrate)
	}
	return fmt.Sprintf("EWR (Maia %d): %s %.1f%%, best practical %s %.1f%%", m.Rating, m.Played.SAN, 100*m.Played.ExpectedWinrate, m.Best.SAN, 100*m.Best.ExpectedWinrate)
}

// MaxLineLen is the longest chat line Moment.Line returns.
const MaxLineLen = 140

// Line renders m as one chat line of at most MaxLineLen characters.
func (m Moment) Line() string {
	var s string
	if m.PlayedWasBest() {
		s = fmt.Sprintf("Critical moment %s: the best practical move for a %d player (expected winrate %.0f%%).", m.Label, m.Rating, 100*m.Played.ExpectedWinrate)
	} else {
		s = fmt.Sprintf("Critical moment %s: expected winrate %.0f%% for a %d player; %s would give %.0f%%.", m.Label, 100*m.Played.ExpectedWinrate, m.Rating, m.Best.SAN, 100*m.Best.ExpectedWinrate)
	}
	if len(s) > MaxLineLen {
		s = fmt.Sprintf("%s: EWR %.0f%%, best %s %.0f%%", m.Label, 100*m.Played.ExpectedWinrate, m.Best.SAN, 100*m.Best.ExpectedWinrate)
	}
	if len(s) > MaxLineLen {
		s = s[:MaxLineLen]
	}
	return s
}
