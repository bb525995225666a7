//go:build race

package bots

// raceEnabled is true under the race detector, whose instrumentation makes
// the re-executed test binary (the fake UCI engine) start too slowly.
const raceEnabled = true
