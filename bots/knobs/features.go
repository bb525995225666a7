package knobs

import "math"

// centre squares d4, e4, d5, e5.
var centreSquares = [4]int{27, 28, 35, 36}

// params are the per-configuration constants the evaluation needs, derived
// once from a Config.
type params struct {
	cfg        Config
	value      [7]float64 // centipawns by kind (king = piece_value_king)
	vn         [7]float64 // value normalised to the pawn
	centreW    [7]float64 // centre placement weight by kind
	rankMult   [5]float64 // (rankAttackFactor^r)^gamma for r = 1..4
	kingAttack float64    // attacker value of a king for static exchanges
}

func newParams(c Config) *params {
	p := &params{cfg: c}
	p.value = [7]float64{0, c.PieceValuePawn, c.PieceValueKnight, c.PieceValueBishop, c.PieceValueRook, c.PieceValueQueen, c.PieceValueKing}
	for k := 1; k <= 6; k++ {
		p.vn[k] = p.value[k] / c.PieceValuePawn
	}
	p.centreW = [7]float64{0, c.CenterPieceWeightPawn, c.CenterPieceWeightKnight, c.CenterPieceWeightBishop,
		c.CenterPieceWeightRook, c.CenterPieceWeightQueen, c.CenterPieceWeightKing}
	for r := 1; r <= 4; r++ {
		p.rankMult[r] = math.Pow(math.Pow(c.RankAttackFactor, float64(r)), c.DevelopmentGamma)
	}
	p.kingAttack = 1e9
	return p
}

// sideFeatures are the per-side measurements of one position.
type sideFeatures struct {
	material    float64 // centipawns, king excluded
	strength    float64 // S of the endgamishness formula for this side's pieces
	endgamish   float64 // endgamishness seen by this side (from the other side's strength)
	development float64 // piece-weighted control of the other side's half
	defended    float64 // value of own pieces defended by an own piece
	centre      float64 // weighted centre occupancy (king × endgamishness)
	threat      float64 // best static capture gain the other side has against this side
	kingSq      int     // -1 when the side has no king
	inCheck     bool
	kingCanMove bool // the king has a square that is neither own-occupied nor attacked
}

// features are the measurements of one position, indexed by colour.
type features [2]sideFeatures

// endgamishness maps an opponent strength S to [min, max].
func (p *params) endgamishness(s float64) float64 {
	c := &p.cfg
	var e float64
	if c.EndgamishnessForm == FormLogistic {
		e = 1 / (1 + math.Exp(c.EndgamishnessLogisticSlope*(s-c.EndgamishnessLogisticMidpoint)))
	} else {
		e = (c.EndgameMidgameStrength - s) / (c.EndgameMidgameStrength - c.EndgameFewPiecesStrength)
	}
	return clamp(clamp(e, 0, 1), c.EndgamishnessMin, c.EndgamishnessMax)
}

// phaseScale is the queen's midgame hump 4e(1-e); 1 for other pieces.
func (p *params) phaseScale(kind int8, e float64) float64 {
	if kind == kQueen && p.cfg.QueenPhaseHump {
		return 4 * e * (1 - e)
	}
	return 1
}

func clamp(x, lo, hi float64) float64 {
	if x < lo {
		return lo
	}
	if x > hi {
		return hi
	}
	return x
}

// attackInfo is the per-side attack map of one position.
type attackInfo struct {
	count  [64]int8
	minVal [64]float64 // cheapest attacker's value (for exchanges)
	maxVal [64]float64 // strongest attacker's value (for development)
	maxK   [64]int8    // kind of the strongest attacker
}

// measure computes the features of the position on m.
// Long: one pass over the board measuring every feature of the specification together.
func (p *params) measure(m *mailbox) features {
	var f features
	var att [2]attackInfo
	f[white].kingSq, f[black].kingSq = -1, -1
	c := &p.cfg
	for i := range att {
		for sq := range att[i].minVal {
			att[i].minVal[sq] = math.Inf(1)
			att[i].maxVal[sq] = -1
		}
	}
	for sq := 0; sq < 64; sq++ {
		pc := m[sq]
		if pc == 0 {
			continue
		}
		side, kind := pieceColor(pc), absKind(pc)
		sf := &f[side]
		switch kind {
		case kKing:
			sf.kingSq = sq
		case kKnight, kBishop:
			sf.strength += c.EndgameWeightMinor
		case kRook:
			sf.strength += c.EndgameWeightRook
		case kQueen:
			sf.strength += c.EndgameWeightQueen
		}
		if kind != kKing {
			sf.material += p.value[kind]
		}
		a := &att[side]
		attackVal := p.value[kind]
		if kind == kKing {
			attackVal = p.kingAttack
		}
		devVal := p.value[kind]
		m.forEachAttack(sq, func(t int) {
			a.count[t]++
			if attackVal < a.minVal[t] {
				a.minVal[t] = attackVal
			}
			if devVal > a.maxVal[t] {
				a.maxVal[t], a.maxK[t] = devVal, kind
			}
		})
	}
	f[white].endgamish = p.endgamishness(f[black].strength)
	f[black].endgamish = p.endgamishness(f[white].strength)

	for side := 0; side < 2; side++ {
		other := 1 - side
		sf := &f[side]
		e := sf.endgamish
		// Development: unique controlled squares in the other side's half.
		for sq := 0; sq < 64; sq++ {
			a := &att[side]
			if a.count[sq] == 0 {
				continue
			}
			rank := sq / 8
			var r int
			if side == white {
				r = rank - 3
			} else {
				r = 4 - rank
			}
			if r < 1 {
				continue
			}
			occ := m[sq]
			if occ != 0 && (pieceColor(occ) == side || !c.NotJustEmptySquaresThreatReward) {
				continue
			}
			k := a.maxK[sq]
			sf.development += c.DevelopmentIncentive * p.vn[k] * p.phaseScale(k, e) * p.rankMult[r]
		}
		for _, sq := range centreSquares {
			pc := m[sq]
			if pc == 0 || pieceColor(pc) != side {
				continue
			}
			k := absKind(pc)
			w := p.centreW[k]
			if k == kKing {
				w *= e
			}
			sf.centre += w
		}
		for sq := 0; sq < 64; sq++ {
			pc := m[sq]
			if pc == 0 || pieceColor(pc) != side {
				continue
			}
			k := absKind(pc)
			if k == kKing {
				sf.inCheck = att[other].count[sq] > 0
				for _, t := range kingTargets[sq] {
					if (m[t] == 0 || pieceColor(m[t]) != side) && att[other].count[t] == 0 {
						sf.kingCanMove = true
						break
					}
				}
				continue
			}
			v := p.value[k]
			if att[side].count[sq] > 0 {
				sf.defended += v
			}
			if att[other].count[sq] > 0 {
				gain := v
				if att[side].count[sq] > 0 {
					gain = v - att[other].minVal[sq]
				}
				if gain > sf.threat {
					sf.threat = gain
				}
			}
		}
	}
	return f
}

// kingCentreDistance is the Manhattan distance from sq to the nearest
// centre square.
func kingCentreDistance(sq int) int {
	if sq < 0 {
		return 0
	}
	best := 99
	f, r := sq%8, sq/8
	for _, c := range centreSquares {
		d := abs(f-c%8) + abs(r-c/8)
		if d < best {
			best = d
		}
	}
	return best
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}
