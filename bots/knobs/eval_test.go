package knobs

import (
	"math"
	"testing"
)

func TestRiskExponential(t *testing.T) {
	p := newParams(Defaults()) // D = 4, k = 100
	tests := []struct{ d, want float64 }{
		{0, 1}, {2, 1}, {4, 1}, {8, 0.01}, {6, 0.1}, {7, math.Exp(-math.Log(100) * 0.75)}, {12, 0.0001},
	}
	for _, tt := range tests {
		if got := p.risk(tt.d); !near(got, tt.want) {
			t.Errorf("risk(%g) = %g, want %g", tt.d, got, tt.want)
		}
	}
	// The specification's worked example states risk(7) ≈ 0.056, but its own
	// formula gives 100^-0.75 ≈ 0.0316; the formula is implemented.
	if got := p.risk(7); !approx(got, 0.0316, 0.0001) {
		t.Errorf("risk(7) = %g, want ≈ 0.0316", got)
	}
	c := Defaults()
	c.RiskKAt2x = 10
	if got := newParams(c).risk(8); !near(got, 0.1) {
		t.Errorf("k=10: risk(2D) = %g, want 0.1", got)
	}
	c = Defaults()
	c.OpponentPlyDepth = 0
	if p0 := newParams(c); p0.risk(0) != 1 || p0.risk(1) != 0 {
		t.Errorf("D=0: risk(0)=%g risk(1)=%g, want 1 and 0", p0.risk(0), p0.risk(1))
	}
}

func TestRiskLogistic(t *testing.T) {
	c := Defaults()
	c.RiskType = RiskLogistic // s = 5, m = 1
	p := newParams(c)
	if got := p.risk(4); !near(got, 0.5) {
		t.Errorf("risk(mD) = %g, want 0.5", got)
	}
	if got, want := p.risk(8), 1/(1+math.Exp(5)); !near(got, want) {
		t.Errorf("risk(2D) = %g, want %g", got, want)
	}
	if got, want := p.risk(0), 1/(1+math.Exp(-5)); !near(got, want) {
		t.Errorf("risk(0) = %g, want %g", got, want)
	}
	c.RiskMidpointMultiplier, c.RiskSlope = 1.5, 10
	p = newParams(c)
	if got := p.risk(6); !near(got, 0.5) {
		t.Errorf("m=1.5: risk(6) = %g, want 0.5", got)
	}
	if p.risk(7) >= newParams(Defaults()).risk(7)+0.5 || p.risk(5) <= p.risk(7) {
		t.Errorf("logistic not decreasing: %g %g", p.risk(5), p.risk(7))
	}
}

func TestRiskBonus(t *testing.T) {
	p := newParams(Defaults())
	// The specification's example: 8 plies, 2 of them trade plies.
	// With the example's stated risk 0.056 the example's +136 follows.
	if got := p.riskBonus(150, 100, 0.056); !approx(got, 136, 0.5) {
		t.Errorf("bonus = %g, want ≈ +136", got)
	}
	if got := p.riskBonus(150, 100, p.risk(7)); !approx(got, 142.09, 0.01) {
		t.Errorf("bonus at risk(7) = %g, want ≈ 142.09", got)
	}
	if got := p.riskBonus(150, 100, 1); got != -100 {
		t.Errorf("at the expected depth: bonus = %g, want -100", got)
	}
	tests := []struct {
		name string
		set  func(*Config)
		want float64 // for gain 150, loss 100, risk 0.5
	}{
		{"neutral", func(*Config) {}, 75 - 50},
		{"risk_pow 2", func(c *Config) { c.RiskPow = 2 }, 150*0.75 - 100*0.25},
		{"gain_scale 2", func(c *Config) { c.GainScale = 2 }, 150 - 50},
		{"loss_scale 0", func(c *Config) { c.LossScale = 0 }, 75},
		{"blend_alpha 0.5", func(c *Config) { c.BlendAlpha = 0.5 }, 75 - 25},
		{"offset", func(c *Config) { c.RiskOffset = 10 }, 35},
		{"cap", func(c *Config) { c.RiskCap = 20 }, 20},
		{"weight", func(c *Config) { c.WeightRisk = 2 }, 50},
	}
	for _, tt := range tests {
		c := Defaults()
		tt.set(&c)
		if got := newParams(c).riskBonus(150, 100, 0.5); !near(got, tt.want) {
			t.Errorf("%s: bonus = %g, want %g", tt.name, got, tt.want)
		}
	}
}

