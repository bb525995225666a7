package daemon

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/outpostchess/outpost/bots/engine"
	"github.com/outpostchess/outpost/internal/store"
	"github.com/outpostchess/outpost/lichess"
	"github.com/outpostchess/outpost/lichess/runner"
)

// resume restarts the runners of games in progress (the account's playing
// list) before any new challenge is considered, so that the concurrency
// limit holds across restarts, and closes the games that ended while the
// daemon was down. It returns the games in progress (nil when they could not
// be listed), whose chat lines are left to their runners (resumeChat).
func (d *Daemon) resume(ctx, gamesCtx context.Context) (live map[string]bool, err error) {
	ongoing, err := persist(ctx, "list ongoing games", d, func(ctx context.Context) (*lichess.OngoingGames, error) {
		return d.api.OngoingGames(ctx, 50)
	})
	if err != nil {
		return nil, fmt.Errorf("list ongoing games: %w", err)
	}
	live = map[string]bool{}
	for _, g := range ongoing.NowPlaying {
		live[gameIDOf(g)] = true
		d.startGame(gamesCtx, g)
	}
	active, err := d.store.ActiveGames(ctx)
	if err != nil {
		return live, err
	}
	for _, g := range active {
		if live[g.ID] {
			continue
		}
		d.log.Info().Str("game", g.ID).Msg("game ended while the daemon was down")
		d.finishFromServer(gamesCtx, g.ID)
	}
	d.writeMissedRecords(gamesCtx)
	return live, nil
}

func gameIDOf(g lichess.GameInfo) string {
	if g.GameID != "" {
		return g.GameID
	}
	return g.ID
}

// startGame starts a runner for a game unless one is running.
func (d *Daemon) startGame(gamesCtx context.Context, info lichess.GameInfo) {
	id := gameIDOf(info)
	if id == "" {
		return
	}
	d.mu.Lock()
	if _, running := d.games[id]; running {
		d.mu.Unlock()
		return
	}
	acc, wasAccepted := d.accepted[id]
	delete(d.accepted, id)
	if !wasAccepted {
		// A game from one of our challenges: the matchmaker's offer says
		// who the opponent is (gameStart does not say it is a bot).
		key := strings.ToLower(info.Opponent.ID)
		if out, ok := d.outgoing[key]; ok {
			delete(d.outgoing, key)
			acc = accepted{offer: out.offer}
			acc.engine, acc.label = selectEngine(d.cfg, out.offer)
		}
	}
	gctx, cancel := context.WithCancel(gamesCtx)
	slot := &gameSlot{opponent: info.Opponent.Username, cancel: cancel, tournament: info.TournamentID, rules: acc.offer.Rules,
		correspondence: info.Speed == "correspondence" || (info.Speed == "" && acc.offer.Correspondence())}
	d.games[id] = slot
	d.notifyGames()
	d.lastBusy = time.Now()
	d.mu.Unlock()

	d.noteArenaGame(id, info.TournamentID)
	rec, label := d.gameRecord(gamesCtx, id, info, acc, wasAccepted)
	engineName := rec.Engine
	slot.bot = rec.OpponentBot
	if err := d.store.StartGame(gamesCtx, rec); err != nil {
		d.log.Error().Err(err).Str("game", id).Msg("record game start")
	}
	d.log.Info().Str("game", id).Str("opponent", info.Opponent.Username).Str("engine", engineName).
		Str("rule", label).Msg("game started")
	d.mu.Lock()
	d.runners[id]++
	d.mu.Unlock()
	d.wg.Add(1)
	go func() {
		defer d.wg.Done()
		defer func() {
			d.mu.Lock()
			if d.runners[id]--; d.runners[id] <= 0 {
				delete(d.runners, id)
			}
			d.mu.Unlock()
		}()
		defer cancel()
		d.runGame(gctx, id, engineName, info.Variant.Key, func() {
			// The game is over or left: its slot is free from now on,
			// before the PGN export and the bookkeeping.
			d.mu.Lock()
			delete(d.games, id)
			d.notifyGames()
			d.lastBusy = time.Now()
			d.mu.Unlock()
		})
	}()
}

