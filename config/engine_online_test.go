package config

import (
	"testing"
	"time"
)

// TestOnlineConfigValidation: each bad value of [engines.NAME.online] is
// reported at its key, saying what is allowed.
func TestOnlineConfigValidation(t *testing.T) {
	eng := func(body string) string { return "[engines.e]\ntype = \"medium\"\n" + body }
	cases := []refusal{
		{"multipv", eng("[engines.e.online.cloud_eval]\nmultipv = 6"), "engines.e.online.cloud_eval.multipv", "1..5"},
		{"min depth", eng("[engines.e.online.cloud_eval]\nmin_depth = -1"), "engines.e.online.cloud_eval.min_depth", "0..99"},
		{"cloud timeout", eng("[engines.e.online.cloud_eval]\ntimeout = \"2m\""), "engines.e.online.cloud_eval.timeout", "1m"},
		{"source", eng("[engines.e.online.explorer]\nsource = \"player\""), "engines.e.online.explorer.source", "masters, lichess"},
		{"selection", eng("[engines.e.online.explorer]\nselection = \"games_played\""), "engines.e.online.explorer.selection", "winrate, count"},
		{"speed", eng("[engines.e.online.explorer]\nsource = \"lichess\"\nspeeds = [\"hyper\"]"), "engines.e.online.explorer.speeds", "blitz"},
		{"rating group", eng("[engines.e.online.explorer]\nsource = \"lichess\"\nratings = [1500]"), "engines.e.online.explorer.ratings", "1600"},
		{"ratings type", eng("[engines.e.online.explorer]\nratings = [\"1600\"]"), "engines.e.online.explorer.ratings", "integers"},
		{"masters filters", eng("[engines.e.online.explorer]\nsource = \"masters\"\nspeeds = [\"blitz\"]"), "engines.e.online.explorer.speeds", "lichess"},
		{"min games", eng("[engines.e.online.explorer]\nmin_games = -3"), "engines.e.online.explorer.min_games", "0..1000000"},
		{"max ply", eng("[engines.e.online.explorer]\nmax_ply = 601"), "engines.e.online.explorer.max_ply", "0..600"},
		{"max pieces", eng("[engines.e.online.tablebase]\nmax_pieces = 8"), "engines.e.online.tablebase.max_pieces", "3..7"},
		{"unknown key", eng("[engines.e.online.tablebase]\nmax_piece = 5"), "engines.e.online.tablebase.max_piece", "max_pieces"},
		{"explorer url", "[lichess]\nexplorer_url = \"ftp://x\"", "lichess.explorer_url", "http(s)"},
		{"tablebase url", "[lichess]\ntablebase_url = \"https://t/?q=1\"", "lichess.tablebase_url", "without query"},
	}
	checkRefusals(t, cases, nil)
}

// TestOnlineConfigDecodes: a full table decodes into the engine's
// OnlineConfig.
func TestOnlineConfigDecodes(t *testing.T) {
	src := `[engines.e]
type = "easy"
[engines.e.online.cloud_eval]
enabled = true
min_depth = 18
multipv = 3
timeout = "700ms"
[engines.e.online.explorer]
enabled = true
source = "lichess"
speeds = ["blitz", "rapid"]
ratings = [2000, 2200]
selection = "count"
min_games = 4
max_ply = 16
[engines.e.online.tablebase]
enabled = true
max_pieces = 6
`
	cfg, err := Parse([]byte(src), "t.toml")
	if err != nil {
		t.Fatal(err)
	}
	o := cfg.Engines.Defs["e"].Online
	if !o.Any() || o.CloudEval.MultiPV != 3 || o.CloudEval.Timeout != 700*time.Millisecond || o.Explorer.Source != "lichess" ||
		len(o.Explorer.Ratings) != 2 || o.Explorer.Ratings[1] != 2200 || o.Explorer.Selection != "count" || o.Tablebase.MaxPieces != 6 {
		t.Errorf("decoded %+v", o)
	}
}