func TestEndgamishness(t *testing.T) {
	p := newParams(Defaults())
	tests := []struct{ s, want float64 }{{40, 0}, {31, 0}, {18.5, 0.5}, {6, 1}, {0, 1}, {26, 0.2}}
	for _, tt := range tests {
		if got := p.endgamishness(tt.s); !near(got, tt.want) {
			t.Errorf("endgamish(%g) = %g, want %g", tt.s, got, tt.want)
		}
	}
	c := Defaults()
	c.EndgamishnessMin, c.EndgamishnessMax = 0.1, 0.9
	p = newParams(c)
	if p.endgamishness(40) != 0.1 || p.endgamishness(0) != 0.9 {
		t.Errorf("clamps: %g %g", p.endgamishness(40), p.endgamishness(0))
	}
	c = Defaults()
	c.EndgamishnessForm = FormLogistic
	p = newParams(c)
	if got := p.endgamishness(18.5); !near(got, 0.5) {
		t.Errorf("logistic midpoint = %g", got)
	}
	if p.endgamishness(31) > 0.05 || p.endgamishness(6) < 0.95 {
		t.Errorf("logistic ends: %g %g", p.endgamishness(31), p.endgamishness(6))
	}
	// Strength is measured from pieces: the start position is S = 31.
	f := measureFEN(t, Defaults(), "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1")
	if f[white].endgamish != 0 || f[black].strength != 31 {
		t.Errorf("start: endgamish %g strength %g", f[white].endgamish, f[black].strength)
	}
	// Black has one rook: S = 5 <= L, full endgame for White.
	f = measureFEN(t, Defaults(), "4k2r/8/8/8/8/8/8/R3K3 w - - 0 1")
	if f[white].endgamish != 1 {
		t.Errorf("rook ending: endgamish %g", f[white].endgamish)
	}
}

func TestCenterPlacement(t *testing.T) {
	const start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
	checkLines(t, "center", func(b Breakdown) float64 { return b.Center }, []lineCase{
		{"pawn to e4", start, []string{"e2e4"}, nil, 50},
		{"two pawns", start, []string{"e2e4", "a7a6", "d2d4"}, nil, 100},
		{"pawn weight 0", start, []string{"e2e4"}, func(c *Config) { c.CenterPieceWeightPawn = 0 }, 0},
		{"knight weight 2", "4k3/8/8/8/8/5N2/8/4K3 w - - 0 1", []string{"f3e5"}, func(c *Config) { c.CenterPieceWeightKnight = 2 }, 100},
		{"leaving the centre", "4k3/8/8/4N3/8/8/8/4K3 w - - 0 1", []string{"e5f7"}, nil, -50},
		{"opponent ignored by default", start, []string{"a2a3", "e7e5"}, nil, 0},
		{"opponent weight", start, []string{"a2a3", "e7e5"}, func(c *Config) { c.CenterOpponentWeight = 1 }, -50},
		{"offset", start, []string{"e2e4"}, func(c *Config) { c.CenterPlacementOffset = 5 }, 55},
		{"cap", start, []string{"e2e4", "a7a6", "d2d4"}, func(c *Config) { c.CenterPlacementCap = 60 }, 60},
		{"weight", start, []string{"e2e4"}, func(c *Config) { c.WeightCenter = 0.5 }, 25},
		// The king counts times endgamishness: full in a bare-king ending,
		// nothing with the opponent's full army.
		{"king in the endgame", "7k/8/8/8/8/4K3/8/8 w - - 0 1", []string{"e3e4"}, nil, 50},
		{"king in the middlegame", "rnbqkbnr/pppppppp/8/8/8/4K3/8/8 w kq - 0 1", []string{"e3e4"}, nil, 0},
		{"engine is black", "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1", []string{"d7d5"}, nil, 50},
	})
}

