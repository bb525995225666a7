package knobs

import (
	"math"

	"github.com/outpostchess/outpost/bots/board"
)

// Castling flanks, the indices of plyRecord.lostRight and the values of
// plyRecord.castle.
const (
	kingSide  = 1
	queenSide = 2
)

// plyRecord is what the line scorer needs to know about one ply of a line.
type plyRecord struct {
	move       board.Move
	uci        string
	mover      int     // colour that played the ply
	captured   float64 // value of the captured piece, 0 if none
	promoGain  float64 // promoted piece's value minus the pawn's
	givesCheck bool
	castle     int     // kingSide, queenSide, or 0 when the ply is not a castle
	kingMove   bool    // a non-castling king move
	kingRight  bool    // the king still had a castling right before a kingMove
	lostRight  [3]bool // indexed by kingSide / queenSide: right lost by the rook's first move
	devBefore  float64 // mover's net development before the ply
	devAfter   float64 // mover's net development after the ply
}

// swing reports whether the ply changed the material balance.
func (r *plyRecord) swing() bool { return r.captured > 0 || r.promoGain != 0 }

// terminal kinds of a line's end.
const (
	termNone = iota
	termMate
	termDraw
)

// Breakdown is a line's score split by component. The search works on the
// engine-centric version; White returns the white-centric one for reports.
type Breakdown struct {
	Base          float64 `json:"base"`          // material plus absolute net development, weighted
	Center        float64 `json:"center"`        // centre placement
	KingCenter    float64 `json:"king_center"`   // king centring (endgame magnet)
	Development   float64 `json:"development"`   // net development change
	Undevelopment float64 `json:"undevelopment"` // per-move undevelopment penalties and rewards
	Defense       float64 `json:"defense"`       // defended-material delta
	Castling      float64 `json:"castling"`      // castling rewards, lost rights, king moves
	Risk          float64 `json:"risk"`          // risk bonus beyond the opponent depth
	Mate          float64 `json:"mate"`          // mate values
	Offset        float64 `json:"offset"`        // total offset
	Total         float64 `json:"total"`         // the line score after the total cap

	Plies      int     `json:"plies"`       // actual plies in the line
	PlyEq      float64 `json:"ply_eq"`      // ply-equivalent depth
	RiskFactor float64 `json:"risk_factor"` // risk(PlyEq)
	Draw       bool    `json:"draw"`        // the line ends in a draw (threefold, stalemate, 50 moves, material)
	Mated      int     `json:"mated"`       // +1 the engine mates, -1 it is mated, 0 neither
}

// scaled returns b with every score multiplied by s (for orientation).
func (b Breakdown) scaled(s float64) Breakdown {
	// Adding 0 turns the -0 of a scaled zero into 0 for printing.
	for _, x := range []*float64{&b.Base, &b.Center, &b.KingCenter, &b.Development, &b.Undevelopment,
		&b.Defense, &b.Castling, &b.Risk, &b.Mate, &b.Offset, &b.Total} {
		*x = *x*s + 0
	}
	return b
}

// capAbs clamps |x| to c when c > 0.
func capAbs(x, c float64) float64 {
	if c > 0 {
		return clamp(x, -c, c)
	}
	return x
}

// risk is the ply-depth risk multiplier in [0, 1] for ply-equivalent depth d.
func (p *params) risk(d float64) float64 {
	c := &p.cfg
	D := float64(c.OpponentPlyDepth)
	if c.RiskType == RiskLogistic {
		mD := c.RiskMidpointMultiplier * D
		if mD == 0 {
			if d > 0 {
				return 0
			}
			return 1 / (1 + math.Exp(-c.RiskSlope))
		}
		return 1 / (1 + math.Exp(c.RiskSlope*(d/mD-1)))
	}
	var x float64
	switch {
	case D == 0 && d > 0:
		return 0
	case D == 0:
		x = 0
	default:
		x = math.Max(0, d/D-1)
	}
	return math.Exp(-math.Log(c.RiskKAt2x) * x)
}

// riskBonus is the weighted "calculated gamble" term for a line with the
// given potential gain and loss at risk multiplier risk:
// gainScale·gain·(1-risk^pow) - blendAlpha·lossScale·loss·risk^pow, offset,
// capped and weighted.
func (p *params) riskBonus(gain, loss, risk float64) float64 {
	c := &p.cfg
	r := math.Pow(risk, c.RiskPow)
	bonus := c.GainScale*gain*(1-r) - c.BlendAlpha*c.LossScale*loss*r
	return c.WeightRisk * capAbs(bonus+c.RiskOffset, c.RiskCap)
}

// tradePlies marks the plies of a line that belong to an equal-value trade:
// a capture answered on the next ply by the other side's capture of equal
// value (within the tolerance); the capture and its recapture span the "1-2
// plies" of the specification. The material-swing extension guarantees the
// recapture is searched before a line is scored.
func (p *params) tradePlies(path []plyRecord) []bool {
	marks := make([]bool, len(path))
	for i := range path {
		if path[i].captured == 0 {
			continue
		}
		if j := i + 1; j < len(path) && path[j].mover != path[i].mover && path[j].captured > 0 &&
			math.Abs(path[j].captured-path[i].captured) <= p.cfg.TradeValueTolerance {
			marks[i], marks[j] = true, true
		}
	}
	return marks
}

