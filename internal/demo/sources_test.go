package demo

import (
	"bufio"
	"context"
	"encoding/binary"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/rs/zerolog"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/outpostchess/outpost/bots"
	"github.com/outpostchess/outpost/bots/board"
	"github.com/outpostchess/outpost/bots/book"
	"github.com/outpostchess/outpost/bots/engine"
	"github.com/outpostchess/outpost/config"
	"github.com/outpostchess/outpost/internal/daemon"
	"github.com/outpostchess/outpost/internal/sandbox"
	"github.com/outpostchess/outpost/internal/testkit"
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
	ctx := testContext(t, 3*time.Minute)
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
	ctx := testContext(t, 4*time.Minute)
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

// TestSyzygyDaemonFinishesFromTables: the daemon plays a fromPosition game
// over loopback HTTP against the sandbox from a won KRK endgame, with
// medium's [engines.NAME.syzygy] tables enabled; every one of its moves
// comes from the tables (move source "syzygy" in its log) and the game
// ends in mate by the bot.
func TestSyzygyDaemonFinishesFromTables(t *testing.T) {
	ctx := testContext(t, 3*time.Minute)
	tables, err := filepath.Abs(filepath.Join("..", "..", "..", "shared", "tablebases", "syzygy"))
	require.NoError(t, err)
	cfg := fastConfig()
	cfg.Engines.Defs["tb"] = config.EngineConfig{Type: "medium", Syzygy: &config.SyzygyConfig{Enabled: true, Path: []string{tables}}}
	cfg.Engines.Default = "tb"
	const fen = "8/8/8/4k3/8/8/8/K6R w - - 0 1"
	var logs testkit.SyncBuffer
	res, err := Run(ctx, Options{Config: cfg, Games: 1, TC: "1+1", Dir: t.TempDir(), Summariser: &countingSummariser{},
		Logger: zerolog.New(&logs).Level(zerolog.DebugLevel), SparringFEN: fen, SparringVariant: "fromPosition"})
	require.NoError(t, err)
	require.Len(t, res.Summary, 1)
	sources := map[string]int{}
	for _, line := range strings.Split(logs.String(), "\n") {
		var ev struct{ Message, Engine, Source, Move string }
		if json.Unmarshal([]byte(line), &ev) == nil && ev.Message == "move source" && ev.Source == "syzygy" && ev.Move != "" {
			sources[ev.Move]++
		}
	}
	for id := range res.Summary {
		g, ok := res.Sandbox.Game(id)
		require.True(t, ok)
		assert.Equal(t, fen, g.InitialFEN)
		require.Equal(t, BotName, g.White, "the first sparring challenge gives the bot White")
		assert.Equal(t, "mate", g.Status, "moves %v", g.Moves)
		assert.Equal(t, "white", g.Winner)
		b, err := board.FromFEN(fen)
		require.NoError(t, err)
		for i, m := range g.Moves {
			if i%2 == 0 {
				assert.Positive(t, sources[m], "bot move %d %s came from the tables", i/2+1, m)
			}
			require.NoError(t, b.MakeUCI(m))
		}
		assert.True(t, b.IsCheckmate())
		t.Logf("game %s: %d plies, %v", id, len(g.Moves), g.Moves)
		assert.Less(t, len(g.Moves), 2*32, "KRK is mated within 32 moves (DTZ-optimal play)")
	}
}

// sourceMoves returns the "move source" lines of the JSON log logs that
// gave a move, as source → moves.
func sourceMoves(t *testing.T, logs *testkit.SyncBuffer) map[string][]string {
	out := map[string][]string{}
	sc := bufio.NewScanner(strings.NewReader(logs.String()))
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		var l struct{ Message, Source, Move string }
		if json.Unmarshal(sc.Bytes(), &l) == nil && l.Message == "move source" && l.Move != "" {
			out[l.Source] = append(out[l.Source], l.Move)
		}
	}
	require.NoError(t, sc.Err())
	return out
}

