package demo

import (
	"context"
	"encoding/binary"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/rs/zerolog"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/outpostchess/outpost/bots/board"
	"github.com/outpostchess/outpost/bots/book"
	"github.com/outpostchess/outpost/config"
	"github.com/outpostchess/outpost/internal/testkit"
)

// comboFEN is a five-piece position (White K+R+N against K+R) that the
// shared 3–4-piece Syzygy tables do not cover. comboBookMove, the knight
// fork Nc7+, is the one entry of the test's book for it.
const (
	comboFEN      = "r3k3/8/8/1N6/8/8/6K1/7R w - - 0 1"
	comboBookMove = "b5c7"
)

// polyglotMove encodes a UCI move as a Polyglot book entry's move: to file
// in bits 0–2, to rank 3–5, from file 6–8, from rank 9–11.
func polyglotMove(t *testing.T, uci string) uint16 {
	t.Helper()
	from, err := board.ParseSquare(uci[:2])
	require.NoError(t, err)
	to, err := board.ParseSquare(uci[2:4])
	require.NoError(t, err)
	m := uint16(to.File()) | uint16(to.Rank())<<3 | uint16(from.File())<<6 | uint16(from.Rank())<<9
	dec, err := book.DecodeMove(m)
	require.NoError(t, err)
	require.Equal(t, uci, dec, "the encoding round-trips through the reader's decoder")
	return m
}

// writeComboBook writes a one-entry Polyglot book (key, move, weight,
// learn: 16 bytes big-endian) giving comboBookMove for comboFEN.
func writeComboBook(t *testing.T) string {
	t.Helper()
	b, err := board.FromFEN(comboFEN)
	require.NoError(t, err)
	key, err := book.Key(b)
	require.NoError(t, err)
	var entry []byte
	entry = binary.BigEndian.AppendUint64(entry, key)
	entry = binary.BigEndian.AppendUint16(entry, polyglotMove(t, comboBookMove))
	entry = binary.BigEndian.AppendUint16(entry, 1)
	entry = binary.BigEndian.AppendUint32(entry, 0)
	path := filepath.Join(t.TempDir(), "combo.bin")
	require.NoError(t, os.WriteFile(path, entry, 0o600))
	return path
}

// checkComboPosition asserts what makes the game below certain to pass
// through the engine and then the tables: comboFEN has five pieces; after
// the book move Black is in check and no reply captures anything, and
// after every reply White has a capture of the rook (down to four pieces)
// and no mate in one, so the engine searches a five-piece position whose
// best move is that capture.
func checkComboPosition(t *testing.T) {
	t.Helper()
	b, err := board.FromFEN(comboFEN)
	require.NoError(t, err)
	require.Equal(t, 5, board.Count(b.All()))
	require.NoError(t, b.MakeUCI(comboBookMove))
	require.True(t, b.InCheck(), "the book move gives check")
	replies := b.LegalMoves()
	require.NotEmpty(t, replies)
	for _, r := range replies {
		b.Make(r)
		require.Equal(t, 5, board.Count(b.All()), "reply %s captures nothing", r)
		var rookCaptures int
		for _, m := range b.LegalMoves() {
			if m.IsCapture() && b.PieceAt(m.To()).Type() == board.Rook {
				rookCaptures++
			}
			b.Make(m)
			require.False(t, b.IsCheckmate(), "after %s, %s would mate at once", r, m)
			b.Unmake()
		}
		require.Positive(t, rookCaptures, "after %s White can take the rook", r)
		b.Unmake()
	}
}

// moveSourceEvents returns the "move source" log lines of the daemon's
// engine combo, in order.
func moveSourceEvents(t *testing.T, logs string) []struct{ Source, Move string } {
	t.Helper()
	var out []struct{ Source, Move string }
	for _, line := range strings.Split(logs, "\n") {
		var ev struct{ Message, Engine, Source, Move string }
		if json.Unmarshal([]byte(line), &ev) == nil && ev.Message == "move source" && ev.Engine == "combo" {
			out = append(out, struct{ Source, Move string }{ev.Source, ev.Move})
		}
	}
	return out
}