// plyEquivalent is the line's depth in ply equivalents.
func (p *params) plyEquivalent(path []plyRecord) float64 {
	var d float64
	for _, t := range p.tradePlies(path) {
		if t {
			d += p.cfg.TradePlyDepthEquivalent
		} else {
			d++
		}
	}
	return d
}

// lineContext is the fixed part of every line of one search.
type lineContext struct {
	p      *params
	engine int      // engine colour
	root   features // features of the root position
}

// score computes the engine-centric breakdown of a line ending in the
// position with features leaf, side to move stm and the given terminal kind.
func (lc *lineContext) score(leaf *features, path []plyRecord, stm int, term int) Breakdown {
	p, c := lc.p, &lc.p.cfg
	E, O := lc.engine, 1-lc.engine
	root := &lc.root
	var b Breakdown
	b.Plies = len(path)
	b.PlyEq = p.plyEquivalent(path)
	b.RiskFactor = p.risk(b.PlyEq)
	if term == termDraw {
		b.Draw = true
		return b
	}

	netDev := func(f *features) float64 { return f[E].development - c.DevelopmentOpponentWeight*f[O].development }
	matStart := root[E].material - root[O].material
	matEnd := leaf[E].material - leaf[O].material
	b.Base = c.WeightBase * (matEnd + c.BaseDevelopmentWeight*netDev(leaf))

	centre := c.CenterPiecePlacementReward*(leaf[E].centre-root[E].centre) -
		c.CenterOpponentWeight*c.CenterPiecePlacementReward*(leaf[O].centre-root[O].centre)
	b.Center = c.WeightCenter * capAbs(centre+c.CenterPlacementOffset, c.CenterPlacementCap)

	improvement := math.Max(0, float64(kingCentreDistance(root[E].kingSq)-kingCentreDistance(leaf[E].kingSq)))
	kc := c.EndGameKingCenterMagnet * math.Pow(leaf[E].endgamish, c.EndgamishnessPow) * math.Pow(improvement, c.KingCenterImprovementPow)
	b.KingCenter = c.WeightKingCenter * capAbs(kc+c.KingCenterOffset, c.KingCenterCap)

	dev := netDev(leaf) - netDev(root)
	b.Development = c.WeightDevelopment * capAbs(dev+c.DevelopmentOffset, c.DevelopmentCap)

	var undev float64
	for i := range path {
		r := &path[i]
		loss := math.Max(0, r.devBefore-r.devAfter)
		if r.mover == E {
			undev -= loss
		} else {
			undev += loss
		}
	}
	b.Undevelopment = c.UndevelopmentWeight * undev

	if c.NotJustEmptySquaresThreatReward {
		b.Defense = c.DefenseDeltaWeight * ((leaf[E].defended - root[E].defended) - (leaf[O].defended - root[O].defended))
	}

	b.Castling = c.WeightCastling * lc.castling(path)

	if term == termNone {
		gain := math.Max(0, matEnd-matStart)
		var loss float64
		if stm == O {
			loss = leaf[E].threat
		}
		b.Risk = p.riskBonus(gain, loss, b.RiskFactor)
	}

	if term == termMate {
		plies := float64(len(path))
		scale := 1.0
		if c.MateDistanceScaling {
			scale = 1 / (plies + 1)
		}
		if stm == O {
			b.Mated = 1
			b.Mate = c.KingOpponentValue*scale - c.MatePlyPenalty*plies
		} else {
			b.Mated = -1
			b.Mate = -c.KingEngineValue*scale + c.MatePlyPenalty*plies
		}
	}

	b.Offset = c.TotalOffset
	sum := b.Base + b.Center + b.KingCenter + b.Development + b.Undevelopment + b.Defense + b.Castling + b.Risk + b.Mate + b.Offset
	b.Total = capAbs(sum, c.TotalCap)
	return b
}

// castling sums castling rewards, lost-right penalties and king-move
// penalties along the line, engine-centric (the opponent's are inverted).
// Each side is charged at most once per flank and once for king moves.
func (lc *lineContext) castling(path []plyRecord) float64 {
	c := &lc.p.cfg
	var total float64
	var kingCharged [2]bool
	var flankDone [2][3]bool
	for i := range path {
		r := &path[i]
		var v float64
		switch r.castle {
		case kingSide:
			v += c.CastleKingSideReward
		case queenSide:
			v += c.CastleQueenSideReward
		}
		if r.lostRight[kingSide] && !flankDone[r.mover][kingSide] {
			flankDone[r.mover][kingSide] = true
			v -= c.CastleKingSideReward
		}
		if r.lostRight[queenSide] && !flankDone[r.mover][queenSide] {
			flankDone[r.mover][queenSide] = true
			v -= c.CastleQueenSideReward
		}
		if r.kingMove && !kingCharged[r.mover] && (r.kingRight || !c.KingMovePenaltyNeedsCastlingRight) {
			kingCharged[r.mover] = true
			v -= c.KingNonCastleMovePenalty
		}
		if r.mover == lc.engine {
			total += v
		} else {
			total -= v
		}
	}
	return total
}