// gameRecord is the store's record of a game starting: the engine chosen
// when it was accepted, else the one recorded before a restart, else the
// rules' choice now (label says which rule), and its start position.
func (d *Daemon) gameRecord(ctx context.Context, id string, info lichess.GameInfo, acc accepted, wasAccepted bool) (rec store.Game, label string) {
	engineName := acc.engine
	label = acc.label
	bot := acc.offer.Bot
	if known, err := d.store.Game(ctx, id); err == nil {
		// A restart: keep the engine chosen when the game began.
		if known.Engine != "" {
			engineName, label = known.Engine, "resumed"
		}
		bot = bot || known.OpponentBot
	}
	if engineName == "" {
		o := Offer{Challenger: info.Opponent.Username, Rating: info.Opponent.Rating, Variant: info.Variant.Key,
			Speed: info.Speed, Rated: info.Rated, Tournament: info.TournamentID}
		engineName, label = selectEngine(d.cfg, o)
	}
	rec = store.Game{ID: id, Opponent: info.Opponent.Username, OpponentRating: info.Opponent.Rating, OpponentBot: bot,
		Color: string(info.Color), Engine: engineName, Speed: info.Speed, Variant: info.Variant.Key, Rated: info.Rated}
	if wasAccepted && info.Variant.Key != "standard" {
		// The post-game replay needs the start position. A challenge just
		// accepted carries it, or (a random Chess960 one) the gameStart
		// does: no move has been played yet. After a restart gameStart's
		// fen is the current position, not the initial one.
		rec.InitialFEN = acc.offer.FEN
		if rec.InitialFEN == "" {
			rec.InitialFEN = info.FEN
		}
	}
	return rec, label
}

// gameRules returns the lila GameRules of a running game, as its challenge
// listed them (none for a bulk pairing's or a tournament's game: Lichess
// names them nowhere else).
func (d *Daemon) gameRules(id string) []string {
	d.mu.Lock()
	defer d.mu.Unlock()
	if slot := d.games[id]; slot != nil {
		return slot.rules
	}
	return nil
}

// runGame plays one game to its end and records the result.
func (d *Daemon) runGame(ctx context.Context, id, engineName, variant string, release func()) {
	defer release() // also on the early returns
	log := d.log.With().Str("game", id).Logger()
	// The engine's own log lines (a fallback move, a UCI engine's crash)
	// name the game and the bot: the factory logs through this logger.
	ctx = log.WithContext(ctx)
	rules := d.gameRules(id)
	eng, err := d.eng(ctx, engineName)
	if err != nil {
		log.Error().Err(err).Str("engine", engineName).Msg("cannot build engine; falling back to easy")
		if eng, err = d.eng(ctx, "easy"); err != nil {
			log.Error().Err(err).Msg("cannot build the fallback engine either; leaving the game")
			return
		}
	}
	defer eng.Close()
	if variant != "" && !engine.Plays(eng, variant) {
		// The configuration took the engine for one that plays the variant
		// (an external engine without UCI_Chess960): abort before any move
		// rather than lose the game.
		log.Error().Str("engine", engineName).Str("variant", variant).Strs("plays", engine.Variants(eng)).
			Msg("the engine does not play this variant; aborting the game")
		if slices.Contains(rules, lichess.RuleNoAbort) {
			log.Warn().Msg("the game's noAbort rule forbids the abort: the game is left")
		} else if err := d.bot.Abort(ctx, id); err != nil {
			log.Warn().Err(err).Msg("abort")
		}
		return
	}
	eng = d.withEngineLimits(ctx, id, engineName, eng)
	cfg := d.newRunnerConfig(id, engineName)
	cfg.Rules = rules
	r := runner.New(cfg, d.bot, eng, d.store)
	out, err := r.Run(ctx)
	release()
	if h := d.hooks.RunnerDone; h != nil {
		h(out, err)
	}
	switch {
	case err == nil:
		d.finishGame(ctx, out)
	case ctx.Err() != nil:
		log.Info().Msg("left the game (shutdown); it resumes on the next start")
	case errors.Is(err, lichess.ErrNotFound):
		log.Warn().Err(err).Msg("game not found on the server")
		d.finishFromServer(ctx, id)
	default:
		log.Error().Err(err).Msg("game runner stopped")
		d.finishFromServer(ctx, id)
	}
}

// onGameFinishEvent covers a game that ended without its runner noticing
// (for example one that was not running).
func (d *Daemon) onGameFinishEvent(ctx context.Context, info lichess.GameInfo) {
	id := gameIDOf(info)
	d.mu.Lock()
	_, running := d.games[id]
	d.mu.Unlock()
	if running {
		return // the runner sees the end on its game stream
	}
	if g, err := d.store.Game(ctx, id); err == nil && !g.Finished() {
		d.finishFromServer(ctx, id)
	}
}

