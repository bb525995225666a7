package comparerun

import (
	"context"
	"fmt"
	"time"

	"github.com/outpostchess/outpost/analysis"
	"github.com/outpostchess/outpost/analysis/input"
	"github.com/outpostchess/outpost/analysis/replay"
	"github.com/outpostchess/outpost/lichess"
)

// exportOptions is what the fetcher asks Lichess for: the server analysis
// (evals, best moves, judgements), clocks, the opening and the players'
// accuracy.
var exportOptions = lichess.ExportOptions{Evals: true, Clocks: true, Opening: true, Accuracy: true}

// Fetcher fetches Lichess games through the client and converts them to
// analysis games with Lichess's own analysis attached (Game.Lichess), so a
// comparison is possible. It implements input.Fetcher. The client's token
// is optional: public games need none.
type Fetcher struct {
	Client *lichess.Client
}

// NewFetcher returns a fetcher over c.
func NewFetcher(c *lichess.Client) *Fetcher { return &Fetcher{Client: c} }

var _ input.Fetcher = (*Fetcher)(nil)

// Fetch implements input.Fetcher: it fetches one game by id or URL (see
// ParseGameRef) and returns it as a one-game source.
func (f *Fetcher) Fetch(ctx context.Context, idOrURL string) (input.GameSource, error) {
	g, err := f.FetchGame(ctx, idOrURL)
	if err != nil {
		return nil, err
	}
	return gameList{name: g.Source, games: []*analysis.Game{g}}, nil
}

// FetchGame fetches one game by id or URL with Lichess's analysis (when it
// has one; Game.Lichess is nil otherwise).
func (f *Fetcher) FetchGame(ctx context.Context, idOrURL string) (*analysis.Game, error) {
	ref, err := ParseGameRef(idOrURL, true)
	if err != nil {
		return nil, fmt.Errorf("comparerun: fetch: %w", err)
	}
	lg, err := f.Client.ExportGame(ctx, ref.ID, exportOptions)
	if err != nil {
		return nil, fmt.Errorf("comparerun: fetch %s: %w", ref.ID, err)
	}
	return ConvertGame(ctx, lg, f.source(lg.ID), 1, nil)
}

// UserGamesOptions bound a user's game list.
type UserGamesOptions struct {
	// Since and Until bound the games' start time (zero: unbounded).
	Since, Until time.Time
	// Max is how many games at most (0: all).
	Max int
	// PerfTypes keeps only these speeds (blitz, rapid, ...); empty keeps
	// all.
	PerfTypes []string
}

// UserGames fetches a user's Lichess-analysed games, newest first
// (analysed=true, evals=true). Games that cannot be converted (another
// variant, a bad move list) come back in errs; the error return is for the
// request as a whole.
func (f *Fetcher) UserGames(ctx context.Context, user string, o UserGamesOptions) (games []*analysis.Game, errs []error, err error) {
	analysed := true
	p := lichess.UserGamesParams{ExportOptions: exportOptions, Since: o.Since, Until: o.Until, Max: o.Max, Analysed: &analysed, PerfTypes: o.PerfTypes}
	for lg, ierr := range f.Client.UserGames(ctx, user, p) {
		if ierr != nil {
			return games, errs, fmt.Errorf("comparerun: games of %s: %w", user, ierr)
		}
		g, cerr := ConvertGame(ctx, lg, f.source(lg.ID), len(games)+len(errs)+1, nil)
		if cerr != nil {
			errs = append(errs, cerr)
			continue
		}
		games = append(games, g)
	}
	return games, errs, nil
}

func (f *Fetcher) source(id string) string { return f.Client.BaseURL() + "/" + id }

// ConvertGame turns a game exported by the lichess client into an analysis
// game, Lichess's analysis (evals, best moves, variations, judgements and
// the players' stated figures) attached when the export has one. source and
// index name the game in messages. boards, when not nil, are an analysis's
// positions of the same moves (analysis.Analysis.Boards): the export is read
// on them instead of being replayed (input.Export.Game); the caller checks
// that the moves are the same.
func ConvertGame(ctx context.Context, lg *lichess.Game, source string, index int, boards []*replay.Board) (*analysis.Game, error) {
	if lg == nil {
		return nil, fmt.Errorf("comparerun: %s: no game", source)
	}
	g, err := exportOf(lg).Game(ctx, source, index, boards)
	if err != nil {
		return nil, fmt.Errorf("comparerun: %w", err)
	}
	return g, nil
}

// exportOf is the part of the client's game that analysis reads, field by
// field (the client's and analysis's models of the one export).
func exportOf(lg *lichess.Game) *input.Export {
	e := &input.Export{ID: lg.ID, Variant: lg.Variant.Key, InitialFen: lg.InitialFEN, CreatedAt: lg.CreatedAt,
		Status: string(lg.Status), Winner: string(lg.Winner), Moves: lg.Moves, Clocks: lg.Clocks}
	e.Players.White = exportPlayer(lg.Players.White)
	e.Players.Black = exportPlayer(lg.Players.Black)
	if o := lg.Opening; o != nil {
		e.Opening = &input.ExportOpening{ECO: o.ECO, Name: o.Name, Ply: o.Ply}
	}
	for _, a := range lg.Analysis {
		info := input.ExportInfo{Eval: a.Eval, Mate: a.Mate, Best: a.Best, Variation: a.Variation}
		if j := a.Judgment; j != nil {
			info.Judgment = &input.ExportJudgment{Name: j.Name, Comment: j.Comment}
		}
		e.Analysis = append(e.Analysis, info)
	}
	return e
}

func exportPlayer(p lichess.GamePlayerInfo) input.ExportPlayer {
	ep := input.ExportPlayer{Name: p.Name, AILevel: p.AILevel, Rating: p.Rating}
	if u := p.User; u != nil {
		ep.User = &input.ExportUser{Name: u.Name, Title: u.Title}
	}
	if a := p.Analysis; a != nil {
		acpl := a.ACPL
		ep.Analysis = &input.ExportStats{Inaccuracy: a.Inaccuracy, Mistake: a.Mistake, Blunder: a.Blunder, ACPL: &acpl, Accuracy: a.Accuracy}
	}
	return ep
}

// gameList is an in-memory input.GameSource.
type gameList struct {
	name  string
	games []*analysis.Game
}

// Name returns the source's name.
func (l gameList) Name() string { return l.name }

// Games returns the games.
func (l gameList) Games(ctx context.Context) ([]*analysis.Game, []error, error) {
	if err := ctx.Err(); err != nil {
		return nil, nil, err
	}
	return l.games, nil, nil
}
