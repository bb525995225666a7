package knobs

import (
	"math"
	"reflect"
	"strings"
	"testing"

	"github.com/BurntSushi/toml"
)

func TestDefaultsValidate(t *testing.T) {
	if err := Defaults().Validate(); err != nil {
		t.Fatalf("defaults do not validate: %v", err)
	}
}

func TestKnobTableCoversConfig(t *testing.T) {
	typ := reflect.TypeOf(Config{})
	if got, want := len(Knobs()), typ.NumField(); got != want {
		t.Fatalf("Knobs() lists %d knobs, Config has %d fields", got, want)
	}
	groups := map[string]bool{GroupOpponent: true, GroupGeometry: true, GroupDevelopment: true, GroupKingMate: true,
		GroupRisk: true, GroupTotals: true, GroupSearch: true, GroupTesting: true}
	def := Defaults()
	for _, k := range Knobs() {
		v, ok := def.Get(k.Key)
		if !ok {
			t.Errorf("%s: no Config field", k.Key)
			continue
		}
		if v != k.Default {
			t.Errorf("%s: table default %v, Defaults() %v", k.Key, k.Default, v)
		}
		if !groups[k.Group] || k.Help == "" {
			t.Errorf("%s: group %q help %q", k.Key, k.Group, k.Help)
		}
		if k.Type == TypeInt || k.Type == TypeFloat {
			d := toFloat(k.Default)
			if k.Min > k.Max || d < k.Min || d > k.Max {
				t.Errorf("%s: default %v outside [%g, %g]", k.Key, k.Default, k.Min, k.Max)
			}
		}
		if k.Type == TypeEnum && !contains(k.Choices, k.Default.(string)) {
			t.Errorf("%s: default %v not in %v", k.Key, k.Default, k.Choices)
		}
	}
}

func toFloat(v any) float64 {
	switch x := v.(type) {
	case int:
		return float64(x)
	case float64:
		return x
	}
	return math.NaN()
}

// TestSpecDefaults pins the specification's published defaults and ranges.
func TestSpecDefaults(t *testing.T) {
	tests := []struct {
		key      string
		def      any
		min, max float64
	}{
		{"opponent_ply_depth", 4, 0, 12},
		{"trade_ply_depth_equivalent", 0.5, 0, 1},
		{"ply_depth_risk_k_at_2x", 100.0, 10, 1000},
		{"ply_depth_risk_slope", 5.0, 1, 10},
		{"ply_depth_risk_midpoint_multiplier", 1.0, 1, 2},
		{"center_piece_placement_reward", 50.0, 0, 200},
		{"end_game_king_center_magnet", 15.0, 0, 100},
		{"rank_attack_factor", 1.1, 1, 1.5},
		{"development_incentive", 10.0, 0, 50},
		{"castle_king_side_reward", 60.0, 0, 200},
		{"castle_queen_side_reward", 50.0, 0, 200},
		{"king_non_castle_move_penalty", 110.0, 0, 300},
		{"development_opponent_weight", 1.0, 0, 2},
		{"king_engine_value", 7000.0, 1000, 20000},
		{"king_opponent_value", 5000.0, 1000, 20000},
	}
	for _, tt := range tests {
		k, ok := Lookup(tt.key)
		if !ok {
			t.Fatalf("%s missing", tt.key)
		}
		if k.Default != tt.def || k.Min != tt.min || k.Max != tt.max {
			t.Errorf("%s: got default %v range [%g, %g], want %v [%g, %g]", tt.key, k.Default, k.Min, k.Max, tt.def, tt.min, tt.max)
		}
	}
	d := Defaults()
	if d.RiskType != RiskExponential || !d.NotJustEmptySquaresThreatReward || d.ForceKnightCenterLoop {
		t.Errorf("toggle defaults wrong: %+v", d)
	}
}

