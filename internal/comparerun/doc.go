// Package comparerun compares our engine analysis with Lichess's own server
// analysis over a user's Lichess-analysed games (or a file of them), stores
// every run and each game's result in the store, reports the aggregate with
// the trend against earlier runs, and runs such comparisons on a schedule.
//
// Pieces:
//   - ParseGameRef reads a Lichess game id or URL; Fetcher fetches games
//     through the lichess client (JSON export with evals, clocks, opening and
//     accuracy) and converts them to analysis.Game with Lichess's analysis
//     attached. Fetcher implements input.Fetcher for `outpost analyse`.
//   - Comparer.Run performs one run for a Source (UserSource or FileSource).
//   - Scheduler runs the configured users' comparisons one at a time, at low
//     priority, on an interval that survives restarts.
//
// Resuming: a run is keyed by its store user (the Lichess username, or
// "pgn:" and the file's absolute path) and its parameters (window, max
// games, budget, engine). When the newest run of that key is not finished
// (interrupted by a signal, a kill or a crash, or failed) and has the same
// parameters, the next run resumes it: it keeps the run's id and start
// time (so the same window of games is fetched: games started before the
// run's start time minus Since are not new), skips every game already
// stored and analyses only the others. A not finished run with other
// parameters is closed as failed ("superseded") and a new run starts. An
// interrupted run is never marked failed by the interruption itself, so
// nothing analysed is lost. Two processes comparing the same user with the
// same parameters at the same time would both resume the run: harmless
// (a game stored twice is replaced) but wasted work.
//
// Scheduling: Scheduler.Run (for the daemon: Scheduler.RunBackground) runs
// the [compare] users one at a time. A user's next run is due one interval
// after the start of the user's newest run, at once when that run is not
// finished (it is resumed), and RetryAfter after a failed run, so a restart
// waits only the rest of the interval. Scheduled runs use one engine with
// one thread, started under `nice -n 10` when nice exists, and only while a
// run has games to analyse.
package comparerun
