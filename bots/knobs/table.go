package knobs

import (
	"fmt"
	"reflect"
)

// Groups of knobs. The first five are the specification's UI sections; the
// last three hold the mixing totals, the search settings and the manual
// testing switches.
const (
	GroupOpponent    = "Opponent Model"
	GroupGeometry    = "Board Geometry Rewards"
	GroupDevelopment = "Development"
	GroupKingMate    = "King and Mate Values"
	GroupRisk        = "Risk Model"
	GroupTotals      = "Totals"
	GroupSearch      = "Search"
	GroupTesting     = "Testing"
)

// KnobType is the value type of a knob.
type KnobType string

// The knob value types.
const (
	TypeInt   KnobType = "int"
	TypeFloat KnobType = "float"
	TypeBool  KnobType = "bool"
	TypeEnum  KnobType = "enum"
)

// KnobInfo describes one knob for editors, documentation and validation.
type KnobInfo struct {
	Key     string   `json:"key"`               // TOML key (snake_case)
	Group   string   `json:"group"`             // UI section
	Help    string   `json:"help"`              // one-line tooltip
	Type    KnobType `json:"type"`              // value type
	Default any      `json:"default"`           // int, float64, bool or string, per Type
	Min     float64  `json:"min"`               // inclusive lower bound (int and float knobs)
	Max     float64  `json:"max"`               // inclusive upper bound (int and float knobs)
	Choices []string `json:"choices,omitempty"` // allowed values (enum knobs)
	// ZeroDisables marks caps: 0 means "no cap".
	ZeroDisables bool `json:"zero_disables,omitempty"`
}

// knobSpec is the hand-written part of a knob's metadata; the type and
// default are read from Config and Defaults.
type knobSpec struct {
	key, group, help string
	min, max         float64
	choices          []string
	zeroDisables     bool
}

func num(key, group string, min, max float64, help string) knobSpec {
	return knobSpec{key: key, group: group, help: help, min: min, max: max}
}

func capKnob(key, group, help string) knobSpec {
	return knobSpec{key: key, group: group, help: help, min: 0, max: 100000, zeroDisables: true}
}

func flag(key, group, help string) knobSpec {
	return knobSpec{key: key, group: group, help: help}
}

func enum(key, group, help string, choices ...string) knobSpec {
	return knobSpec{key: key, group: group, help: help, choices: choices}
}

