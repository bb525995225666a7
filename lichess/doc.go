// Package lichess is a client for the Lichess HTTP API: the BOT API for
// playing as a bot, the Board API for human accounts, challenges, accounts,
// users, game export and cloud evaluations.
//
// # Creating a client
//
//	tok, err := lichess.LoadToken(nil, cfg.TokenFile) // LICHESS_TOKEN, or a 0600 file
//	c, err := lichess.New(lichess.Options{Token: tok, Logger: log})
//	info, err := c.CheckToken(ctx) // valid, not expired, has bot:play?
//
// Options.BaseURL points the client at another server (a sandbox on
// loopback in tests). The token is a Token, whose String, GoString and JSON
// forms are "[REDACTED]"; the client also scrubs it from every error and
// log line it produces.
//
// # Requests
//
// A Client sends one request at a time; a game's actions (moves, aborts,
// resignations, draw and victory claims, opening a game stream) are served
// before waiting ordinary requests, which are overtaken by at most four in a
// row. After a 429 answer it sends nothing
// at all (later calls wait, honouring their context) until max(60 s,
// ratelimit.seconds in the body, Retry-After) has passed on its Clock; see
// Client.LockedUntil. Network errors and 5xx answers are retried with
// jittered exponential backoff (go-retryablehttp), except for requests that
// could act twice: a move, a chat message and a new challenge are only
// retried when the connection was never made. If such a request may have
// reached the server but its answer was lost, the error matches
// ErrUnknownOutcome and the caller must look at the game state (the game
// stream) before sending again.
//
// Non-2xx answers are *APIError values; errors.Is matches them against
// ErrBadRequest, ErrUnauthorized, ErrForbidden, ErrNotFound, ErrRateLimited
// and ErrServer.
//
// # Streams
//
// Client.StreamEvents and PlayAPI.StreamGame (c.Bot() or c.Board()) return
// a *Stream whose Events channel delivers typed events: for the event
// stream *GameStartEvent, *GameFinishEvent, *ChallengeEvent,
// *ChallengeCanceledEvent, *ChallengeDeclinedEvent; for a game stream
// *GameFull, *GameState, *ChatLine, *OpponentGone; *UnknownEvent for types
// this package does not know. Keep-alive blank lines are skipped; malformed
// and over-long lines (Options.MaxLineBytes) are logged and skipped. A
// stream silent for longer than Options.StreamTimeout (20 s), closed by the
// server, or broken by a network error is reopened with backoff; a
// *Reconnected event marks the seam, and a game stream then starts again
// with a fresh *GameFull. A game stream ends, with a nil Err, once a
// gameFull or gameState shows the game over; any stream ends when its
// context does, on Close, or on a fatal answer such as 401 or 404.
//
// Decoding is lenient: unknown fields are ignored, variant/status/perf are
// accepted both as objects (streams) and as strings (game JSON), and
// computer opponents (aiLevel, no id or name) decode. DecodeEvent and
// DecodeGameEvent decode single lines; NewLineReader splits ndjson.
//
// # Testing
//
// ManualClock is a Clock driven by hand: advance it past a lockout or a
// watchdog deadline and observe what the client does.
package lichess
