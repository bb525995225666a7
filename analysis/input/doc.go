// Package input turns analysis inputs into analysis.Game values: PGN files
// (many games, with or without [%eval]/[%clk]/comments/variations, games
// from a FEN, Lichess's literate exports with their judgement comments) and
// Lichess JSON game exports (single object, array or NDJSON stream). It also
// defines GameSource, the pluggable origin of games (files now, a Lichess
// fetcher later).
package input
