// Package knobs implements the eval-knob engine of the evaluation knobs
// specification: a shallow line search (or a greedy 1-ply mode) whose line
// score is a sum of tunable components — material, centre placement, king
// centring scaled by endgamishness, piece-weighted development with the rank
// attack factor and the queen's midgame hump, undevelopment, defence delta,
// castling rewards and penalties with opponent inversion, mate values and a
// risk bonus that discounts lines beyond the estimated opponent depth. Every
// operation of the score has a knob; Knobs lists them with their groups,
// defaults and ranges.
//
// Interpretations of the specification (each has a knob where it is a
// choice): the base evaluation is material plus the absolute net development
// at the line's end (base_development_weight), so that a standing
// development lead shows in every line score; the potential gain of the risk
// model is the line's realised material gain and the potential loss the
// opponent's best static capture when the line ends with the opponent to
// move; blend_alpha weights the loss term (1 = pure gain - loss, as in the
// "calculated gamble" rule); the king-move penalty applies only while the
// king still has a castling right (king_move_penalty_needs_castling_right);
// undevelopment compares the mover's net development before and after each
// of its plies. Beyond the nominal depth the material-swing extension lets
// the replying side recapture (captures and promotions) or decline (stand
// pat), which also completes trades; check extensions search every evasion
// and then let the checking side continue with checks. Extensions are
// bounded by max_extension_plies. The search has no randomness: equal
// scores keep move-generation order, so results are reproducible.
package knobs

// Choices of the enumerated knobs.
const (
	RiskExponential = "exponential" // risk(d) = exp(-ln(k)·x)
	RiskLogistic    = "logistic"    // risk(d) = 1/(1+e^{s(d/(mD)-1)})

	FormLinear   = "linear"   // endgamishness as a clamped linear remap
	FormLogistic = "logistic" // endgamishness as a logistic curve

	ModeLine   = "line"   // line search with extensions
	ModeGreedy = "greedy" // greedy 1-ply (plus the always-on extensions)
)

// Config holds every knob of the eval-knob engine. Caps of 0 are disabled.
// Scores are centipawns. The zero Config is not valid; start from Defaults.
type Config struct {
	// Opponent Model.
	OpponentPlyDepth        int     `toml:"opponent_ply_depth"`
	TradePlyDepthEquivalent float64 `toml:"trade_ply_depth_equivalent"`
	TradeValueTolerance     float64 `toml:"trade_value_tolerance"`

	// Risk Model.
	RiskType               string  `toml:"ply_depth_risk_type"`
	RiskKAt2x              float64 `toml:"ply_depth_risk_k_at_2x"`
	RiskSlope              float64 `toml:"ply_depth_risk_slope"`
	RiskMidpointMultiplier float64 `toml:"ply_depth_risk_midpoint_multiplier"`
	RiskPow                float64 `toml:"risk_pow"`
	GainScale              float64 `toml:"gain_scale"`
	LossScale              float64 `toml:"loss_scale"`
	BlendAlpha             float64 `toml:"blend_alpha"`
	RiskOffset             float64 `toml:"risk_offset"`
	RiskCap                float64 `toml:"risk_cap"`
	WeightRisk             float64 `toml:"weight_risk"`

	// Board Geometry Rewards: centre placement.
	CenterPiecePlacementReward float64 `toml:"center_piece_placement_reward"`
	CenterPieceWeightPawn      float64 `toml:"center_piece_weight_pawn"`
	CenterPieceWeightKnight    float64 `toml:"center_piece_weight_knight"`
	CenterPieceWeightBishop    float64 `toml:"center_piece_weight_bishop"`
	CenterPieceWeightRook      float64 `toml:"center_piece_weight_rook"`
	CenterPieceWeightQueen     float64 `toml:"center_piece_weight_queen"`
	CenterPieceWeightKing      float64 `toml:"center_piece_weight_king"`
	CenterOpponentWeight       float64 `toml:"center_opponent_weight"`
	CenterPlacementOffset      float64 `toml:"center_placement_offset"`
	CenterPlacementCap         float64 `toml:"center_placement_cap"`
	WeightCenter               float64 `toml:"weight_center"`

	// Board Geometry Rewards: king centring and endgamishness.
	EndGameKingCenterMagnet       float64 `toml:"end_game_king_center_magnet"`
	EndgamishnessPow              float64 `toml:"endgamishness_pow"`
	KingCenterImprovementPow      float64 `toml:"king_center_improvement_pow"`
	KingCenterOffset              float64 `toml:"king_center_offset"`
	KingCenterCap                 float64 `toml:"king_center_cap"`
	WeightKingCenter              float64 `toml:"weight_king_center"`
	EndgameWeightMinor            float64 `toml:"endgame_weight_minor"`
	EndgameWeightRook             float64 `toml:"endgame_weight_rook"`
	EndgameWeightQueen            float64 `toml:"endgame_weight_queen"`
	EndgameMidgameStrength        float64 `toml:"endgame_midgame_strength"`
	EndgameFewPiecesStrength      float64 `toml:"endgame_few_pieces_strength"`
	EndgamishnessMin              float64 `toml:"endgamishness_min"`
	EndgamishnessMax              float64 `toml:"endgamishness_max"`
	EndgamishnessForm             string  `toml:"endgamishness_form"`
	EndgamishnessLogisticSlope    float64 `toml:"endgamishness_logistic_slope"`
	EndgamishnessLogisticMidpoint float64 `toml:"endgamishness_logistic_midpoint"`

	// Development.
	RankAttackFactor                float64 `toml:"rank_attack_factor"`
	DevelopmentIncentive            float64 `toml:"development_incentive"`
	NotJustEmptySquaresThreatReward bool    `toml:"not_just_empty_squares_threat_reward"`
	DevelopmentOpponentWeight       float64 `toml:"development_opponent_weight"`
	DevelopmentGamma                float64 `toml:"development_gamma"`
	DevelopmentOffset               float64 `toml:"development_offset"`
	DevelopmentCap                  float64 `toml:"development_cap"`
	WeightDevelopment               float64 `toml:"weight_development"`
	QueenPhaseHump                  bool    `toml:"queen_phase_hump"`
	UndevelopmentWeight             float64 `toml:"undevelopment_weight"`
	DefenseDeltaWeight              float64 `toml:"defense_delta_weight"`
	BaseDevelopmentWeight           float64 `toml:"base_development_weight"`
	PieceValuePawn                  float64 `toml:"piece_value_pawn"`
	PieceValueKnight                float64 `toml:"piece_value_knight"`
	PieceValueBishop                float64 `toml:"piece_value_bishop"`
	PieceValueRook                  float64 `toml:"piece_value_rook"`
	PieceValueQueen                 float64 `toml:"piece_value_queen"`
	PieceValueKing                  float64 `toml:"piece_value_king"`

	// King and Mate Values.
	CastleKingSideReward              float64 `toml:"castle_king_side_reward"`
	CastleQueenSideReward             float64 `toml:"castle_queen_side_reward"`
	KingNonCastleMovePenalty          float64 `toml:"king_non_castle_move_penalty"`
	KingMovePenaltyNeedsCastlingRight bool    `toml:"king_move_penalty_needs_castling_right"`
	WeightCastling                    float64 `toml:"weight_castling"`
	KingEngineValue                   float64 `toml:"king_engine_value"`
	KingOpponentValue                 float64 `toml:"king_opponent_value"`
	MateDistanceScaling               bool    `toml:"mate_distance_scaling"`
	MatePlyPenalty                    float64 `toml:"mate_ply_penalty"`

	// Totals.
	WeightBase  float64 `toml:"weight_base"`
	TotalOffset float64 `toml:"total_offset"`
	TotalCap    float64 `toml:"total_cap"`

	// Search.
	SearchMode        string `toml:"search_mode"`
	SearchDepth       int    `toml:"search_depth"`
	MaxExtensionPlies int    `toml:"max_extension_plies"`

	// Testing.
	ForceKnightCenterLoop bool `toml:"force_knight_center_loop"`
	Debug                 bool `toml:"debug"`
}