// knobSpecs lists every knob in display order.
var knobSpecs = []knobSpec{
	num("opponent_ply_depth", GroupOpponent, 0, 12, "Estimated opponent search depth D in ply equivalents; lines deeper than D are discounted by the risk function."),
	num("trade_ply_depth_equivalent", GroupOpponent, 0, 1, "Ply equivalents a trade ply counts for (a capture answered by an equal-value recapture within 2 plies)."),
	num("trade_value_tolerance", GroupOpponent, 0, 300, "Largest difference in centipawns between a capture and a recapture that still counts as an equal-value trade."),

	enum("ply_depth_risk_type", GroupRisk, "Shape of risk(d): exponential exp(-ln(k)·max(0,d/D-1)) or logistic 1/(1+e^{s(d/(mD)-1)}).", RiskExponential, RiskLogistic),
	num("ply_depth_risk_k_at_2x", GroupRisk, 10, 1000, "Exponential risk: risk at twice the opponent depth is 1/k."),
	num("ply_depth_risk_slope", GroupRisk, 1, 10, "Logistic risk: slope s; larger is a sharper transition."),
	num("ply_depth_risk_midpoint_multiplier", GroupRisk, 1, 2, "Logistic risk: midpoint multiplier m; risk(m·D) = 0.5."),
	num("risk_pow", GroupRisk, 0.1, 10, "Exponent applied to risk before use."),
	num("gain_scale", GroupRisk, 0, 5, "Multiplier on the potential gain (the line's realised material edge)."),
	num("loss_scale", GroupRisk, 0, 5, "Multiplier on the potential loss (the opponent's best static capture at the line's end)."),
	num("blend_alpha", GroupRisk, 0, 1, "Weight of the loss term: bonus = gain·(1-risk) - alpha·loss·risk; 1 is pure gain - loss, 0 ignores losses."),
	num("risk_offset", GroupRisk, -1000, 1000, "Centipawns added to the risk bonus."),
	capKnob("risk_cap", GroupRisk, "Clamp on the absolute risk bonus; 0 disables."),
	num("weight_risk", GroupRisk, 0, 5, "Mix weight of the risk bonus in the line score."),

	num("center_piece_placement_reward", GroupGeometry, 0, 200, "Reward per net engine piece placed on d4, e4, d5, e5 at the end of the line versus its start."),
	num("center_piece_weight_pawn", GroupGeometry, 0, 5, "Centre placement weight of a pawn."),
	num("center_piece_weight_knight", GroupGeometry, 0, 5, "Centre placement weight of a knight."),
	num("center_piece_weight_bishop", GroupGeometry, 0, 5, "Centre placement weight of a bishop."),
	num("center_piece_weight_rook", GroupGeometry, 0, 5, "Centre placement weight of a rook."),
	num("center_piece_weight_queen", GroupGeometry, 0, 5, "Centre placement weight of a queen."),
	num("center_piece_weight_king", GroupGeometry, 0, 5, "Centre placement weight of the king, further multiplied by endgamishness."),
	num("center_opponent_weight", GroupGeometry, 0, 2, "Weight of the opponent's centre placement delta subtracted from ours (0 = engine only, as specified)."),
	num("center_placement_offset", GroupGeometry, -1000, 1000, "Centipawns added to the centre placement reward."),
	capKnob("center_placement_cap", GroupGeometry, "Clamp on the absolute centre placement reward; 0 disables."),
	num("weight_center", GroupGeometry, 0, 5, "Mix weight of the centre placement reward."),
	num("end_game_king_center_magnet", GroupGeometry, 0, 100, "Reward per square the engine king ends closer to the centre (Manhattan), times endgamishness."),
	num("endgamishness_pow", GroupGeometry, 0.1, 10, "Exponent on endgamishness in the king centring reward."),
	num("king_center_improvement_pow", GroupGeometry, 0.1, 10, "Exponent on the king's improvement in squares."),
	num("king_center_offset", GroupGeometry, -1000, 1000, "Centipawns added to the king centring reward."),
	capKnob("king_center_cap", GroupGeometry, "Clamp on the absolute king centring reward; 0 disables."),
	num("weight_king_center", GroupGeometry, 0, 5, "Mix weight of the king centring reward."),
	num("endgame_weight_minor", GroupGeometry, 0, 20, "Endgamishness strength S: weight of each opponent knight or bishop."),
	num("endgame_weight_rook", GroupGeometry, 0, 20, "Endgamishness strength S: weight of each opponent rook."),
	num("endgame_weight_queen", GroupGeometry, 0, 30, "Endgamishness strength S: weight of each opponent queen."),
	num("endgame_midgame_strength", GroupGeometry, 1, 200, "T: strength at or above which endgamishness is 0 (linear form)."),
	num("endgame_few_pieces_strength", GroupGeometry, 0, 199, "L: strength at or below which endgamishness is 1 (linear form); must be below T."),
	num("endgamishness_min", GroupGeometry, 0, 1, "Lower clamp of endgamishness."),
	num("endgamishness_max", GroupGeometry, 0, 1, "Upper clamp of endgamishness; must be at least the lower clamp."),
	enum("endgamishness_form", GroupGeometry, "Endgamishness mapping: linear clamp((T-S)/(T-L)) or logistic 1/(1+e^{slope(S-midpoint)}).", FormLinear, FormLogistic),
	num("endgamishness_logistic_slope", GroupGeometry, 0.01, 5, "Logistic endgamishness: slope per strength point."),
	num("endgamishness_logistic_midpoint", GroupGeometry, 0, 200, "Logistic endgamishness: strength where endgamishness is 0.5."),

	num("rank_attack_factor", GroupDevelopment, 1, 1.5, "Base of the per-rank multiplier rankAttackFactor^r for control r ranks into the opponent's half."),
	num("development_incentive", GroupDevelopment, 0, 50, "Base reward per controlled square in the opponent's half, times the pawn-normalised value of its strongest controller."),
	flag("not_just_empty_squares_threat_reward", GroupDevelopment, "Count attacked squares occupied by opponent pieces too, and enable the defence-delta term."),
	num("development_opponent_weight", GroupDevelopment, 0, 2, "Weight of the opponent's development subtracted from ours."),
	num("development_gamma", GroupDevelopment, 0.1, 10, "Exponent on rankAttackFactor^r."),
	num("development_offset", GroupDevelopment, -1000, 1000, "Centipawns added to the development reward."),
	capKnob("development_cap", GroupDevelopment, "Clamp on the absolute development reward; 0 disables."),
	num("weight_development", GroupDevelopment, 0, 5, "Mix weight of the development reward."),
	flag("queen_phase_hump", GroupDevelopment, "Scale the queen's development by the midgame hump 4e(1-e); off scales it by 1."),
	num("undevelopment_weight", GroupDevelopment, 0, 5, "Weight of the per-move undevelopment penalty (ours) and reward (opponent's)."),
	num("defense_delta_weight", GroupDevelopment, 0, 1, "Multiplier on the change of defended material (ours minus the opponent's); needs not_just_empty_squares_threat_reward."),
	num("base_development_weight", GroupDevelopment, 0, 5, "Weight of the absolute net development at the line's end in the base evaluation (shows a standing development lead)."),
	num("piece_value_pawn", GroupDevelopment, 50, 200, "Pawn value in centipawns (material and the development normaliser)."),
	num("piece_value_knight", GroupDevelopment, 100, 600, "Knight value in centipawns."),
	num("piece_value_bishop", GroupDevelopment, 100, 600, "Bishop value in centipawns."),
	num("piece_value_rook", GroupDevelopment, 200, 1000, "Rook value in centipawns."),
	num("piece_value_queen", GroupDevelopment, 400, 2000, "Queen value in centipawns."),
	num("piece_value_king", GroupDevelopment, 0, 2000, "King value used only as a development controller (typically 0)."),

	num("castle_king_side_reward", GroupKingMate, 0, 200, "Reward for castling king-side in the line; also the penalty for losing that right by a rook's first move."),
	num("castle_queen_side_reward", GroupKingMate, 0, 200, "Reward for castling queen-side in the line; also the penalty for losing that right by a rook's first move."),
	num("king_non_castle_move_penalty", GroupKingMate, 0, 300, "Penalty when the engine king makes a non-castling move in the line (inverted for the opponent)."),
	flag("king_move_penalty_needs_castling_right", GroupKingMate, "Apply the king move penalty only when the king still had a castling right (off: on every king move)."),
	num("weight_castling", GroupKingMate, 0, 5, "Mix weight of the castling and king movement term."),
	num("king_engine_value", GroupKingMate, 1000, 20000, "Value subtracted when the engine is mated in the line."),
	num("king_opponent_value", GroupKingMate, 1000, 20000, "Value added when the engine mates in the line."),
	flag("mate_distance_scaling", GroupKingMate, "Scale mate values by 1/(plies to mate + 1)."),
	num("mate_ply_penalty", GroupKingMate, 0, 100, "Centipawns per ply that make quicker mates (and slower defeats) preferred."),

	num("weight_base", GroupTotals, 0, 5, "Mix weight of the base evaluation (material plus absolute net development)."),
	num("total_offset", GroupTotals, -1000, 1000, "Centipawns added to the line score."),
	capKnob("total_cap", GroupTotals, "Clamp on the absolute line score; 0 disables."),

	enum("search_mode", GroupSearch, "line: line search to search_depth with extensions; greedy: 1 ply plus the always-on extensions.", ModeLine, ModeGreedy),
	num("search_depth", GroupSearch, 1, 8, "Nominal depth in plies of the line search (Limits.Depth overrides)."),
	num("max_extension_plies", GroupSearch, 0, 32, "Most plies the check, material-swing and trade extensions may add beyond the nominal depth."),

	flag("force_knight_center_loop", GroupTesting, "Manual test: play a knight out towards the centre and back while reporting the best line's score."),
	flag("debug", GroupTesting, "Print every candidate line's score broken down by component, white-centric."),
}

