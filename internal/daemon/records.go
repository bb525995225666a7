package daemon

import (
	"context"
	"strings"
	"time"

	"github.com/outpostchess/outpost/analysis/pgn"
	"github.com/outpostchess/outpost/config"
	"github.com/outpostchess/outpost/internal/records"
	"github.com/outpostchess/outpost/internal/store"
	"github.com/outpostchess/outpost/lichess"
	"github.com/outpostchess/outpost/lichess/runner"
)

// missedRecordsWindow bounds the games whose missing record is written at
// start-up: those that ended this recently (a crash between the end of a
// game and its record), not every old game of the store when records were
// just switched on.
const missedRecordsWindow = 24 * time.Hour

// newRecorder returns the records writer the configuration asks for, nil
// when [records] dir is empty.
func newRecorder(cfg *config.Config, st *store.Store) *records.Writer {
	if cfg == nil || cfg.Records.Dir == "" {
		return nil
	}
	w, err := records.NewWriter(cfg.Records.Dir, cfg.Records.Per, st)
	if err != nil {
		return nil // config validation refuses such values first
	}
	return w
}

// recordWarning logs, at warn level, a warning of the PGN reader about
// Lichess's export of game id, which a record is made from (records.Writer
// Warn): "record: Lichess's export: game 1 (outpost–Alice): no result
// token at the end of the movetext".
func (d *Daemon) recordWarning(id, line string) {
	d.log.Warn().Str("game", id).Msg("record: Lichess's export: " + line)
}

// writeRecord writes the record of a finished game once. serverPGN is Lichess's
// export ("" = take the stored one); notes are the runner's, when it ran
// (otherwise they are read from the store, where the runner kept them).
func (d *Daemon) writeRecord(ctx context.Context, id, serverPGN string, notes []runner.MoveNote) {
	if d.rec == nil {
		return
	}
	log := d.log.With().Str("game", id).Logger()
	g, err := d.store.Game(ctx, id)
	if err != nil {
		log.Warn().Err(err).Msg("record: read the game")
		return
	}
	switch g.Status {
	case store.StatusGone, string(lichess.StatusAborted), string(lichess.StatusNoStart):
		return // not a game played
	}
	if serverPGN == "" {
		serverPGN = g.PGN
	}
	moves := strings.Fields(g.Moves)
	byPly, err := runner.LoadNotes(ctx, d.store, id, len(moves))
	if err != nil {
		log.Warn().Err(err).Msg("record: read the move notes")
	}
	for _, n := range notes {
		byPly[n.Ply] = n
	}
	white, black := d.me, g.Opponent
	if g.Color == string(lichess.Black) {
		white, black = black, white
	}
	rec := records.Game{ID: id, ServerPGN: serverPGN, InitialFEN: g.InitialFEN, Variant: g.Variant, Moves: moves,
		White: white, Black: black, Result: pgn.ResultOf(g.Winner, g.Status), Termination: g.Status,
		Ended: g.FinishedAt, Engine: g.Engine, Notes: byPly}
	path, err := d.rec.Write(ctx, rec)
	if err != nil {
		log.Warn().Err(err).Msg("record: write")
		return
	}
	if path != "" {
		log.Info().Str("file", path).Msg("game record written")
	}
}

// writeMissedRecords writes the records of recently finished games that
// have none (the daemon stopped between a game's end and its record).
func (d *Daemon) writeMissedRecords(ctx context.Context) {
	if d.rec == nil {
		return
	}
	recent, err := d.store.RecentGames(ctx, 50)
	if err != nil {
		d.log.Warn().Err(err).Msg("records: list recent games")
		return
	}
	for _, g := range recent {
		if !g.Finished() || time.Since(g.FinishedAt) > missedRecordsWindow {
			continue
		}
		if done, err := d.rec.Written(ctx, g.ID); err == nil && !done {
			d.writeRecord(ctx, g.ID, "", nil)
		}
	}
}
