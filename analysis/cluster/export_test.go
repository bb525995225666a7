package cluster

import "time"

// SetDeadlineTicks makes d's chunk deadlines fire when the test sends on
// ticks; the time sent is the submitter's "now" for the check.
func SetDeadlineTicks(d *Dispatcher, ticks <-chan time.Time) {
	d.after = func(time.Duration) <-chan time.Time { return ticks }
}

// ChunkDeadline is chunkDeadline, for the tests.
var ChunkDeadline = chunkDeadline

// LostMax is lostMax, for the tests.
const LostMax = lostMax

// GaveUpRefused is gaveUpRefused, for the tests.
var GaveUpRefused = gaveUpRefused
