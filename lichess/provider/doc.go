// Package provider serves Lichess external-engine requests ("outpost
// provider"): it registers one external engine per configured engine slot
// for the token's user (updating a registration of the same name), then
// long-polls the engine broker with each slot's provider secret and streams
// the slot's UCI output for every job it acquires, one job at a time per
// slot. A slot is a native UCI engine (Stockfish, started on the first job,
// ucinewgame on a new session, shut down after an idle time) or Maia at one
// rating (lines ordered by Maia's move probabilities, scores from Maia's
// value head). See docs/provider.md.
package provider
