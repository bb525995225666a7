package search

// Weights holds every tunable number of the tapered evaluation (centipawns;
// Mg = midgame, Eg = endgame; arrays by piece type pawn … king, by square
// from White's side, or by relative rank). Evaluate reads one of two
// compiled-in sets: ruleWeights (the hand-written rules of eval.go and
// pst.go, medium's evaluation uses its material, tables and mobility) and
// hardWeights (hard's EvalFull/EvalPlus). TuneTexel fits a Weights.
type Weights struct {
	ValueMg, ValueEg       [6]int
	PstMg, PstEg           [6][64]int
	MobilityMg, MobilityEg [6]int
	TempoMg                int
	BishopPairMg           int
	BishopPairEg           int
	RookOpenMg, RookOpenEg int
	RookHalfMg, RookHalfEg int
	DoubledMg, DoubledEg   int
	IsolatedMg, IsolatedEg int
	PassedMg, PassedEg     [8]int
	PassedFree             [8]int
	ShieldNear, ShieldFar  int
	ShieldOpenFile         int
	AttackerWeight         [6]int
	KingAttackScale        int
	ThreatByPawnMg         [6]int
	ThreatByPawnEg         [6]int
	ThreatByLesserMg       [6]int
	ThreatByLesserEg       [6]int
	OutpostKnightMg        int
	OutpostKnightEg        int
	OutpostBishopMg        int
	OutpostBishopEg        int
	PasserKingFar          int
	PasserKingNear         int
}

// ruleWeights are the hand-written rules (eval.go, pst.go), set once by
// init and read-only afterwards.
var ruleWeights Weights

// hardWeights is hard's evaluation (EvalFull, EvalPlus), read-only: the
// Texel-tuned tunedWeights (weights_tuned.go), fitted from ruleWeights, so
// the rules in eval.go and pst.go explain its starting point, not its
// final numbers.
var hardWeights Weights

// RuleWeights returns a copy of the hand-written weights (the tuner's
// starting point).
func RuleWeights() Weights { return ruleWeights }

// HardWeights returns a copy of hard's weights.
func HardWeights() Weights { return hardWeights }

func init() {
	ruleWeights = Weights{
		ValueMg: valueMg, ValueEg: valueEg,
		PstMg: pstMg, PstEg: pstEg,
		MobilityMg: mobilityMg, MobilityEg: mobilityEg,
		TempoMg:      tempoMg,
		BishopPairMg: bishopPairMg, BishopPairEg: bishopPairEg,
		RookOpenMg: rookOpenMg, RookOpenEg: rookOpenEg,
		RookHalfMg: rookHalfMg, RookHalfEg: rookHalfEg,
		DoubledMg: doubledMg, DoubledEg: doubledEg,
		IsolatedMg: isolatedMg, IsolatedEg: isolatedEg,
		PassedMg: passedMg, PassedEg: passedEg, PassedFree: passedFree,
		ShieldNear: shieldNear, ShieldFar: shieldFar, ShieldOpenFile: shieldOpenFile,
		AttackerWeight: attackerWeight, KingAttackScale: kingAttackScale,
		ThreatByPawnMg: threatByPawnMg, ThreatByPawnEg: threatByPawnEg,
		ThreatByLesserMg: threatByLesserMg, ThreatByLesserEg: threatByLesserEg,
		OutpostKnightMg: outpostKnightMg, OutpostKnightEg: outpostKnightEg,
		OutpostBishopMg: outpostBishopMg, OutpostBishopEg: outpostBishopEg,
		PasserKingFar: passerKingFar, PasserKingNear: passerKingNear,
	}
	hardWeights = tunedWeights
}