func TestKingCentering(t *testing.T) {
	checkLines(t, "king centre", func(b Breakdown) float64 { return b.KingCenter }, []lineCase{
		// a1 is 6 from d4; b2 is 4: improvement 2, endgamishness 1.
		{"bare kings", "7k/8/8/8/8/8/8/K7 w - - 0 1", []string{"a1b2"}, nil, 30},
		{"moving away", "7k/8/8/8/8/8/1K6/8 w - - 0 1", []string{"b2a1"}, nil, 0},
		// Black has Q+R: S = 14, endgamishness (31-14)/25 = 0.68.
		{"partial endgame", "3qr2k/8/8/8/8/8/8/K7 w - - 0 1", []string{"a1b2"}, nil, 15 * 0.68 * 2},
		{"full middlegame", "rnbqkbnr/8/8/8/8/8/8/K7 w - - 0 1", []string{"a1b2"}, nil, 0},
		{"improvement pow 2", "7k/8/8/8/8/8/8/K7 w - - 0 1", []string{"a1b2"}, func(c *Config) { c.KingCenterImprovementPow = 2 }, 60},
		{"endgamishness pow", "3qr2k/8/8/8/8/8/8/K7 w - - 0 1", []string{"a1b2"}, func(c *Config) { c.EndgamishnessPow = 2 }, 15 * 0.68 * 0.68 * 2},
		{"offset and cap", "7k/8/8/8/8/8/8/K7 w - - 0 1", []string{"a1b2"}, func(c *Config) { c.KingCenterOffset, c.KingCenterCap = 10, 35 }, 35},
		{"weight", "7k/8/8/8/8/8/8/K7 w - - 0 1", []string{"a1b2"}, func(c *Config) { c.WeightKingCenter = 2 }, 60},
	})
}

func TestDevelopmentMeasure(t *testing.T) {
	const r1, r2, r3 = 1.1, 1.1 * 1.1, 1.1 * 1.1 * 1.1
	tests := []struct {
		name string
		fen  string
		set  func(*Config)
		want float64 // White's development
	}{
		{"pawn e4", "7k/8/8/8/4P3/8/8/K7 w - - 0 1", nil, 10 * 1 * r1 * 2},
		{"pawn e6", "7k/8/4P3/8/8/8/8/K7 w - - 0 1", nil, 10 * 1 * r3 * 2},
		// Ne4 attacks c5, g5 (r=1) and d6, f6 (r=2) in Black's half.
		{"knight e4", "7k/8/8/8/4N3/8/8/K7 w - - 0 1", nil, 10 * 3 * (2*r1 + 2*r2)},
		{"occupied square counted", "7k/8/3p4/8/4N3/8/8/K7 w - - 0 1", nil, 10 * 3 * (2*r1 + 2*r2)},
		{"occupied square not counted", "7k/8/3p4/8/4N3/8/8/K7 w - - 0 1",
			func(c *Config) { c.NotJustEmptySquaresThreatReward = false }, 10 * 3 * (2*r1 + r2)},
		{"own piece never counted", "7k/8/3P4/8/4N3/8/8/K7 w - - 0 1", nil, 10*3*(2*r1+r2) + 10*1*(2*1.1*1.1*1.1)},
		// c5 is attacked by the pawn d4 and the knight e4: the knight (3) counts once.
		{"strongest controller", "7k/8/8/8/3PN3/8/8/K7 w - - 0 1", nil, 10*3*(2*r1+2*r2) + 10*1*r1},
		{"rank factor 1", "7k/8/8/8/4N3/8/8/K7 w - - 0 1", func(c *Config) { c.RankAttackFactor = 1 }, 10 * 3 * 4},
		{"gamma 2", "7k/8/8/8/4N3/8/8/K7 w - - 0 1", func(c *Config) { c.DevelopmentGamma = 2 }, 10 * 3 * (2*r2 + 2*r2*r2)},
		{"incentive 20", "7k/8/8/8/4P3/8/8/K7 w - - 0 1", func(c *Config) { c.DevelopmentIncentive = 20 }, 20 * 1 * r1 * 2},
		{"pawn weight halves", "7k/8/8/8/4N3/8/8/K7 w - - 0 1", func(c *Config) { c.PieceValuePawn = 200 }, 10 * 1.5 * (2*r1 + 2*r2)},
		// A queen alone against a bare king: endgamishness 1, hump 0.
		{"queen hump at e=1", "7k/8/8/8/8/8/8/K2Q4 w - - 0 1", nil, 0},
		{"queen without hump", "7k/8/8/8/8/8/8/K2Q4 w - - 0 1", func(c *Config) { c.QueenPhaseHump = false }, 10 * 9 * (r1 + r2 + r3 + r3*1.1 + r1)}, // d5-d8 and h5,
		{"king weight 0", "7k/8/8/8/4K3/8/8/8 w - - 0 1", nil, 0},
	}
	for _, tt := range tests {
		c := Defaults()
		if tt.set != nil {
			tt.set(&c)
		}
		f := measureFEN(t, c, tt.fen)
		if !near(f[white].development, tt.want) {
			t.Errorf("%s: development = %g, want %g", tt.name, f[white].development, tt.want)
		}
	}
}

