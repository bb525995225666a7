package uci

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/outpostchess/outpost/bots/score"
)

// infoKeywords are the tokens the UCI specification defines for "info"
// lines. A token that is not one of them is skipped on its own, which makes
// the parser tolerant of engine-specific extensions.
var infoKeywords = map[string]bool{
	"depth": true, "seldepth": true, "time": true, "nodes": true, "pv": true,
	"multipv": true, "score": true, "currmove": true, "currmovenumber": true,
	"hashfull": true, "nps": true, "tbhits": true, "sbhits": true,
	"cpuload": true, "string": true, "refutation": true, "currline": true,
	"wdl": true,
}

// ParseInfo parses one "info" line. Unknown tokens are skipped; a known
// keyword with a missing or malformed value is an error naming it. Lines
// that only carry "string", "currmove" or similar progress data parse
// without error but have neither a score nor a PV (see Info.Useful).
func ParseInfo(line string) (Info, error) {
	toks := strings.Fields(line)
	if len(toks) == 0 || toks[0] != "info" {
		return Info{}, fmt.Errorf("uci: info line %q does not start with \"info\"", clip(line))
	}
	in := Info{MultiPV: 1}
	for i := 1; i < len(toks); {
		key := toks[i]
		i++
		switch key {
		case "depth", "seldepth", "multipv", "hashfull", "currmovenumber", "cpuload",
			"nodes", "nps", "time", "tbhits", "sbhits":
			n, err := intArg(toks, i, key)
			if err != nil {
				return Info{}, err
			}
			i++
			if err := in.setInt(key, n); err != nil {
				return Info{}, err
			}
		case "score":
			next, err := parseScore(&in, toks, i)
			if err != nil {
				return Info{}, err
			}
			i = next
		case "wdl":
			var v [3]int64
			for k := range v {
				n, err := intArg(toks, i, "wdl")
				if err != nil {
					return Info{}, err
				}
				v[k] = n
				i++
			}
			in.WDL = &WDL{Win: int(v[0]), Draw: int(v[1]), Loss: int(v[2])}
		case "pv":
			in.PV = nil
			for i < len(toks) && IsMove(toks[i]) {
				in.PV = append(in.PV, toks[i])
				i++
			}
		case "currmove":
			if i < len(toks) && IsMove(toks[i]) {
				i++
			}
		case "refutation", "currline":
			for i < len(toks) && !infoKeywords[toks[i]] {
				i++
			}
		case "string":
			i = len(toks)
		default:
			// Unknown token: skip it alone.
		}
	}
	return in, nil
}

// setInt stores the value n of an integer keyword; those Info does not
// keep (currmovenumber, cpuload, tbhits, sbhits) are only checked, by
// intArg.
func (in *Info) setInt(key string, n int64) error {
	switch key {
	case "depth":
		in.Depth = int(n)
	case "seldepth":
		in.SelDepth = int(n)
	case "multipv":
		if n < 1 {
			return fmt.Errorf("uci: info multipv %d: want at least 1", n)
		}
		in.MultiPV = int(n)
	case "hashfull":
		in.HashFull = int(n)
	case "nodes":
		in.Nodes = n
	case "nps":
		in.NPS = n
	case "time":
		in.Time = time.Duration(n) * time.Millisecond
	}
	return nil
}

// Useful reports whether the info carries a score or a principal variation,
// the two things a search result is made of.
func (in Info) Useful() bool { return in.HasScore || in.Mated || len(in.PV) > 0 }

// parseScore parses "cp N | mate N" followed by an optional bound, starting
// at toks[i] (just after "score"), into in: its Score and HasScore by
// score.FromUCI (the one mate-0 rule: "mate 0" sets Mated, not HasScore),
// and its bound. It returns the index after the score.
func parseScore(in *Info, toks []string, i int) (int, error) {
	seen := false
	for i < len(toks) {
		switch toks[i] {
		case "cp", "mate":
			n, err := intArg(toks, i+1, "score "+toks[i])
			if err != nil {
				return 0, err
			}
			in.Score, in.HasScore = score.FromUCI(toks[i] == "mate", int(n))
			in.Mated = !in.HasScore
			seen = true
			i += 2
		case "lowerbound":
			in.LowerBound, in.UpperBound = true, false
			i++
		case "upperbound":
			in.UpperBound, in.LowerBound = true, false
			i++
		default:
			if !seen {
				return 0, fmt.Errorf("uci: info score: want cp or mate, got %q", clip(toks[i]))
			}
			return i, nil
		}
	}
	if !seen {
		return 0, fmt.Errorf("uci: info score: missing cp or mate")
	}
	return i, nil
}

