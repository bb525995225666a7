package analysis

import (
	"fmt"
	"strings"
	"time"
)

// Period is a span of time during which Lichess's server analysis (its
// fishnet client) ran one engine with one method, and the preset that
// reproduces it here.
type Period struct {
	// From is the period's first day (UTC).
	From time.Time
	// Fishnet is the fishnet release, Stockfish the engine it ran.
	Fishnet, Stockfish string
	// Preset is the preset used for games of the period.
	Preset string
	// Exact is set when Preset (with its engine) gives Lichess's evals
	// exactly; otherwise Preset is the nearest one we can run.
	Exact bool
}

func day(y int, m time.Month, d int) time.Time { return time.Date(y, m, d, 0, 0, 0, 0, time.UTC) }

// LichessPeriods lists the periods in order, from fishnet's release table
// (../shared/stockfish/SOURCES.md). Where the source gives a month only
// (2.6.7: 2022-12; 2.13.1: 2026-02; 2.13.3: 2026-07) the period starts on
// its first day. Stockfish 16, 17.1 and 18 are built here (engines sf16,
// sf17.1, sf18) and their periods are exact; Stockfish 16 has two, fishnet
// 2.7's method (every position on its own, lichess-sf16) and 2.8's (chunks,
// lichess-sf16-2.8, from 2024-01-04). 16.1 and 17 are not obtainable
// (their networks are in no npm release), so their periods use the nearest
// engine of the same line: lichess-sf16-2.8 for 16.1,
// lichess-sf17.1 for 17. Before 2022-12 the engines were Stockfish 15 or
// older: lichess-sf15.
func LichessPeriods() []Period {
	return []Period{
		{From: time.Time{}, Fishnet: "before 2.6.7", Stockfish: "15 or older", Preset: "lichess-sf15"},
		{From: day(2022, 12, 1), Fishnet: "2.6.7", Stockfish: "15.1", Preset: "lichess-sf15", Exact: true},
		{From: day(2023, 7, 1), Fishnet: "2.7.0", Stockfish: "16", Preset: "lichess-sf16", Exact: true},
		{From: day(2024, 1, 4), Fishnet: "2.8.0", Stockfish: "16", Preset: "lichess-sf16-2.8", Exact: true},
		{From: day(2024, 2, 24), Fishnet: "2.9.0", Stockfish: "16.1", Preset: "lichess-sf16-2.8"},
		{From: day(2024, 9, 7), Fishnet: "2.9.4", Stockfish: "17", Preset: "lichess-sf17.1"},
		{From: day(2025, 3, 30), Fishnet: "2.9.5", Stockfish: "17.1", Preset: "lichess-sf17.1", Exact: true},
		{From: day(2026, 1, 31), Fishnet: "2.13.0", Stockfish: "18", Preset: "lichess-sf18", Exact: true},
		{From: day(2026, 2, 1), Fishnet: "2.13.1", Stockfish: "a development build", Preset: "lichess-sf18"},
		{From: day(2026, 7, 1), Fishnet: "2.13.3", Stockfish: "development build f4bcd404", Preset: "lichess-sf18"},
	}
}

// LichessPeriodAt returns the period of a date.
func LichessPeriodAt(t time.Time) Period {
	ps := LichessPeriods()
	p := ps[0]
	for _, q := range ps[1:] {
		if t.Before(q.From) {
			break
		}
		p = q
	}
	return p
}

// String says which preset the period uses and whether it is exact, e.g.
// "lichess-sf18 (fishnet 2.13.0, Stockfish 18: exact)".
func (p Period) String() string {
	if p.Exact {
		return fmt.Sprintf("%s (fishnet %s, Stockfish %s: exact)", p.Preset, p.Fishnet, p.Stockfish)
	}
	return fmt.Sprintf("%s (fishnet %s ran Stockfish %s, which we cannot run: nearest, not exact)", p.Preset, p.Fishnet, p.Stockfish)
}

// Label names the period's engine and fishnet, e.g. "Stockfish 16
// (fishnet 2.7.0)".
func (p Period) Label() string {
	return fmt.Sprintf("Stockfish %s (fishnet %s)", p.Stockfish, p.Fishnet)
}

// ExactPeriods returns the periods whose method we reproduce exactly (one
// per preset), oldest first: the candidates of DetectPeriod.
func ExactPeriods() []Period {
	var out []Period
	for _, p := range LichessPeriods() {
		if p.Exact {
			out = append(out, p)
		}
	}
	return out
}

// Date returns the day the game was played, from its UTCDate tag (Lichess)
// or else its Date tag ("2026.02.14"); false when neither gives one.
func (g *Game) Date() (time.Time, bool) {
	for _, tag := range []string{"UTCDate", "Date"} {
		v := strings.TrimSpace(g.Tag(tag))
		if t, err := time.Parse("2006.01.02", v); err == nil {
			return t, true
		}
	}
	return time.Time{}, false
}