func TestQueenHump(t *testing.T) {
	p := newParams(Defaults())
	for _, tt := range []struct{ e, want float64 }{{0, 0}, {0.25, 0.75}, {0.5, 1}, {0.75, 0.75}, {1, 0}} {
		if got := p.phaseScale(kQueen, tt.e); !near(got, tt.want) {
			t.Errorf("hump(%g) = %g, want %g", tt.e, got, tt.want)
		}
		if p.phaseScale(kRook, tt.e) != 1 {
			t.Errorf("rook phase at %g not 1", tt.e)
		}
	}
	// Black with Q+R+R = 19 leaves White's queen near the hump's peak:
	// e = (31-19)/25 = 0.48.
	f := measureFEN(t, Defaults(), "3qrr1k/8/8/8/8/8/8/K2Q4 w - - 0 1")
	e := 0.48
	want := 10 * 9 * 4 * e * (1 - e) * (1.1 + 1.21 + 1.331) // d5, d6, d7 (d8 holds the queen: a threat)
	want += 10 * 9 * 4 * e * (1 - e) * (1.4641 + 1.1)       // d8 and h5
	if !near(f[white].development, want) {
		t.Errorf("queen development at e=0.48 = %g, want %g", f[white].development, want)
	}
}

func TestDevelopmentLine(t *testing.T) {
	const r1 = 1.1
	// Ng1-f3 gains e5 and g5 (r=1) for White.
	b, _ := line(t, Defaults(), "4k3/8/8/8/8/8/8/4K1N1 w - - 0 1", "g1f3")
	if !near(b.Development, 2*30*r1) {
		t.Errorf("Nf3: development = %g, want %g", b.Development, 2*30*r1)
	}
	// The opponent's gain is subtracted with development_opponent_weight.
	b, _ = line(t, Defaults(), "4k1n1/8/8/8/8/8/8/4K3 w - - 0 1", "e1d1", "g8f6")
	if !near(b.Development, -2*30*r1) {
		t.Errorf("opponent Nf6: development = %g, want %g", b.Development, -2*30*r1)
	}
	c := Defaults()
	c.DevelopmentOpponentWeight = 0.5
	b, _ = line(t, c, "4k1n1/8/8/8/8/8/8/4K3 w - - 0 1", "e1d1", "g8f6")
	if !near(b.Development, -30*r1) {
		t.Errorf("weight 0.5: development = %g", b.Development)
	}
	c = Defaults()
	c.DevelopmentOffset, c.DevelopmentCap, c.WeightDevelopment = 4, 50, 2
	b, _ = line(t, c, "4k3/8/8/8/8/8/8/4K1N1 w - - 0 1", "g1f3")
	if !near(b.Development, 100) {
		t.Errorf("offset/cap/weight: development = %g, want 100", b.Development)
	}
}

func TestUndevelopment(t *testing.T) {
	const lost = 2 * 30 * 1.1 // Nf3 controls e5 and g5
	checkLines(t, "undevelopment", func(b Breakdown) float64 { return b.Undevelopment }, []lineCase{
		{"own retreat penalised", "4k3/8/8/8/8/5N2/8/4K3 w - - 0 1", []string{"f3g1"}, nil, -lost},
		{"opponent retreat rewarded", "4k3/8/5n2/8/8/8/8/4K3 w - - 0 1", []string{"e1d1", "f6g8"}, nil, lost},
		{"advance is not undevelopment", "4k3/8/8/8/8/8/8/4K1N1 w - - 0 1", []string{"g1f3"}, nil, 0},
		{"weight", "4k3/8/8/8/8/5N2/8/4K3 w - - 0 1", []string{"f3g1"}, func(c *Config) { c.UndevelopmentWeight = 0.5 }, -lost / 2},
	})
}

