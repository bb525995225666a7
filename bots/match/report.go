package match

import (
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"math"
	"slices"
	"strings"
)

// StatsJSON is the JSON form of a match's statistics (`outpost match
// --json`): counts from A's point of view, the score and LOS rounded to
// four decimals, the Elo figures to one.
type StatsJSON struct {
	Games    int     `json:"games"`
	WinsA    int     `json:"wins_a"`
	WinsB    int     `json:"wins_b"`
	Draws    int     `json:"draws"`
	ScoreA   float64 `json:"score_a"`
	EloDiff  float64 `json:"elo_diff"`
	EloError float64 `json:"elo_error"`
	LOS      float64 `json:"los"`
}

// JSON returns st in its JSON form.
func (st Stats) JSON() StatsJSON {
	return StatsJSON{
		Games: st.Games, WinsA: st.Wins, WinsB: st.Losses, Draws: st.Draws,
		ScoreA: round(st.Score, 4), EloDiff: round(st.EloDiff, 1), EloError: round(st.EloError, 1), LOS: round(st.LOS, 4),
	}
}

// WriteJSON writes st's JSON form to w as one line.
func (st Stats) WriteJSON(w io.Writer) error {
	if err := json.NewEncoder(w).Encode(st.JSON()); err != nil {
		return fmt.Errorf("match: writing statistics: %w", err)
	}
	return nil
}

// round rounds x to the given number of decimals.
func round(x float64, digits int) float64 {
	p := math.Pow(10, float64(digits))
	return math.Round(x*p) / p
}

// WriteReport writes the match's summary for people: both engines (their
// names and the specifications they were built from), the results, the
// Elo difference with its error and LOS, and how the games ended.
func (sum Summary) WriteReport(w io.Writer, specA, specB string) {
	st := sum.Stats
	fmt.Fprintf(w, "A: %s (%s)\nB: %s (%s)\n", sum.NameA, specA, sum.NameB, specB)
	fmt.Fprintf(w, "games %d: A won %d, B won %d, %d drawn; A scored %.1f%%\n",
		st.Games, st.Wins, st.Losses, st.Draws, 100*st.Score)
	fmt.Fprintf(w, "Elo difference (A-B): %+.0f ± %.0f (95%%), LOS %.1f%%\n", round(st.EloDiff, 0)+0, st.EloError, 100*st.LOS)
	reasons := map[string]int{}
	for _, g := range sum.Games {
		r := g.Reason
		if i := strings.Index(r, ":"); i > 0 {
			r = r[:i]
		}
		reasons[r]++
	}
	var parts []string
	for _, r := range slices.Sorted(maps.Keys(reasons)) {
		parts = append(parts, fmt.Sprintf("%s %d", r, reasons[r]))
	}
	fmt.Fprintf(w, "endings: %s\n", strings.Join(parts, ", "))
	if sum.SPRT != nil {
		fmt.Fprintln(w, sum.SPRT.String())
	}
}

// SPRTJSON is the JSON form of an SPRT's result.
type SPRTJSON struct {
	Elo0        float64 `json:"elo0"`
	Elo1        float64 `json:"elo1"`
	Alpha       float64 `json:"alpha"`
	Beta        float64 `json:"beta"`
	Pairs       int     `json:"pairs"`
	Pentanomial [5]int  `json:"pentanomial"`
	Elo         float64 `json:"elo"`
	EloError    float64 `json:"elo_error"`
	LLR         float64 `json:"llr"`
	Lower       float64 `json:"lower"`
	Upper       float64 `json:"upper"`
	Decision    string  `json:"decision"` // "H0", "H1" or "" (the game cap came first)
}

// SummaryJSON is `outpost match --json`'s line: the statistics, and the
// SPRT's result under "sprt" when the match ran one.
type SummaryJSON struct {
	StatsJSON
	SPRT *SPRTJSON `json:"sprt,omitempty"`
}

// WriteJSON writes the summary's JSON form (SummaryJSON) to w as one line.
func (sum Summary) WriteJSON(w io.Writer) error {
	out := SummaryJSON{StatsJSON: sum.Stats.JSON()}
	if r := sum.SPRT; r != nil {
		out.SPRT = &SPRTJSON{
			Elo0: r.Test.Elo0, Elo1: r.Test.Elo1, Alpha: r.Test.Alpha, Beta: r.Test.Beta,
			Pairs: r.Pentanomial.Pairs(), Pentanomial: r.Pentanomial, Elo: round(r.Elo, 1), EloError: round(r.Error, 1),
			LLR: round(r.LLR, 3), Lower: round(r.Lower, 3), Upper: round(r.Upper, 3), Decision: r.Decision,
		}
	}
	if err := json.NewEncoder(w).Encode(out); err != nil {
		return fmt.Errorf("match: writing summary: %w", err)
	}
	return nil
}

// WritePGN writes the games to w in PGN, each followed by an empty line.
func WritePGN(w io.Writer, games []Game) error {
	for _, g := range games {
		p, err := g.PGN()
		if err != nil {
			return err
		}
		if _, err := io.WriteString(w, p+"\n"); err != nil {
			return fmt.Errorf("match: writing game %d: %w", g.Index+1, err)
		}
	}
	return nil
}

// WriteLine writes the rung's results as one indented line of a ladder's
// report.
func (r Rung) WriteLine(w io.Writer) {
	fmt.Fprintf(w, "  UCI_Elo %4d: +%d -%d =%d  score %.1f%%\n", r.Elo, r.Wins, r.Losses, r.Draws, 100*r.Score())
}

// WriteSummary writes the ladder's estimate for people: the engine's
// rating on the scale of ref (the reference engine's name) at tc seconds
// per move, with its error, or the bound when it won or lost every game,
// and the number of games.
func (res LadderResult) WriteSummary(w io.Writer, ref string, tc float64) {
	label := fmt.Sprintf("%s-equivalent Elo at %g s/move on this machine", strings.ReplaceAll(ref, " ", "-"), tc)
	games := 0
	for _, r := range res.Rungs {
		games += r.Games()
	}
	switch res.Fit.Bound {
	case "above":
		fmt.Fprintf(w, "%s: above %d (won every game; %d games)\n", label, res.Rungs[len(res.Rungs)-1].Elo, games)
	case "below":
		fmt.Fprintf(w, "%s: below %d (lost every game; %d games)\n", label, res.Rungs[len(res.Rungs)-1].Elo, games)
	default:
		fmt.Fprintf(w, "%s: %.0f ± %.0f (95%%, %d games)\n", label, res.Fit.Elo, res.Fit.Error, games)
	}
}
