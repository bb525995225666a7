// Package verify checks the daemon's post-game summaries against Lichess's
// own evaluations, in the background and across restarts (state in the
// store). Lichess offers no API to request a server analysis, so for each
// finished, analysed game the worker
//
//   - looks up the positions around our critical plies in Lichess's cloud
//     evaluations and judges those plies from the cloud's evals with
//     Lichess's rules (CheckCloud);
//   - polls the game's export with evals, with back-off (Backoff), until a
//     server analysis appears (the opponent or anyone requested one) or the
//     window passes, and compares ours with it judgement by judgement as
//     `outpost compare` does (CheckServer).
//
// A 429 stops the round: the next poll waits for the client's lockout (and
// for any Retry-After of the answer). Network errors and 5xx answers are
// polled again with back-off; a permanent answer (Permanent: 404 game not
// found, 400, 401, 403) ends the game's verification at once as failed,
// with the reason stored, instead of polling it for the whole window.
package verify

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"sync/atomic"
	"time"

	"github.com/rs/zerolog"

	"github.com/outpostchess/outpost/analysis"
	"github.com/outpostchess/outpost/internal/store"
)

// API is the part of the Lichess client the worker uses (*lichess.Client).
type API interface {
	CloudAPI
	ExportAPI
	// LockedUntil is the end of the client's lockout after a 429.
	LockedUntil() time.Time
}

// Store is the part of the store the worker uses (*store.Store).
type Store interface {
	AnalysisOf(ctx context.Context, gameID string) (store.Analysis, error)
	Game(ctx context.Context, id string) (store.Game, error)
	Unverified(ctx context.Context, limit int) ([]store.Game, error)
	EnqueueVerification(ctx context.Context, gameID string, finishedAt, next time.Time) error
	Verification(ctx context.Context, gameID string) (store.Verification, error)
	DueVerifications(ctx context.Context, now time.Time, limit int) ([]store.Verification, error)
	NextVerificationAt(ctx context.Context) (time.Time, bool, error)
	SaveCloudCheck(ctx context.Context, gameID string, checked, agree, missing int, result string) error
	SaveLichessCheck(ctx context.Context, gameID string, judgements, agree int, result string) error
	RetryVerification(ctx context.Context, gameID string, attempts int, next time.Time, note string) error
	EndVerification(ctx context.Context, gameID string, state store.VerifyState, reason string) error
}

// Hooks let tests follow the worker; each is optional.
type Hooks struct {
	// Updated is called after each change of a game's record.
	Updated func(v store.Verification)
	// Idle is called each time the worker has nothing due and is about to
	// wait (its timer already set, so that a fake clock advanced now fires
	// it).
	Idle func()
}

// Options configure a Worker.
type Options struct {
	API    API
	Store  Store
	Clock  Clock // default: the system clock
	Logger zerolog.Logger
	// Backoff is the poll schedule (zero fields: the defaults).
	Backoff Backoff
	// Cloud enables the cloud-eval check.
	Cloud bool
	// Rescan is how often the store is scanned for newly analysed games
	// without a Kick (default one minute).
	Rescan time.Duration
	// Detect, when set, finds the period of Lichess's analysis from its
	// evals once it is there (it runs engines: [verify] detect_period).
	Detect Detector
	// Seed seeds the jitter (0: random).
	Seed  uint64
	Hooks Hooks
	// Against is what API serves, as the records' reasons name it
	// (Lichess when zero; AgainstURL).
	Against Against
}

// Worker runs the verifications. Create it with New, run it with Run.
type Worker struct {
	o    Options
	rng  *rand.Rand
	kick chan struct{}
	// log is o.Logger, with the bot's name once SetBot gave it.
	log atomic.Pointer[zerolog.Logger]
}

// SetBot names the bot in every line the worker logs from now on (the
// daemon knows its account only once it has read it: daemon.Hooks.AccountRead).
func (w *Worker) SetBot(username string) {
	l := w.o.Logger.With().Str("bot", username).Logger()
	w.log.Store(&l)
}

// logger is the worker's logger: o.Logger, with the bot once SetBot ran.
func (w *Worker) logger() *zerolog.Logger {
	if l := w.log.Load(); l != nil {
		return l
	}
	return &w.o.Logger
}

