package daemon

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/rs/zerolog"
	"github.com/stretchr/testify/require"

	"github.com/outpostchess/outpost/bots/engine"
	"github.com/outpostchess/outpost/config"
)

const testBook = "../../../shared/books/performance.bin"

func TestPolyglotBookSourceBuilder(t *testing.T) {
	ctx := context.Background()
	none, err := bookSources(ctx, nil, "e", config.EngineConfig{Type: "easy"})
	require.NoError(t, err)
	require.Empty(t, none)

	srcs, err := bookSources(ctx, nil, "e", config.EngineConfig{Type: "easy",
		Book: config.BookConfig{Files: []string{testBook}}})
	require.NoError(t, err)
	require.Len(t, srcs, 1)
	require.Equal(t, "book", srcs[0].Source.Name())
	require.Equal(t, bookTimeout, srcs[0].Timeout)
	mv, err := srcs[0].Source.Move(ctx, engine.Position{}, engine.Limits{})
	require.NoError(t, err)
	require.Equal(t, "e2e4", mv.UCI) // best: the first of three moves of weight 1
	require.NoError(t, srcs[0].Source.(interface{ Close() error }).Close())

	_, err = bookSources(ctx, nil, "e", config.EngineConfig{Type: "easy",
		Book: config.BookConfig{Files: []string{testBook, filepath.Join(t.TempDir(), "gone.bin")}}})
	require.ErrorContains(t, err, "engines.e.book")
	require.ErrorContains(t, err, "gone.bin")
}

// TestEngineFactoryBookAndBuiltinOptions: the daemon's factory puts the
// book before the engine, and passes [engines.NAME.options] to built-ins.
func TestEngineFactoryBookAndBuiltinOptions(t *testing.T) {
	src := "[engines.b]\ntype = \"hard\"\n[engines.b.book]\nfiles = [\"" + testBook + "\"]\n" +
		"[engines.b.options]\nDisable = \"lmr\"\nHash = 8\n"
	cfg, err := config.Parse([]byte(src), "t.toml")
	require.NoError(t, err)
	f := NewEngineFactory(cfg, zerolog.Nop())
	ctx := context.Background()
	e, err := f(ctx, "b")
	require.NoError(t, err)
	defer e.Close()
	mv, err := e.SelectMove(ctx, engine.Position{Moves: []string{"e2e4"}}, engine.Limits{Depth: 1})
	require.NoError(t, err)
	require.Equal(t, "book", mv.Source)
	require.Equal(t, "e7e5", mv.UCI) // e7e5 and c7c5 weigh 1 each: best takes the first
	info := e.(engine.Inspectable).Info()
	require.False(t, info.Features["lmr"], "Disable = \"lmr\" reached the engine: %v", info.Features)
	require.True(t, info.Features["pvs"])

	plain, err := f(ctx, "hard")
	require.NoError(t, err)
	defer plain.Close()
	require.True(t, plain.(engine.Inspectable).Info().Features["lmr"])
}
