package config

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/outpostchess/outpost/lichess"
)

// TimeControl is a real-time clock setting: initial time and increment.
type TimeControl struct {
	Base      time.Duration
	Increment time.Duration
}

// ParseTimeControl parses "MINUTES+SECONDS" as Lichess writes time
// controls: "3+2", "0.5+0", "15+10". Minutes may be fractional as long as
// the base is a whole number of seconds; both parts are bounded by Lichess's
// limits (180 minutes, 180 seconds) and must not both be zero.
func ParseTimeControl(s string) (TimeControl, error) {
	bad := func(why string) (TimeControl, error) {
		return TimeControl{}, fmt.Errorf("time control %q: %s (want MINUTES+SECONDS such as \"3+2\")", s, why)
	}
	m, inc, ok := strings.Cut(strings.TrimSpace(s), "+")
	if !ok {
		return bad("missing '+'")
	}
	minutes, err := strconv.ParseFloat(strings.TrimSpace(m), 64)
	if err != nil || strings.ContainsAny(m, "eEinIN") {
		return bad("minutes are not a number")
	}
	secs := minutes * 60
	if minutes < 0 || secs > maxClockBase || secs != float64(int(secs)) {
		return bad(fmt.Sprintf("minutes must be 0..%d and a whole number of seconds", maxClockBase/60))
	}
	i, err := strconv.Atoi(strings.TrimSpace(inc))
	if err != nil || i < 0 || i > maxClockIncrement {
		return bad(fmt.Sprintf("increment must be whole seconds 0..%d", maxClockIncrement))
	}
	if secs == 0 && i == 0 {
		return bad("both parts are zero")
	}
	return TimeControl{Base: time.Duration(secs) * time.Second, Increment: time.Duration(i) * time.Second}, nil
}

// Speed is Lichess's speed category of the time control (lichess.SpeedOf).
func (tc TimeControl) Speed() string { return lichess.SpeedOf(tc.Base, tc.Increment) }

// String writes the time control as ParseTimeControl reads it.
func (tc TimeControl) String() string {
	return strconv.FormatFloat(tc.Base.Minutes(), 'f', -1, 64) + "+" + strconv.Itoa(int(tc.Increment/time.Second))
}