// batch bounds the games handled per round.
const batch = 20

// New returns a worker for o with the defaults filled in.
func New(o Options) (*Worker, error) {
	if o.API == nil || o.Store == nil {
		return nil, errors.New("verify: a Lichess client and a store are required")
	}
	if o.Clock == nil {
		o.Clock = realClock{}
	}
	if o.Backoff.First <= 0 {
		o.Backoff.First = DefaultFirstDelay
	}
	if o.Backoff.Max <= 0 {
		o.Backoff.Max = DefaultMaxDelay
	}
	if o.Backoff.Window <= 0 {
		o.Backoff.Window = DefaultWindow
	}
	if o.Rescan <= 0 {
		o.Rescan = time.Minute
	}
	seed := o.Seed
	if seed == 0 {
		seed = rand.Uint64()
	}
	return &Worker{o: o, rng: rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15)), kick: make(chan struct{}, 1)}, nil
}

// Kick makes the worker look for newly analysed games now.
func (w *Worker) Kick() {
	select {
	case w.kick <- struct{}{}:
	default:
	}
}

// Run verifies games until ctx ends.
func (w *Worker) Run(ctx context.Context) {
	for ctx.Err() == nil {
		log := w.logger()
		w.enqueueNew(ctx)
		w.workDue(ctx)
		wait := w.o.Rescan
		if at, ok, err := w.o.Store.NextVerificationAt(ctx); err != nil {
			if ctx.Err() == nil {
				log.Warn().Err(err).Msg("verify: next due")
			}
		} else if ok {
			wait = min(wait, max(at.Sub(w.o.Clock.Now()), 0))
		}
		if wait > 0 || ctx.Err() != nil {
			timer := w.o.Clock.After(wait)
			if h := w.o.Hooks.Idle; h != nil {
				h()
			}
			select {
			case <-ctx.Done():
			case <-w.kick:
			case <-timer:
			}
		}
	}
}

// enqueueNew queues the games analysed since the last scan, their first
// poll due at once.
func (w *Worker) enqueueNew(ctx context.Context) {
	games, err := w.o.Store.Unverified(ctx, batch)
	if err != nil {
		if ctx.Err() == nil {
			w.logger().Warn().Err(err).Msg("verify: list new games")
		}
		return
	}
	now := w.o.Clock.Now()
	for _, g := range games {
		if err := w.o.Store.EnqueueVerification(ctx, g.ID, g.FinishedAt, now); err != nil {
			w.logger().Warn().Err(err).Str("game", g.ID).Msg("verify: enqueue")
			continue
		}
		// a game older than the window (analysed before verification was
		// switched on) is not polled at all
		if now.Sub(g.FinishedAt) > w.o.Backoff.Window {
			_ = w.o.Store.EndVerification(ctx, g.ID, store.VerifyExpired, "finished before verification was switched on")
		}
	}
}

// workDue handles every verification due now.
func (w *Worker) workDue(ctx context.Context) {
	due, err := w.o.Store.DueVerifications(ctx, w.o.Clock.Now(), batch)
	if err != nil {
		if ctx.Err() == nil {
			w.logger().Warn().Err(err).Msg("verify: list due games")
		}
		return
	}
	for _, v := range due {
		if ctx.Err() != nil {
			return
		}
		w.verify(ctx, v)
		if got, err := w.o.Store.Verification(ctx, v.GameID); err == nil && w.o.Hooks.Updated != nil {
			w.o.Hooks.Updated(got)
		}
	}
}

