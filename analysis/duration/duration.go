// Package duration reads and writes durations the way people write them in
// Outpost's configuration and on its command line: Go's "100ms", "20s",
// "1m30s", "24h", and whole or decimal days and weeks, "30d", "1.5d", "2w".
package duration

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"
)

// ErrNegative marks a duration that parsed but is below zero.
var ErrNegative = errors.New("must not be negative")

// Parse parses a duration as time.ParseDuration does ("100ms",
// "20s", "1m30s", "24h"), and also whole or decimal days and weeks ("30d",
// "1.5d", "2w"). It rejects negative durations.
func Parse(s string) (time.Duration, error) {
	t := strings.TrimSpace(s)
	for suffix, unit := range map[string]time.Duration{"d": 24 * time.Hour, "w": 7 * 24 * time.Hour} {
		num, ok := strings.CutSuffix(t, suffix)
		if !ok {
			continue
		}
		f, err := strconv.ParseFloat(num, 64)
		if err == nil && f < 0 {
			return 0, fmt.Errorf("duration %q: %w", s, ErrNegative)
		}
		if err != nil || f < 0 || f > 100*365 || num == "" || strings.ContainsAny(num, "eEinIN+") {
			return 0, fmt.Errorf("duration %q: want a number of days or weeks such as \"30d\" or \"2w\"", s)
		}
		return time.Duration(f * float64(unit)), nil
	}
	d, err := time.ParseDuration(t)
	if err != nil {
		return 0, fmt.Errorf("duration %q: want a duration such as \"20s\", \"1m30s\", \"24h\" or \"30d\"", s)
	}
	if d < 0 {
		return 0, fmt.Errorf("duration %q: %w", s, ErrNegative)
	}
	return d, nil
}

// Format writes a duration the way a person would put it in the
// config: "100ms", "20s", "10m", "1h30m", "30d".
func Format(d time.Duration) string {
	const day = 24 * time.Hour
	if d >= day && d%day == 0 {
		if d%(7*day) == 0 {
			return strconv.FormatInt(int64(d/(7*day)), 10) + "w"
		}
		return strconv.FormatInt(int64(d/day), 10) + "d"
	}
	s := d.String()
	if strings.HasSuffix(s, "m0s") {
		s = strings.TrimSuffix(s, "0s")
	}
	if strings.HasSuffix(s, "h0m") {
		s = strings.TrimSuffix(s, "0m")
	}
	return s
}