// TestValidateEachRange pushes every numeric knob just outside each end of
// its range and every enum to a bad choice.
func TestValidateEachRange(t *testing.T) {
	for _, k := range Knobs() {
		var bad []any
		switch k.Type {
		case TypeInt:
			bad = []any{int64(k.Min) - 1, int64(k.Max) + 1}
		case TypeFloat:
			span := k.Max - k.Min
			bad = []any{k.Min - span/100 - 0.001, k.Max + span/100 + 0.001, math.NaN()}
		case TypeEnum:
			bad = []any{"bogus"}
		default:
			continue
		}
		for _, v := range bad {
			c := Defaults()
			if err := c.setValue(k.Key, v); err != nil {
				t.Fatalf("%s: set %v: %v", k.Key, v, err)
			}
			err := c.Validate()
			if err == nil {
				t.Errorf("%s = %v: no error", k.Key, v)
				continue
			}
			msg := err.Error()
			if !strings.Contains(msg, k.Key) {
				t.Errorf("%s = %v: error %q does not name the key", k.Key, v, msg)
			}
			if k.Type == TypeEnum {
				if !strings.Contains(msg, "bogus") || !strings.Contains(msg, k.Choices[0]) {
					t.Errorf("%s: error %q lacks value or choices", k.Key, msg)
				}
			} else if !strings.Contains(msg, "out of range") || !strings.Contains(msg, "[") {
				t.Errorf("%s: error %q lacks the range", k.Key, msg)
			}
		}
		// Both ends are accepted.
		if k.Type == TypeFloat {
			for _, v := range []float64{k.Min, k.Max} {
				c := Defaults()
				_ = c.setValue(k.Key, v)
				if k.Key == "endgame_few_pieces_strength" || k.Key == "endgame_midgame_strength" ||
					k.Key == "endgamishness_min" || k.Key == "endgamishness_max" {
					continue // cross-knob constraints, tested below
				}
				if err := c.Validate(); err != nil {
					t.Errorf("%s = %g: unexpected %v", k.Key, v, err)
				}
			}
		}
	}
}

func TestValidateCrossKnob(t *testing.T) {
	c := Defaults()
	c.EndgameFewPiecesStrength = 31
	if err := c.Validate(); err == nil || !strings.Contains(err.Error(), "endgame_few_pieces_strength = 31") {
		t.Errorf("T <= L: got %v", err)
	}
	c = Defaults()
	c.EndgamishnessMin, c.EndgamishnessMax = 0.8, 0.2
	if err := c.Validate(); err == nil || !strings.Contains(err.Error(), "endgamishness_min") {
		t.Errorf("min > max: got %v", err)
	}
	c = Defaults()
	c.OpponentPlyDepth, c.RankAttackFactor = 13, 2
	err := c.Validate()
	if err == nil || !strings.Contains(err.Error(), "opponent_ply_depth = 13 is out of range [0, 12]") ||
		!strings.Contains(err.Error(), "rank_attack_factor = 2 is out of range [1, 1.5]") {
		t.Errorf("both errors expected, got %v", err)
	}
}