// verify makes one round for a game: the cloud check when not done yet,
// then one export poll.
func (w *Worker) verify(ctx context.Context, v store.Verification) {
	log := w.logger().With().Str("game", v.GameID).Logger()
	ours, err := w.ours(ctx, v.GameID)
	if err != nil {
		log.Warn().Err(err).Msg("verify: cannot verify")
		_ = w.o.Store.EndVerification(ctx, v.GameID, store.VerifyFailed, err.Error())
		return
	}
	if w.o.Cloud && !v.CloudDone {
		variant := ""
		if g, err := w.o.Store.Game(ctx, v.GameID); err == nil {
			variant = g.Variant
		}
		rep, err := CheckCloud(ctx, w.o.API, ours, variant)
		switch {
		case err != nil && Permanent(err):
			// the cloud refuses these lookups for good: the cloud check is
			// recorded as skipped, the export is still polled
			log.Warn().Err(err).Msg("verify: cloud check refused; skipped")
			rep = CloudReport{Error: err.Error()}
		case err != nil:
			w.retry(ctx, v, v.Attempts+1, err) // a failed round counts: the back-off grows
			return
		}
		raw, _ := json.Marshal(rep)
		if err := w.o.Store.SaveCloudCheck(ctx, v.GameID, rep.Checked, rep.Agree, rep.Missing, string(raw)); err != nil {
			log.Warn().Err(err).Msg("verify: save cloud check")
		}
		log.Info().Int("checked", rep.Checked).Int("agree", rep.Agree).Int("missing", rep.Missing).Msg("verified against the cloud evals")
	}
	rep, found, err := CheckServerDetect(ctx, w.o.API, ours, w.o.Detect)
	switch {
	case err != nil && Permanent(err):
		// 404 game not found, 401/403: asking again for 48 hours
		// cannot change the answer
		log.Warn().Err(err).Msg("verify: permanent error; not polled again")
		_ = w.o.Store.EndVerification(ctx, v.GameID, store.VerifyFailed, "permanent: "+err.Error())
	case err != nil:
		w.retry(ctx, v, v.Attempts+1, err)
	case !found:
		w.retry(ctx, v, v.Attempts+1, nil)
	default:
		raw, _ := json.Marshal(rep)
		if err := w.o.Store.SaveLichessCheck(ctx, v.GameID, rep.Judgements, rep.Agree, string(raw)); err != nil {
			log.Warn().Err(err).Msg("verify: save comparison")
			return
		}
		log.Info().Int("judgements", rep.Judgements).Int("agree", rep.Agree).Msg("verified against Lichess's analysis")
	}
}

// retry schedules the next round, or ends the verification once the window
// has passed. cause is the error that ended this round (nil: no analysis
// yet).
func (w *Worker) retry(ctx context.Context, v store.Verification, attempts int, cause error) {
	note := ""
	if cause != nil {
		note = cause.Error()
		w.logger().Info().Err(cause).Str("game", v.GameID).Msg("verify: will retry")
	}
	now := w.o.Clock.Now()
	locked := w.o.API.LockedUntil()
	if ra := retryAfter(cause, now); ra.After(locked) {
		locked = ra // the answer's Retry-After
	}
	next, ok := w.o.Backoff.Next(v.FinishedAt, now, max(attempts, 1), w.rng.Float64(), locked)
	if !ok {
		reason := fmt.Sprintf("no Lichess analysis within %s after the game (%d polls)", w.o.Backoff.Window, attempts)
		if w.o.Against.Name() != string(Lichess) {
			reason = fmt.Sprintf("no analysis from %s within %s after the game (%d polls)", w.o.Against.Name(), w.o.Backoff.Window, attempts)
		}
		_ = w.o.Store.EndVerification(ctx, v.GameID, store.VerifyExpired, reason)
		return
	}
	if err := w.o.Store.RetryVerification(ctx, v.GameID, attempts, next, note); err != nil {
		w.logger().Warn().Err(err).Str("game", v.GameID).Msg("verify: schedule")
	}
}

// ours decodes our stored post-game analysis of a game.
func (w *Worker) ours(ctx context.Context, gameID string) (*analysis.Analysis, error) {
	a, err := w.o.Store.AnalysisOf(ctx, gameID)
	if err != nil {
		return nil, fmt.Errorf("verify: %w", err)
	}
	return Decode(gameID, a.Result)
}

// Decode decodes a stored post-game analysis (JSON).
func Decode(gameID, result string) (*analysis.Analysis, error) {
	if result == "" {
		return nil, fmt.Errorf("verify: game %s: no stored analysis", gameID)
	}
	var a analysis.Analysis
	if err := json.Unmarshal([]byte(result), &a); err != nil {
		return nil, fmt.Errorf("verify: game %s: stored analysis: %w", gameID, err)
	}
	if a.ID == "" {
		a.ID = gameID
	}
	return &a, nil
}