// Defaults returns the specification's defaults; every atomic knob is
// neutral (scales 1, offsets 0, caps disabled, exponents 1).
// Long: one literal holding every knob's default, read as a table.
func Defaults() Config {
	return Config{
		OpponentPlyDepth:        4,
		TradePlyDepthEquivalent: 0.5,
		TradeValueTolerance:     0,

		RiskType:               RiskExponential,
		RiskKAt2x:              100,
		RiskSlope:              5,
		RiskMidpointMultiplier: 1.0,
		RiskPow:                1,
		GainScale:              1,
		LossScale:              1,
		BlendAlpha:             1,
		RiskOffset:             0,
		RiskCap:                0,
		WeightRisk:             1,

		CenterPiecePlacementReward: 50,
		CenterPieceWeightPawn:      1,
		CenterPieceWeightKnight:    1,
		CenterPieceWeightBishop:    1,
		CenterPieceWeightRook:      1,
		CenterPieceWeightQueen:     1,
		CenterPieceWeightKing:      1,
		CenterOpponentWeight:       0,
		CenterPlacementOffset:      0,
		CenterPlacementCap:         0,
		WeightCenter:               1,

		EndGameKingCenterMagnet:       15,
		EndgamishnessPow:              1,
		KingCenterImprovementPow:      1,
		KingCenterOffset:              0,
		KingCenterCap:                 0,
		WeightKingCenter:              1,
		EndgameWeightMinor:            3,
		EndgameWeightRook:             5,
		EndgameWeightQueen:            9,
		EndgameMidgameStrength:        31,
		EndgameFewPiecesStrength:      6,
		EndgamishnessMin:              0,
		EndgamishnessMax:              1,
		EndgamishnessForm:             FormLinear,
		EndgamishnessLogisticSlope:    0.3,
		EndgamishnessLogisticMidpoint: 18.5,

		RankAttackFactor:                1.1,
		DevelopmentIncentive:            10,
		NotJustEmptySquaresThreatReward: true,
		DevelopmentOpponentWeight:       1.0,
		DevelopmentGamma:                1,
		DevelopmentOffset:               0,
		DevelopmentCap:                  0,
		WeightDevelopment:               1,
		QueenPhaseHump:                  true,
		UndevelopmentWeight:             1,
		DefenseDeltaWeight:              0.1,
		BaseDevelopmentWeight:           1,
		PieceValuePawn:                  100,
		PieceValueKnight:                300,
		PieceValueBishop:                300,
		PieceValueRook:                  500,
		PieceValueQueen:                 900,
		PieceValueKing:                  0,

		CastleKingSideReward:              60,
		CastleQueenSideReward:             50,
		KingNonCastleMovePenalty:          110,
		KingMovePenaltyNeedsCastlingRight: true,
		WeightCastling:                    1,
		KingEngineValue:                   7000,
		KingOpponentValue:                 5000,
		MateDistanceScaling:               false,
		MatePlyPenalty:                    1,

		WeightBase:  1,
		TotalOffset: 0,
		TotalCap:    0,

		SearchMode:        ModeLine,
		SearchDepth:       3,
		MaxExtensionPlies: 6,

		ForceKnightCenterLoop: false,
		Debug:                 false,
	}
}
