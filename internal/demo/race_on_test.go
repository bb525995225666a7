//go:build race

package demo

// raceEnabled is true when the tests run under the race detector (go test
// -race). The race detector makes the daemon, the sandbox and the sparring
// partners several times slower; the long real-time tests read it to play
// fewer games (soakGames) so that `make race` stays within CI's budget.
// Nothing else changes: every test still runs and checks the same things.
const raceEnabled = true
