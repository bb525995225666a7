package demo

import (
	"context"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/rs/zerolog"
	"github.com/stretchr/testify/require"

	"github.com/outpostchess/outpost/bots"
	"github.com/outpostchess/outpost/bots/book"
	"github.com/outpostchess/outpost/bots/engine"
	"github.com/outpostchess/outpost/config"
	"github.com/outpostchess/outpost/internal/daemon"
)

const performanceBook = "../../../shared/books/performance.bin"

// askedEngine records the plies at which the engine was asked for a move.
type askedEngine struct {
	engine.Engine
	mu     *sync.Mutex
	plies  *[]int
	depths *[]int
}

func (a askedEngine) SelectMove(ctx context.Context, pos engine.Position, lim engine.Limits) (engine.Move, error) {
	a.mu.Lock()
	*a.plies = append(*a.plies, len(pos.Moves))
	*a.depths = append(*a.depths, lim.Depth)
	a.mu.Unlock()
	return a.Engine.SelectMove(ctx, pos, lim)
}

// TestPolyglotDaemonPlaysFromBook: the daemon, with an engine whose
// definition has performance.bin as its book, plays its opening moves from
// the book over real loopback HTTP against the sandbox (the book's best
// move each time, without asking the engine), then leaves the book (past
// max_depth or out of book) and the engine plays, under the depth cap of
// [engines.booked.limits.bullet].
func TestPolyglotDaemonPlaysFromBook(t *testing.T) {
	const maxDepth = 10
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	cfg := fastConfig()
	cfg.Engines.Default = "booked"
	cfg.Engines.Defs = map[string]config.EngineConfig{"booked": {Type: "easy",
		Book:   config.BookConfig{Files: []string{performanceBook}, Selection: "best", MaxDepth: maxDepth},
		Limits: config.SpeedLimits{Bullet: config.SearchCaps{Depth: 3}, Blitz: config.SearchCaps{Depth: 5}}}}
	require.NoError(t, cfg.Validate())

	var mu sync.Mutex
	var asked, depths []int
	factory := func(ctx context.Context, name string) (engine.Engine, error) {
		e, err := bots.New(ctx, "easy", bots.WithName(name))
		if err != nil {
			return nil, err
		}
		return daemon.WithMoveSources(ctx, cfg, name, askedEngine{Engine: e, mu: &mu, plies: &asked, depths: &depths}, zerolog.Nop())
	}
	res, err := Run(ctx, Options{Config: cfg, Games: 1, TC: "1+1", Engines: factory, Dir: t.TempDir(),
		Logger: zerolog.Nop(), SparringResignAfter: 12})
	require.NoError(t, err)
	require.Len(t, res.Summary, 1)

	bk, err := book.Open(performanceBook)
	require.NoError(t, err)
	want, err := book.NewSource([]*book.Book{bk}, book.Options{Selection: book.Best})
	require.NoError(t, err)
	defer want.Close()
	for id := range res.Summary {
		g, ok := res.Sandbox.Game(id)
		require.True(t, ok)
		first := 0 // the bot's first ply
		if g.Black == BotName {
			first = 1
		}
		var fromBook, searched int
		for ply := first; ply < len(g.Moves); ply += 2 {
			pos := engine.Position{Moves: g.Moves[:ply]}
			mv, err := want.Move(ctx, pos, engine.Limits{})
			inBook := err == nil && ply < maxDepth
			mu.Lock()
			wasAsked := slices.Contains(asked, ply)
			mu.Unlock()
			if inBook {
				require.Equalf(t, mv.UCI, g.Moves[ply], "ply %d: the book's best move", ply)
				require.Falsef(t, wasAsked, "ply %d: the engine was asked for a book move", ply)
				fromBook++
			} else {
				require.Truef(t, wasAsked, "ply %d: out of book, the engine plays", ply)
				searched++
			}
		}
		t.Logf("game %s: %v; %d book moves, %d engine moves", id, g.Moves, fromBook, searched)
		require.Positive(t, fromBook, "the bot played from the book")
		require.Positive(t, searched, "the bot left the book")
	}
	// 1+1 is bullet: the engine searched under [engines.booked.limits.bullet].
	mu.Lock()
	defer mu.Unlock()
	for _, d := range depths {
		require.Equal(t, 3, d, "the bullet depth cap reached the engine")
	}
}