func TestDefenseDelta(t *testing.T) {
	// Rb1-b2 puts the rook where it defends the knight on b4 (300 defended).
	const fen = "4k3/8/8/8/1N6/8/8/1R2K3 w - - 0 1"
	b, _ := line(t, Defaults(), fen, "b1b2")
	if !near(b.Defense, 0) {
		// b1 already defends b4 along the file; moving to b2 changes nothing.
		t.Errorf("defense = %g, want 0", b.Defense)
	}
	b, _ = line(t, Defaults(), "4k3/8/8/8/1N6/8/8/R3K3 w - - 0 1", "a1b1")
	if !near(b.Defense, 0.1*300) {
		t.Errorf("Ra1-b1 defends the knight: defense = %g, want 30", b.Defense)
	}
	c := Defaults()
	c.NotJustEmptySquaresThreatReward = false
	b, _ = line(t, c, "4k3/8/8/8/1N6/8/8/R3K3 w - - 0 1", "a1b1")
	if b.Defense != 0 {
		t.Errorf("toggle off: defense = %g, want 0", b.Defense)
	}
	// The opponent defending its own piece counts against us.
	b, _ = line(t, Defaults(), "r3k3/8/8/1n6/8/8/8/4K3 w - - 0 1", "e1d1", "a8b8")
	if !near(b.Defense, -0.1*300) {
		t.Errorf("opponent defends: defense = %g, want -30", b.Defense)
	}
}

func TestCastling(t *testing.T) {
	const w = "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1"
	const b = "r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 1"
	checkLines(t, "castling", func(b Breakdown) float64 { return b.Castling }, []lineCase{
		{"castle king-side", w, []string{"e1g1"}, nil, 60},
		{"castle queen-side", w, []string{"e1c1"}, nil, 50},
		{"king-side rook loses the right", w, []string{"h1h2"}, nil, -60},
		{"queen-side rook loses the right", w, []string{"a1a2"}, nil, -50},
		{"second rook move charged once", w, []string{"h1h2", "a8a7", "h2h1"}, nil, -60 + 50},
		{"king move", w, []string{"e1e2"}, nil, -110},
		{"king moves twice, charged once", w, []string{"e1e2", "a8b8", "e2e1"}, nil, -110 + 50},
		{"opponent castles", w, []string{"a1b1", "e8g8"}, nil, -50 - 60},
		{"opponent king move", w, []string{"e1g1", "e8d8"}, nil, 60 + 110},
		{"both castle", w, []string{"e1g1", "e8c8"}, nil, 60 - 50},
		{"engine black castles", b, []string{"e8c8"}, nil, 50},
		{"engine black, white castles", b, []string{"h8h7", "e1g1"}, nil, -60 - 60},
		{"king without rights", "4k3/8/8/8/8/8/8/4K3 w - - 0 1", []string{"e1e2"}, nil, 0},
		{"king without rights, always charged", "4k3/8/8/8/8/8/8/4K3 w - - 0 1", []string{"e1e2"},
			func(c *Config) { c.KingMovePenaltyNeedsCastlingRight = false }, -110},
		{"weight", w, []string{"e1g1"}, func(c *Config) { c.WeightCastling = 0.5 }, 30},
		{"custom rewards", w, []string{"e1c1", "e8g8"}, func(c *Config) { c.CastleQueenSideReward, c.CastleKingSideReward = 80, 10 }, 70},
	})
}

func TestTradeRecognition(t *testing.T) {
	cases := []struct {
		name  string
		fen   string
		moves []string
		tol   float64
		want  []bool
		eq    float64
	}{
		{"knight takes knight, recaptured", "4k3/4p3/3n4/8/4N3/8/8/4K3 w - - 0 1", []string{"e4d6", "e7d6"}, 0, []bool{true, true}, 1},
		{"pawn takes knight, not a trade", "4k3/2p5/3n4/8/8/8/8/2B1K3 w - - 0 1", []string{"c1f4", "d6e4"}, 0, []bool{false, false}, 2},
		{"bishop for knight", "4k3/4p3/3n4/8/8/8/8/B3K3 w - - 0 1", []string{"a1b2", "d6e4", "b2g7"}, 0, []bool{false, false, false}, 3},
		{"knight for bishop with tolerance", "4k3/4p3/3b4/8/4N3/8/8/4K3 w - - 0 1", []string{"e4d6", "e7d6"}, 0, []bool{true, true}, 1},
		{"unequal recapture", "4k3/4p3/3r4/8/4N3/8/8/4K3 w - - 0 1", []string{"e4d6", "e7d6"}, 0, []bool{false, false}, 2},
		{"unequal within tolerance", "4k3/4p3/3r4/8/4N3/8/8/4K3 w - - 0 1", []string{"e4d6", "e7d6"}, 200, []bool{true, true}, 1},
	}
	for _, tt := range cases {
		c := Defaults()
		c.TradeValueTolerance = tt.tol
		bd, s := line(t, c, tt.fen, tt.moves...)
		got := s.p.tradePlies(s.path)
		for i := range tt.want {
			if got[i] != tt.want[i] {
				t.Errorf("%s: trade marks %v, want %v", tt.name, got, tt.want)
				break
			}
		}
		if !near(bd.PlyEq, tt.eq) {
			t.Errorf("%s: plyEq %g, want %g", tt.name, bd.PlyEq, tt.eq)
		}
	}
	// The specification's example: 8 plies, 2 trade plies, 0.5 each: 7.
	p := newParams(Defaults())
	path := make([]plyRecord, 8)
	for i := range path {
		path[i].mover = i % 2
	}
	path[2].captured, path[3].captured = 300, 300
	if got := p.plyEquivalent(path); got != 7 {
		t.Errorf("spec example plyEq = %g, want 7", got)
	}
	c := Defaults()
	c.TradePlyDepthEquivalent = 1
	if got := newParams(c).plyEquivalent(path); got != 8 {
		t.Errorf("trade equivalent 1: plyEq = %g, want 8", got)
	}
}