// finishFromServer records a game's end from the server's export.
func (d *Daemon) finishFromServer(ctx context.Context, id string) {
	g, err := persist(ctx, "export game", d, func(ctx context.Context) (*lichess.Game, error) {
		return d.api.ExportGame(ctx, id, lichess.ExportOptions{})
	})
	if errors.Is(err, lichess.ErrNotFound) {
		// the server no longer knows the game: close it once, with its
		// own status, instead of asking again at every restart
		g, gerr := d.store.Game(ctx, id)
		if gerr == nil {
			if _, ferr := d.store.FinishGame(ctx, id, store.StatusGone, "", g.Moves, g.PGN); ferr != nil {
				d.log.Error().Err(ferr).Str("game", id).Msg("close a game the server no longer knows")
				return
			}
		}
		d.log.Warn().Str("game", id).Msg("the server no longer knows this game (export 404); closed as gone")
		return
	}
	if err != nil {
		d.log.Warn().Err(err).Str("game", id).Msg("export game")
		return
	}
	if g.Status.Ongoing() {
		return
	}
	moves, err := exportedMoves(g)
	if err != nil {
		// Keep what the runner journalled (UCI) rather than store moves
		// nothing downstream can read.
		d.log.Warn().Err(err).Str("game", id).Msg("export game: moves unreadable; keeping the stored ones")
		if known, kerr := d.store.Game(ctx, id); kerr == nil {
			moves = strings.Fields(known.Moves)
		}
	}
	out := runner.Outcome{GameID: id, Status: g.Status, Winner: g.Winner, Moves: moves, InitialFEN: g.InitialFEN}
	d.finishGame(ctx, out)
}

// finishGame records the end of a game once: result, PGN (the server's
// export when available), PGN file, and the post-game analysis job.
func (d *Daemon) finishGame(ctx context.Context, out runner.Outcome) {
	log := d.log.With().Str("game", out.GameID).Logger()
	pgn, err := persist(ctx, "export PGN", d, func(ctx context.Context) (string, error) {
		return d.api.ExportGamePGN(ctx, out.GameID, lichess.ExportOptions{Clocks: true, Opening: true})
	})
	if err != nil {
		log.Warn().Err(err).Msg("export PGN")
	}
	// A game resumed after a restart was recorded without its start
	// position (gameStart then carries the current one); the runner took
	// it from gameFull, the export from the server.
	if err := d.store.SetInitialFEN(ctx, out.GameID, out.InitialFEN); err != nil {
		log.Warn().Err(err).Msg("record the start position")
	}
	first, err := d.store.FinishGame(ctx, out.GameID, string(out.Status), string(out.Winner),
		strings.Join(out.Moves, " "), pgn)
	if err != nil {
		log.Error().Err(err).Msg("record game end")
		return
	}
	d.writeRecord(ctx, out.GameID, pgn, out.Notes)
	if !first {
		return
	}
	ev := log.Info().Str("status", string(out.Status)).Str("winner", string(out.Winner)).Int("plies", len(out.Moves))
	if out.PonderHits+out.PonderMisses > 0 {
		ev = ev.Int("ponder_hits", out.PonderHits).Int("ponder_misses", out.PonderMisses)
	}
	ev.Msg("game over")
	if dir := d.cfg.Store.PGNDir; dir != "" && pgn != "" {
		if err := writePGN(dir, out.GameID, pgn); err != nil {
			log.Warn().Err(err).Msg("write PGN file")
		}
	}
	if d.sum != nil && d.cfg.Summary.Enabled && out.Status != lichess.StatusAborted && out.Status != lichess.StatusNoStart {
		if err := d.store.EnqueueAnalysis(ctx, out.GameID); err != nil {
			log.Error().Err(err).Msg("queue analysis")
		}
		d.kickAnalysis()
	}
	if h := d.hooks.GameFinished; h != nil {
		if g, err := d.store.Game(ctx, out.GameID); err == nil {
			h(g)
		}
	}
}

func writePGN(dir, id, pgn string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("pgn dir %s: %w", dir, err)
	}
	path := filepath.Join(dir, id+".pgn")
	if err := os.WriteFile(path, []byte(strings.TrimSpace(pgn)+"\n"), 0o644); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	return nil
}