func TestFromMap(t *testing.T) {
	tests := []struct {
		name    string
		in      map[string]any
		wantErr string
		check   func(Config) bool
	}{
		{"empty is defaults", map[string]any{}, "", func(c Config) bool { return c == Defaults() }},
		{"int for int", map[string]any{"opponent_ply_depth": int64(6)}, "", func(c Config) bool { return c.OpponentPlyDepth == 6 }},
		{"int for float", map[string]any{"rank_attack_factor": int64(1)}, "", func(c Config) bool { return c.RankAttackFactor == 1 }},
		{"float", map[string]any{"trade_ply_depth_equivalent": 0.25}, "", func(c Config) bool { return c.TradePlyDepthEquivalent == 0.25 }},
		{"bool", map[string]any{"force_knight_center_loop": true}, "", func(c Config) bool { return c.ForceKnightCenterLoop }},
		{"enum", map[string]any{"ply_depth_risk_type": "logistic"}, "", func(c Config) bool { return c.RiskType == RiskLogistic }},
		{"unknown key", map[string]any{"opponentPlyDepth": int64(3)}, `unknown key "opponentPlyDepth"`, nil},
		{"string for float", map[string]any{"gain_scale": "1.0"}, "gain_scale: wrong type string", nil},
		{"float for int", map[string]any{"search_depth": 2.5}, "search_depth: wrong type float64", nil},
		{"int for bool", map[string]any{"debug": int64(1)}, "debug: wrong type int64", nil},
		{"bool for enum", map[string]any{"search_mode": true}, "search_mode: wrong type bool", nil},
		{"out of range", map[string]any{"king_engine_value": int64(999)}, "king_engine_value = 999 is out of range [1000, 20000]", nil},
		{"huge int", map[string]any{"search_depth": int64(1) << 40}, "search_depth", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, err := FromMap(tt.in)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("error %v, want %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if !tt.check(c) {
				t.Errorf("unexpected config %+v", c)
			}
		})
	}
}

func TestFromTOML(t *testing.T) {
	const doc = `
opponent_ply_depth = 6
rank_attack_factor = 1.2
ply_depth_risk_type = "logistic"
not_just_empty_squares_threat_reward = false
king_engine_value = 9000
`
	var m map[string]any
	if _, err := toml.Decode(doc, &m); err != nil {
		t.Fatal(err)
	}
	c, err := FromMap(m)
	if err != nil {
		t.Fatal(err)
	}
	if c.OpponentPlyDepth != 6 || c.RankAttackFactor != 1.2 || c.RiskType != RiskLogistic ||
		c.NotJustEmptySquaresThreatReward || c.KingEngineValue != 9000 {
		t.Errorf("decoded %+v", c)
	}
	// Decoding straight into the struct uses the same keys.
	var direct Config = Defaults()
	if _, err := toml.Decode(doc, &direct); err != nil {
		t.Fatal(err)
	}
	if direct != c {
		t.Errorf("struct decode %+v differs from FromMap %+v", direct, c)
	}
}

func TestNormalizeKey(t *testing.T) {
	tests := map[string]string{
		"opponentPlyDepth":                "opponent_ply_depth",
		"tradePlyDepthEquivalent":         "trade_ply_depth_equivalent",
		"notJustEmptySquaresThreatReward": "not_just_empty_squares_threat_reward",
		"plyDepthRisk.kAt2x":              "ply_depth_risk_k_at_2x",
		"Rank Attack Factor":              "rank_attack_factor",
		"king-engine-value":               "king_engine_value",
		"debug":                           "debug",
	}
	for in, want := range tests {
		if got := NormalizeKey(in); got != want {
			t.Errorf("NormalizeKey(%q) = %q, want %q", in, got, want)
		}
		if _, ok := Lookup(want); !ok {
			t.Errorf("%q is not a knob", want)
		}
	}
}

func TestParseStrings(t *testing.T) {
	base := Defaults()
	c, err := base.ParseStrings(map[string]string{"opponentPlyDepth": "7", "ply_depth_risk_type": "Logistic",
		"debug": "true", "rank_attack_factor": " 1.3 "})
	if err != nil {
		t.Fatal(err)
	}
	if c.OpponentPlyDepth != 7 || c.RiskType != RiskLogistic || !c.Debug || c.RankAttackFactor != 1.3 {
		t.Errorf("got %+v", c)
	}
	bad := []struct{ k, v, want string }{
		{"opponent_ply_depth", "four", "not an integer"},
		{"gain_scale", "x", "not a number"},
		{"debug", "maybe", "not a boolean"},
		{"search_mode", "deep", `search_mode = "deep" is not one of line, greedy`},
		{"nope", "1", `unknown key "nope"`},
		{"opponent_ply_depth", "40", "opponent_ply_depth = 40 is out of range [0, 12]"},
	}
	for _, b := range bad {
		got, err := base.ParseStrings(map[string]string{b.k: b.v})
		if err == nil || !strings.Contains(err.Error(), b.want) {
			t.Errorf("%s=%s: error %v, want %q", b.k, b.v, err, b.want)
		}
		if got != base {
			t.Errorf("%s=%s: config changed on error", b.k, b.v)
		}
	}
}

