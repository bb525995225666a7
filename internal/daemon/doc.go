// Package daemon is Outpost's long-running bot: it follows the Lichess event
// stream, accepts or declines challenges by policy, chooses an engine per
// challenge, runs one game runner per game, persists everything in the store
// so that restarts lose nothing, and posts a post-game analysis summary in
// the game chat exactly once per game.
package daemon
