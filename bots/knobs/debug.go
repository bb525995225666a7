package knobs

import (
	"fmt"
	"io"
	"strings"
)

// debugReport is what debug mode prints after a move selection.
type debugReport struct {
	fen           string
	engine        int
	setting       int // intended depth
	reached       int // depth of the last completed iteration
	nodes         int64
	cands         []candidate
	loop          string // knight-loop move played instead, if any
	gameThreefold bool   // the game itself has reached a threefold repetition
}

// writeDebug prints every candidate line's score by component, white-centric.
func writeDebug(w io.Writer, r debugReport) {
	side, sign := "white", 1.0
	if r.engine == black {
		side, sign = "black", -1.0
	}
	var b strings.Builder
	fmt.Fprintf(&b, "knobs: position %s engine=%s depth=%d/%d nodes=%d (scores white-centric, cp)\n",
		r.fen, side, r.reached, r.setting, r.nodes)
	if r.gameThreefold {
		b.WriteString("knobs: the game has reached a threefold repetition (draw by rule)\n")
	}
	for i, c := range r.cands {
		d := c.res.bd.scaled(sign)
		fmt.Fprintf(&b, "knobs: #%d %s total=%+.1f base=%+.1f center=%+.1f king_center=%+.1f development=%+.1f undevelopment=%+.1f defense=%+.1f castling=%+.1f risk=%+.1f mate=%+.1f offset=%+.1f plies=%d ply_eq=%.2f risk_factor=%.4f",
			i+1, c.uci, d.Total, d.Base, d.Center, d.KingCenter, d.Development, d.Undevelopment, d.Defense, d.Castling, d.Risk, d.Mate, d.Offset,
			d.Plies, d.PlyEq, d.RiskFactor)
		if d.Draw {
			b.WriteString(" draw")
		}
		fmt.Fprintf(&b, " line=%s\n", strings.Join(c.res.pv, " "))
	}
	if r.loop != "" {
		fmt.Fprintf(&b, "knobs: knight loop plays %s instead of %s\n", r.loop, r.cands[0].uci)
	}
	_, _ = io.WriteString(w, b.String())
}
