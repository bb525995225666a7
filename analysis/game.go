package analysis

import (
	"fmt"
	"strings"

	"github.com/outpostchess/outpost/analysis/pgn"
	"github.com/outpostchess/outpost/bots/board"
	"github.com/outpostchess/outpost/bots/score"
)

// Tag is one PGN tag pair, kept in input order.
type Tag struct {
	Name, Value string
}

// Game is one game to analyse, as read from any source (PGN, Lichess JSON,
// a fetcher): the moves with what the input said about them.
type Game struct {
	Index    int    // 1-based position in its source
	Source   string // file name, URL or fetcher name
	ID       string // Lichess game id when known, else "" (see Key)
	Tags     []Tag
	StartFEN string // "" for the standard start
	StartPly int    // plies before the first move (from the FEN's move number)
	Moves    []Move
	Result   string // "1-0", "0-1", "1/2-1/2" or "*"
	White    PlayerInfo
	Black    PlayerInfo
	// Initial holds comments before the first move.
	Initial []string
	// Lichess is Lichess's own analysis carried by the input, nil if none.
	Lichess *LichessAnalysis
	// Warnings are the reader's recoverable oddities of the game as
	// written (pgn.Game.Warnings: a missing result token, a control
	// character in a tag value): the game was kept; see WarningLines.
	Warnings []string
}

// WarningLines are the game's Warnings as a reader of the input is told
// them: "game 3 (Carlsen–Nakamura): no result token at the end of the
// movetext" (a name the input lacks is "?"; a control character in a name
// is written as pgn.CleanText writes it, so that no line carries one).
func (g *Game) WarningLines() []string {
	if len(g.Warnings) == 0 {
		return nil
	}
	name := func(p PlayerInfo) string {
		if p.Name == "" {
			return "?"
		}
		return pgn.CleanText(p.Name)
	}
	lines := make([]string, len(g.Warnings))
	for i, w := range g.Warnings {
		lines[i] = fmt.Sprintf("game %d (%s–%s): %s", g.Index, name(g.White), name(g.Black), w)
	}
	return lines
}

// PlayerInfo names a player.
type PlayerInfo struct {
	Name   string
	Rating int
	Title  string
}

// Move is one mainline move.
type Move struct {
	SAN string // as written in the input (annotations removed)
	UCI string
	// Clock is the [%clk] value after the move ("0:01:00"), "" if none.
	Clock string
	// Opening is the opening comment Lichess writes after the opening's
	// last ply ("B46 Sicilian Defense: Taimanov Variation").
	Opening string
	// Status is the game-status comment ("Black wins by checkmate.").
	Status string
	// Comments holds any other comments, in order.
	Comments []string
}

// FirstWhite reports whether White plays the game's first move.
func (g *Game) FirstWhite() bool { return g.StartPly%2 == 0 }

// Chess960 reports whether the game is Chess960: its Variant tag says so,
// or its start position's castling field names rooks by their files
// (Shredder-FEN "HAha"), which only Chess960 castling reads. Without the
// second, such a game was replayed with Chess960 castling but analysed
// without UCI_Chess960, and its O-O reported as a blunder.
func (g *Game) Chess960() bool {
	return IsChess960(g.Tag("Variant")) || board.ShredderCastling(g.StartFEN)
}

// IsChess960 reports whether a variant name or key denotes Chess960:
// Lichess writes "Chess960" in PGN and "chess960" in JSON, cutechess
// "fischerandom".
func IsChess960(variant string) bool {
	switch strings.ToLower(strings.TrimSpace(variant)) {
	case "chess960", "chess 960", "fischerandom", "fischer random", "fischerrandom":
		return true
	}
	return false
}

// Tag returns the value of the named tag, "" if absent.
func (g *Game) Tag(name string) string {
	for _, t := range g.Tags {
		if t.Name == name {
			return t.Value
		}
	}
	return ""
}

// Key identifies the game in reports: its Lichess id, else "<source>#<index>".
func (g *Game) Key() string {
	if g.ID != "" {
		return g.ID
	}
	return g.Source + "#" + itoa(g.Index)
}

// MoverWhite reports whether ply i (0-based index into Moves) is White's.
func (g *Game) MoverWhite(i int) bool { return (g.StartPly+i)%2 == 0 }

// MoveNumber returns the full-move number of ply i (0-based index).
func (g *Game) MoveNumber(i int) int { return (g.StartPly+i)/2 + 1 }

// LichessAnalysis is Lichess's analysis as found in the input.
type LichessAnalysis struct {
	// Plies has one entry per move (same length as Game.Moves).
	Plies []LichessPly
	// White and Black are the per-player figures the input states, nil when
	// it states none.
	White, Black *StatedFigures
	// Annotator is the input's Annotator tag ("" when none): evals
	// annotated by another tool (e.g. our own PGN output) are classified by
	// --lichess-evals but not compared as Lichess's.
	Annotator string
	// Literate is true when the input carries Lichess's judgement comments
	// or best moves, so a ply without them had no advice: the engine's best
	// move was the move played, or the drop was below the thresholds.
	Literate bool
}

// LichessPly is what Lichess said about one move.
type LichessPly struct {
	Eval      *score.Score // from [%eval] or the JSON eval/mate
	Judgement Judgement
	Mate      MateKind
	Comment   string // the judgement comment as found ("" if none)
	// CommentPrev and CommentCur are the evals of the comment's "(a → b)".
	CommentPrev, CommentCur *score.Score
	BestUCI, BestSAN        string
	Variation               []string // SAN, from the position before the move
}

// StatedFigures are per-player figures stated by the input.
type StatedFigures struct {
	Accuracy                     *int
	ACPL                         *int
	Inaccuracy, Mistake, Blunder int
}

func itoa(n int) string {
	if n == 0 {
		return "0"
	}
	neg := n < 0
	if neg {
		n = -n
	}
	var b [20]byte
	i := len(b)
	for n > 0 {
		i--
		b[i] = byte('0' + n%10)
		n /= 10
	}
	if neg {
		i--
		b[i] = '-'
	}
	return string(b[i:])
}

// FromLichess reports whether the analysis is Lichess's own (no Annotator
// tag, or one naming lichess).
func (l *LichessAnalysis) FromLichess() bool {
	return l != nil && (l.Annotator == "" || strings.Contains(strings.ToLower(l.Annotator), "lichess"))
}