func FuzzFromMap(f *testing.F) {
	f.Add("opponent_ply_depth", byte(0), int64(4), 0.0, "", false)
	f.Add("rank_attack_factor", byte(1), int64(0), 1.2, "", false)
	f.Add("ply_depth_risk_type", byte(2), int64(0), 0.0, "logistic", false)
	f.Add("debug", byte(3), int64(0), 0.0, "", true)
	f.Add("bogus", byte(1), int64(0), math.Inf(1), "", false)
	f.Fuzz(func(t *testing.T, key string, kind byte, i int64, fl float64, s string, b bool) {
		var v any
		switch kind % 4 {
		case 0:
			v = i
		case 1:
			v = fl
		case 2:
			v = s
		default:
			v = b
		}
		c, err := FromMap(map[string]any{key: v})
		if err != nil {
			if c != (Config{}) {
				t.Fatalf("config returned with error %v", err)
			}
			return
		}
		if err := c.Validate(); err != nil {
			t.Fatalf("accepted config does not validate: %v", err)
		}
		if _, ok := Lookup(key); !ok {
			t.Fatalf("unknown key %q accepted", key)
		}
	})
}

func FuzzParseStrings(f *testing.F) {
	f.Add("opponentPlyDepth", "5")
	f.Add("rank_attack_factor", "1.49")
	f.Add("ply_depth_risk_type", "LOGISTIC")
	f.Add("debug", "1")
	f.Add("kAt2x", "NaN")
	f.Fuzz(func(t *testing.T, key, val string) {
		base := Defaults()
		c, err := base.ParseStrings(map[string]string{key: val})
		if err != nil {
			if c != base {
				t.Fatalf("config changed on error %v", err)
			}
			return
		}
		if err := c.Validate(); err != nil {
			t.Fatalf("accepted config does not validate: %v", err)
		}
		e, err := New(base)
		if err != nil {
			t.Fatal(err)
		}
		if err := e.Configure(map[string]string{key: val}); err != nil {
			t.Fatalf("ParseStrings accepted but Configure failed: %v", err)
		}
		if e.Config() != c {
			t.Fatalf("Configure and ParseStrings disagree")
		}
	})
}

func TestRenderTOML(t *testing.T) {
	c := Defaults()
	c.RiskType, c.OpponentPlyDepth, c.RankAttackFactor, c.Debug = RiskLogistic, 7, 1.25, true
	out := RenderTOML(c)
	for _, want := range []string{
		"# --- Opponent Model ---\n",
		"opponent_ply_depth = 7\n",
		"# int, 0 to 12, default 4\n",
		`ply_depth_risk_type = "logistic"`,
		"# one of exponential, logistic, default \"exponential\"\n",
		"rank_attack_factor = 1.25\n",
		"center_piece_placement_reward = 50.0\n",
		"risk_cap = 0.0\n",
		"(0 disables)",
		"debug = true\n",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q", want)
		}
	}
	var m map[string]any
	if _, err := toml.Decode(out, &m); err != nil {
		t.Fatalf("rendered TOML does not decode: %v\n%s", err, out)
	}
	back, err := FromMap(m)
	if err != nil {
		t.Fatal(err)
	}
	if back != c {
		t.Errorf("round trip changed the config:\n%+v\n%+v", back, c)
	}
	if len(m) != len(Knobs()) {
		t.Errorf("rendered %d keys, want %d", len(m), len(Knobs()))
	}
}
