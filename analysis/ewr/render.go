package ewr

import (
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
)

// WriteTable writes the ranked move table and the summary.
func WriteTable(w io.Writer, res *Result) error {
	tw := tabwriter.NewWriter(w, 0, 0, 3, ' ', 0)
	fmt.Fprintln(tw, "Move\tExpected Win Rate\tConfidence\tTree Depth\tStockfish")
	for i, m := range res.Moves {
		mark := ""
		if m.Filtered {
			mark = " (filtered)"
		}
		if m.Branches == 0 { // only in a partial result
			fmt.Fprintf(tw, "%d. %s%s\t(not evaluated)\t-\t-\t%.1f%%\n", i+1, m.SAN, mark, 100*m.StockfishWinrate)
			continue
		}
		fmt.Fprintf(tw, "%d. %s%s\t%.1f%%\t%s\t%.1f plies\t%.1f%%\n", i+1, m.SAN, mark,
			100*m.ExpectedWinrate, m.ConfidenceLabel, m.TreeDepth, 100*m.StockfishWinrate)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	_, err := io.WriteString(w, Summary(res))
	return err
}

// Summary renders the summary lines under the table: base winrate and
// parameters, branches, coverage, time and cache status, and warnings.
func Summary(res *Result) string {
	var b strings.Builder
	p := res.Params
	fmt.Fprintf(&b, "\nBase win rate %.1f%% · threshold %g%% · depth %d · loss threshold %+.2f · Maia %d vs %d\n",
		100*res.BaseWinrate, 100*p.Threshold, p.Depth, p.LossThreshold, p.Rating, p.OpponentRating)
	branches, cov := 0, 0.0
	for _, m := range res.Moves {
		branches += m.Branches
		cov += m.Coverage
	}
	if len(res.Moves) > 0 {
		cov /= float64(len(res.Moves))
	}
	status := "fresh"
	if res.Cached {
		status = "cached"
	}
	fmt.Fprintf(&b, "Total branches analysed: %d · coverage: %.1f%% of likely continuations (mean over moves) · calculation time: %d ms · %s\n",
		branches, 100*cov, res.CalcMS, status)
	if s := res.Stats; !res.Cached {
		fmt.Fprintf(&b, "Work: %d of %d legal moves kept · %d tree nodes · Stockfish %d evaluations (%d from cache, %d reused) · Maia %d positions in %d calls\n",
			s.Candidates, s.LegalMoves, s.Nodes, s.EngineEvals, s.EvalCacheHits, s.EvalReuse, s.MaiaPositions, s.MaiaCalls)
	}
	for _, w := range res.Warnings {
		fmt.Fprintf(&b, "warning: %s\n", w)
	}
	return b.String()
}

// WriteTree writes one move's tree (by SAN or UCI), one node per line,
// indented by depth, with probabilities and winrates.
func WriteTree(w io.Writer, res *Result, move string) error {
	root := res.Trees[move]
	if root == nil {
		for _, t := range res.Trees {
			if t.UCI == move {
				root = t
			}
		}
	}
	if root == nil {
		var names []string
		for _, m := range res.Moves {
			names = append(names, m.SAN)
		}
		return fmt.Errorf("ewr: no tree for %q (candidates: %s)", move, strings.Join(names, " "))
	}
	if mr, ok := res.Move(root.SAN); ok {
		fmt.Fprintf(w, "%s: expected win rate %.1f%% · coverage %.1f%% (%s) · %d branches · %.1f plies\n",
			mr.SAN, 100*mr.ExpectedWinrate, 100*mr.Coverage, mr.ConfidenceLabel, mr.Branches, mr.TreeDepth)
	}
	var walk func(n *Node, indent int) error
	walk = func(n *Node, indent int) error {
		line := fmt.Sprintf("%s%s  p %.1f%%  cum %.1f%%", strings.Repeat("  ", indent), n.SAN, 100*n.Probability, 100*n.CumulativeProbability)
		if n.Winrate != nil {
			line += fmt.Sprintf("  wr %.1f%%", 100**n.Winrate)
		}
		if n.Pruned {
			line += "  [" + n.PruningReason + "]"
		}
		if _, err := fmt.Fprintln(w, line); err != nil {
			return err
		}
		for _, c := range n.Children {
			if err := walk(c, indent+1); err != nil {
				return err
			}
		}
		return nil
	}
	return walk(root, 0)
}