// intArg parses toks[i] as the integer value of key. Signed values are only
// meaningful for scores; other keys reject negative numbers.
func intArg(toks []string, i int, key string) (int64, error) {
	if i >= len(toks) {
		return 0, fmt.Errorf("uci: info %s: missing value", key)
	}
	n, err := strconv.ParseInt(toks[i], 10, 64)
	if err != nil {
		return 0, fmt.Errorf("uci: info %s: %q is not an integer", key, clip(toks[i]))
	}
	if n < 0 && !strings.HasPrefix(key, "score") {
		return 0, fmt.Errorf("uci: info %s: %d is negative", key, n)
	}
	if key != "nodes" && key != "nps" && key != "tbhits" && key != "sbhits" && key != "time" &&
		(n > 1<<31-1 || n < -(1<<31)) {
		return 0, fmt.Errorf("uci: info %s: %d is out of range", key, n)
	}
	if key == "time" && n > int64(1<<62)/int64(time.Millisecond) {
		return 0, fmt.Errorf("uci: info time: %d ms is out of range", n)
	}
	return n, nil
}

// FormatInfo renders an Info as a UCI "info" line (without newline), the
// inverse of ParseInfo for the fields Info holds: zero counters are omitted,
// multipv is written when above 1.
func FormatInfo(in Info) string {
	var b strings.Builder
	b.WriteString("info")
	if in.Depth > 0 || in.Useful() {
		fmt.Fprintf(&b, " depth %d", in.Depth)
	}
	writePositive(&b, "seldepth", in.SelDepth)
	if in.MultiPV > 1 {
		fmt.Fprintf(&b, " multipv %d", in.MultiPV)
	}
	if in.HasScore || in.Mated {
		switch {
		case in.Mated:
			b.WriteString(" score mate 0")
		case in.Score.IsMate():
			fmt.Fprintf(&b, " score mate %d", in.Score.Mate)
		default:
			fmt.Fprintf(&b, " score cp %d", in.Score.CP)
		}
		if in.LowerBound {
			b.WriteString(" lowerbound")
		} else if in.UpperBound {
			b.WriteString(" upperbound")
		}
	}
	if in.WDL != nil {
		fmt.Fprintf(&b, " wdl %d %d %d", in.WDL.Win, in.WDL.Draw, in.WDL.Loss)
	}
	writePositive(&b, "nodes", in.Nodes)
	writePositive(&b, "nps", in.NPS)
	writePositive(&b, "hashfull", in.HashFull)
	if in.Time > 0 {
		fmt.Fprintf(&b, " time %d", in.Time.Milliseconds())
	}
	if len(in.PV) > 0 {
		b.WriteString(" pv ")
		b.WriteString(strings.Join(in.PV, " "))
	}
	return b.String()
}

// writePositive appends " name n" to b when n is above 0: UCI leaves out
// the tokens of counters and limits that are not set.
func writePositive[N int | int64](b *strings.Builder, name string, n N) {
	if n > 0 {
		fmt.Fprintf(b, " %s %d", name, n)
	}
}

// IsMove reports whether s is a move in UCI long algebraic notation
// ("e2e4", "e7e8q") or the null move "0000".
func IsMove(s string) bool {
	if s == "0000" {
		return true
	}
	if len(s) != 4 && len(s) != 5 {
		return false
	}
	if s[0] < 'a' || s[0] > 'h' || s[1] < '1' || s[1] > '8' ||
		s[2] < 'a' || s[2] > 'h' || s[3] < '1' || s[3] > '8' {
		return false
	}
	return len(s) == 4 || strings.IndexByte("qrbn", s[4]) >= 0
}

// clip shortens s for inclusion in an error message.
func clip(s string) string {
	const max = 60
	if len(s) <= max {
		return s
	}
	return s[:max] + "…"
}