// onlineConfig is a daemon configuration whose default engine asks all
// three Lichess sources before searching.
func onlineConfig() *config.Config {
	cfg := fastConfig()
	on := config.OnlineConfig{
		CloudEval: config.CloudEvalConfig{Enabled: true, MinDepth: 20, MultiPV: 2, Timeout: 5 * time.Second},
		Explorer:  config.ExplorerConfig{Enabled: true, Source: "masters", Selection: "winrate", MinGames: 5, MaxPly: 10, Timeout: 5 * time.Second},
		Tablebase: config.TablebaseConfig{Enabled: true, MaxPieces: 5, Timeout: 10 * time.Second},
	}
	cfg.Engines.Defs = map[string]config.EngineConfig{"online": {Type: "easy", Online: on}}
	cfg.Engines.Default = "online"
	return cfg
}

// TestCloudEvalAndExplorerInDaemonGame: the daemon plays White from the
// start against the sandbox; its first move comes from the cloud
// evaluation the sandbox holds, its second from the masters explorer,
// then its engine takes over.
func TestCloudEvalAndExplorerInDaemonGame(t *testing.T) {
	ctx := testContext(t, 3*time.Minute)
	logs := &testkit.SyncBuffer{}
	ready := func(srv *sandbox.Server) {
		cp := 35
		require.NoError(t, srv.AttachCloudEval(board.StartFEN, sandbox.CloudEval{Depth: 30, PVs: []sandbox.CloudPV{
			{CP: &cp, Moves: "e2e4 e7e5"}}}))
		b, err := board.FromFEN(board.StartFEN)
		require.NoError(t, err)
		require.NoError(t, b.MakeUCI("e2e4"))
		for _, reply := range b.LegalMoves() {
			b.Make(reply)
			require.NoError(t, srv.AttachExplorer("masters", b.FEN(), []sandbox.ExplorerMove{
				{UCI: "g1f3", White: 6, Draws: 3, Black: 1}, {UCI: "b1c3", White: 1, Draws: 1, Black: 1}}))
			b.Unmake()
		}
	}
	res, err := Run(ctx, Options{Config: onlineConfig(), Games: 1, TC: "1+0", Dir: t.TempDir(), Out: io.Discard,
		Logger: zerolog.New(logs), Ready: ready})
	require.NoError(t, err)
	require.Len(t, res.Summary, 1)
	moves := sourceMoves(t, logs)
	assert.Equal(t, []string{"e2e4"}, moves["cloud-eval"], "the first move is the cloud's")
	assert.Equal(t, []string{"g1f3"}, moves["explorer"], "the second move is the explorer's best by win rate")
	for id := range res.Summary {
		g, ok := res.Sandbox.Game(id)
		require.True(t, ok)
		require.GreaterOrEqual(t, len(g.Moves), 3, "game %s", id)
		assert.Equal(t, []string{"e2e4", "g1f3"}, []string{g.Moves[0], g.Moves[2]})
	}
}

// TestTablebaseInDaemonGame: from a king-and-queen ending the daemon, as
// White, mates at once with the move the sandbox's tablebase (an exact
// mate search standing in for Syzygy) ranks first.
func TestTablebaseInDaemonGame(t *testing.T) {
	ctx := testContext(t, 3*time.Minute)
	logs := &testkit.SyncBuffer{}
	res, err := Run(ctx, Options{Config: onlineConfig(), Games: 1, TC: "1+0", Dir: t.TempDir(), Out: io.Discard,
		Logger: zerolog.New(logs), SparringFEN: "7k/8/6K1/8/8/8/8/5Q2 w - - 0 1",
		Sandbox: sandbox.Config{Tablebase: sandbox.MateSearchProber{MaxPlies: 3}}})
	require.NoError(t, err)
	require.Len(t, res.Summary, 1)
	assert.Equal(t, []string{"f1f8"}, sourceMoves(t, logs)["tablebase"])
	for id := range res.Summary {
		g, ok := res.Sandbox.Game(id)
		require.True(t, ok)
		assert.Equal(t, "mate", g.Status)
		assert.Equal(t, "white", g.Winner)
	}
}
