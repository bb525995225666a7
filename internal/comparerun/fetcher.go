package comparerun

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/outpostchess/outpost/analysis"
	"github.com/outpostchess/outpost/analysis/input"
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
	return ConvertGame(lg, f.source(lg.ID), 1)
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
		g, cerr := ConvertGame(lg, f.source(lg.ID), len(games)+len(errs)+1)
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
// index name the game in messages.
func ConvertGame(lg *lichess.Game, source string, index int) (*analysis.Game, error) {
	if lg == nil {
		return nil, fmt.Errorf("comparerun: %s: no game", source)
	}
	raw, err := json.Marshal(lg)
	if err != nil {
		return nil, fmt.Errorf("comparerun: game %s: encode: %w", lg.ID, err)
	}
	g, err := input.DecodeJSONGame(raw, source, index)
	if err != nil {
		return nil, fmt.Errorf("comparerun: %w", err)
	}
	return g, nil
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