func TestMateHandling(t *testing.T) {
	// Scholar's mate: Qxf7# ends the line after one ply.
	const fen = "r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 4 4"
	b, _ := line(t, Defaults(), fen, "h5f7")
	if b.Mated != 1 || !near(b.Mate, 5000-1) {
		t.Errorf("engine mates: mated %d mate %g, want 1 and 4999", b.Mated, b.Mate)
	}
	c := Defaults()
	c.MateDistanceScaling = true
	b, _ = line(t, c, fen, "h5f7")
	if !near(b.Mate, 5000.0/2-1) {
		t.Errorf("scaled mate = %g, want 2499", b.Mate)
	}
	c = Defaults()
	c.KingOpponentValue, c.MatePlyPenalty = 12000, 0
	b, _ = line(t, c, fen, "h5f7")
	if !near(b.Mate, 12000) {
		t.Errorf("king_opponent_value 12000: mate = %g", b.Mate)
	}
	// The engine (White) walks into the fool's mate.
	b, _ = line(t, Defaults(), "rnbqkbnr/pppp1ppp/8/4p3/8/5P2/PPPPP1PP/RNBQKBNR w KQkq - 0 2", "g2g4", "d8h4")
	if b.Mated != -1 || !near(b.Mate, -7000+2) {
		t.Errorf("engine mated: mated %d mate %g, want -1 and -6998", b.Mated, b.Mate)
	}
	if b.Total > -6000 {
		t.Errorf("mated line total %g is not strongly negative", b.Total)
	}
}

func TestTotals(t *testing.T) {
	b, _ := line(t, Defaults(), "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "e2e4")
	sum := b.Base + b.Center + b.KingCenter + b.Development + b.Undevelopment + b.Defense + b.Castling + b.Risk + b.Mate + b.Offset
	if !near(sum, b.Total) {
		t.Errorf("components %g do not sum to total %g", sum, b.Total)
	}
	c := Defaults()
	c.TotalOffset, c.TotalCap = 1000, 20
	b, _ = line(t, c, "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "e2e4")
	if b.Total != 20 {
		t.Errorf("capped total = %g, want 20", b.Total)
	}
	c = Defaults()
	c.WeightBase = 0
	b, _ = line(t, c, "4k3/8/8/3q4/8/8/3R4/4K3 w - - 0 1", "d2d5")
	if b.Base != 0 {
		t.Errorf("weight_base 0: base %g", b.Base)
	}
	b, _ = line(t, Defaults(), "4k3/8/8/3q4/8/8/3R4/4K3 w - - 0 1", "d2d5")
	if b.Base < 500 {
		t.Errorf("winning the queen: base %g", b.Base)
	}
}

func TestUndevelopmentUsesNetDevelopment(t *testing.T) {
	// Ne5xc4: the knight's own control in Black's half shrinks (c6/g6/d7/f7
	// to a5/e5/b6/d6) but Black's knight and its control of White's half
	// vanish, so the net development rises and nothing is charged.
	const fen = "4k3/8/8/4N3/2n5/8/8/4K3 w - - 0 1"
	f := measureFEN(t, Defaults(), fen)
	_, s := line(t, Defaults(), fen, "e5c4")
	if r := s.path[0]; f[white].development <= 0 || r.devAfter <= r.devBefore {
		t.Fatalf("net development should rise: %g -> %g", r.devBefore, r.devAfter)
	}
	b, _ := line(t, Defaults(), fen, "e5c4")
	if b.Undevelopment != 0 {
		t.Errorf("capture that raises net development charged %g", b.Undevelopment)
	}
}