// knobField maps a key to its Config field index; built once at init and
// read-only afterwards.
var knobField = func() map[string]int {
	t := reflect.TypeOf(Config{})
	m := make(map[string]int, t.NumField())
	for i := 0; i < t.NumField(); i++ {
		m[t.Field(i).Tag.Get("toml")] = i
	}
	return m
}()

// knobTable is the full metadata, built once at init.
var knobTable = func() []KnobInfo {
	def := reflect.ValueOf(Defaults())
	out := make([]KnobInfo, 0, len(knobSpecs))
	for _, s := range knobSpecs {
		idx, ok := knobField[s.key]
		if !ok {
			panic(fmt.Sprintf("knobs: table key %q has no Config field", s.key))
		}
		v := def.Field(idx)
		info := KnobInfo{Key: s.key, Group: s.group, Help: s.help, Min: s.min, Max: s.max,
			Choices: s.choices, ZeroDisables: s.zeroDisables}
		switch v.Kind() {
		case reflect.Int:
			info.Type, info.Default = TypeInt, int(v.Int())
		case reflect.Float64:
			info.Type, info.Default = TypeFloat, v.Float()
		case reflect.Bool:
			info.Type, info.Default = TypeBool, v.Bool()
		case reflect.String:
			info.Type, info.Default = TypeEnum, v.String()
		}
		out = append(out, info)
	}
	return out
}()

var knobIndex = func() map[string]int {
	m := make(map[string]int, len(knobTable))
	for i, k := range knobTable {
		m[k.Key] = i
	}
	return m
}()

// Knobs returns the metadata of every knob in display order: key, group,
// help text, type, default and range. Editors and config.example.toml
// generation read it.
func Knobs() []KnobInfo {
	out := make([]KnobInfo, len(knobTable))
	copy(out, knobTable)
	for i := range out {
		out[i].Choices = append([]string(nil), out[i].Choices...)
	}
	return out
}

// Lookup returns the metadata of one knob.
func Lookup(key string) (KnobInfo, bool) {
	i, ok := knobIndex[key]
	if !ok {
		return KnobInfo{}, false
	}
	return Knobs()[i], true
}

// Get returns the value of the knob key in c (int, float64, bool or string).
func (c Config) Get(key string) (any, bool) {
	idx, ok := knobField[key]
	if !ok {
		return nil, false
	}
	return reflect.ValueOf(c).Field(idx).Interface(), true
}