// botMoveSources splits the move source events into one group per bot
// move (the book is asked first on every move) and returns, per bot move,
// the source that gave it or "" when the engine searched.
func botMoveSources(t *testing.T, events []struct{ Source, Move string }, botMoves []string) []string {
	t.Helper()
	var groups [][]struct{ Source, Move string }
	for _, ev := range events {
		if ev.Source == "book" || len(groups) == 0 {
			groups = append(groups, nil)
		}
		groups[len(groups)-1] = append(groups[len(groups)-1], ev)
	}
	require.GreaterOrEqual(t, len(groups), len(botMoves), "one round of move sources per bot move: %v", events)
	// Rounds after the game's last bot move belong to a next game the
	// sparring partner started before the demo stopped.
	out := make([]string, len(botMoves))
	for i, g := range groups[:len(botMoves)] {
		for _, ev := range g {
			if ev.Move != "" {
				require.Equal(t, botMoves[i], ev.Move, "bot move %d is the one source %s gave", i+1, ev.Source)
				out[i] = ev.Source
			}
		}
	}
	return out
}

// TestBookThenTablebaseDaemonGame: the daemon plays a fromPosition game
// over loopback HTTP against the sandbox with one engine definition that
// has a Polyglot book and the shared Syzygy tables (root source and
// in-search probing). Its first move comes from the book; the next
// position is out of the book with five pieces, so the engine searches and
// takes the rook; from the first position of at most four pieces on, every
// bot move comes from the tables, and the bot mates.
func TestBookThenTablebaseDaemonGame(t *testing.T) {
	checkComboPosition(t)
	ctx, cancel := context.WithTimeout(context.Background(), 4*time.Minute)
	defer cancel()
	tables, err := filepath.Abs(filepath.Join("..", "..", "..", "shared", "tablebases", "syzygy"))
	require.NoError(t, err)
	cfg := fastConfig()
	caps := config.SearchCaps{Depth: 6} // the searched moves stay short on a busy machine
	cfg.Engines.Defs["combo"] = config.EngineConfig{Type: "medium",
		Book:   config.BookConfig{Files: []string{writeComboBook(t)}, Selection: "best"},
		Syzygy: &config.SyzygyConfig{Enabled: true, Path: []string{tables}},
		Limits: config.SpeedLimits{Bullet: caps, Blitz: caps}}
	cfg.Engines.Default = "combo"
	require.NoError(t, cfg.Validate())
	var logs testkit.SyncBuffer
	res, err := Run(ctx, Options{Config: cfg, Games: 1, TC: "2+2", Dir: t.TempDir(), Summariser: &countingSummariser{},
		Logger: zerolog.New(&logs).Level(zerolog.DebugLevel), SparringFEN: comboFEN, SparringVariant: "fromPosition"})
	require.NoError(t, err)
	require.Len(t, res.Summary, 1)
	for id := range res.Summary {
		g, ok := res.Sandbox.Game(id)
		require.True(t, ok)
		require.Equal(t, comboFEN, g.InitialFEN)
		require.Equal(t, BotName, g.White, "the first sparring challenge gives the bot White")
		t.Logf("game %s: %d plies, %v", id, len(g.Moves), g.Moves)
		assert.Equal(t, "mate", g.Status, "moves %v", g.Moves)
		assert.Equal(t, "white", g.Winner)

		var botMoves []string
		for i := 0; i < len(g.Moves); i += 2 {
			botMoves = append(botMoves, g.Moves[i])
		}
		sources := botMoveSources(t, moveSourceEvents(t, logs.String()), botMoves)
		t.Logf("bot move sources (\"\" = searched): %q", sources)
		require.Equal(t, comboBookMove, g.Moves[0])
		assert.Equal(t, "book", sources[0], "bot move 1 comes from the book")

		b, err := board.FromFEN(comboFEN)
		require.NoError(t, err)
		searched, inTables := 0, false
		for i, m := range g.Moves {
			if i%2 == 0 {
				n := i/2 + 1
				switch {
				case inTables:
					assert.Equal(t, "syzygy", sources[n-1], "bot move %d %s (≤4 pieces) comes from the tables", n, m)
				case n > 1:
					assert.Empty(t, sources[n-1], "bot move %d %s (5 pieces, out of book) is searched", n, m)
					searched++
				}
			}
			require.NoError(t, b.MakeUCI(m))
			inTables = inTables || board.Count(b.All()) <= 4
		}
		assert.Positive(t, searched, "the engine searched at least one move")
		assert.True(t, inTables, "the game reached a position of at most four pieces")
		assert.True(t, b.IsCheckmate())
	}
}
