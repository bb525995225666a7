package config

import (
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"
)

// OnlineConfig is an engine's [engines.NAME.online] table: Lichess's
// services asked for a move before the engine searches, in the order
// cloud_eval, explorer, tablebase (after any book and local tablebase).
type OnlineConfig struct {
	CloudEval CloudEvalConfig `toml:"cloud_eval"`
	Explorer  ExplorerConfig  `toml:"explorer"`
	Tablebase TablebaseConfig `toml:"tablebase"`
}

// Any reports whether one of the online sources is enabled.
func (o OnlineConfig) Any() bool {
	return o.CloudEval.Enabled || o.Explorer.Enabled || o.Tablebase.Enabled
}

// CloudEvalConfig is [engines.NAME.online.cloud_eval]: Lichess's cloud
// evaluation cache (/api/cloud-eval).
type CloudEvalConfig struct {
	Enabled  bool          `toml:"enabled"`
	MinDepth int           `toml:"min_depth"` // ignore evaluations shallower than this (0..99; 0 = any)
	MultiPV  int           `toml:"multipv"`   // variations asked for (1..5; 0 = 1); the best is played
	Timeout  time.Duration `toml:"timeout"`   // bound of one ask (0 = 2s)
}

// ExplorerConfig is [engines.NAME.online.explorer]: Lichess's opening
// explorer.
type ExplorerConfig struct {
	Enabled   bool          `toml:"enabled"`
	Source    string        `toml:"source"`    // masters | lichess ("" = masters)
	Speeds    []string      `toml:"speeds"`    // lichess source: speeds filter ([] = all)
	Ratings   []int         `toml:"ratings"`   // lichess source: rating groups ([] = all)
	Selection string        `toml:"selection"` // winrate | count ("" = winrate)
	MinGames  int           `toml:"min_games"` // least games a move needs
	MaxPly    int           `toml:"max_ply"`   // stop asking from this game ply (0 = never)
	Timeout   time.Duration `toml:"timeout"`   // bound of one ask (0 = 2s)
}

// TablebaseConfig is [engines.NAME.online.tablebase]: Lichess's online
// Syzygy tablebase.
type TablebaseConfig struct {
	Enabled   bool          `toml:"enabled"`
	MaxPieces int           `toml:"max_pieces"` // ask for positions of at most this many pieces (3..7; 0 = 7)
	Timeout   time.Duration `toml:"timeout"`    // bound of one ask (0 = 2s)
}

// Allowed values of the online sources' keys.
var (
	explorerSources    = []string{"masters", "lichess"}
	explorerSelections = []string{"winrate", "count"}
	explorerSpeeds     = []string{"ultraBullet", "bullet", "blitz", "rapid", "classical", "correspondence"}
	explorerRatings    = []int{0, 1000, 1200, 1400, 1600, 1800, 2000, 2200, 2500}
)

// checkOnline validates an engine's online table (key is engines.NAME).
func checkOnline(ch *checker, key string, o OnlineConfig) {
	key += ".online"
	ce, ex, tb := o.CloudEval, o.Explorer, o.Tablebase
	ch.intRange(key+".cloud_eval.min_depth", ce.MinDepth, 0, 99, "plies")
	ch.intRangeOrZero(key+".cloud_eval.multipv", ce.MultiPV, 1, 5, "variations", "1")
	ch.durRange(key+".cloud_eval.timeout", ce.Timeout, 0, time.Minute)
	if ex.Source != "" {
		ch.oneOf(key+".explorer.source", ex.Source, explorerSources)
	}
	if ex.Selection != "" {
		ch.oneOf(key+".explorer.selection", ex.Selection, explorerSelections)
	}
	ch.listOf(key+".explorer.speeds", ex.Speeds, explorerSpeeds, false)
	for _, r := range ex.Ratings {
		if !slices.Contains(explorerRatings, r) {
			ch.fail(key+".explorer.ratings", r, "not a rating group of the explorer", intList(explorerRatings))
		}
	}
	if ex.Source == "masters" && (len(ex.Speeds) > 0 || len(ex.Ratings) > 0) {
		ch.fail(key+".explorer.speeds", nil, "speeds and ratings filter only the lichess source", `source = "lichess", or no speeds and ratings`)
	}
	ch.intRange(key+".explorer.min_games", ex.MinGames, 0, 1_000_000, "games")
	ch.intRange(key+".explorer.max_ply", ex.MaxPly, 0, 600, "plies (0 = no limit)")
	ch.durRange(key+".explorer.timeout", ex.Timeout, 0, time.Minute)
	ch.intRangeOrZero(key+".tablebase.max_pieces", tb.MaxPieces, 3, 7, "pieces, kings included (Lichess's tables go to 7)", "7")
	ch.durRange(key+".tablebase.timeout", tb.Timeout, 0, time.Minute)
}

// checkServiceURL validates lichess.explorer_url or lichess.tablebase_url
// ("" means Lichess's host).
func checkServiceURL(ch *checker, key, v string) {
	if v == "" {
		return
	}
	if u, err := url.Parse(v); err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" ||
		u.RawQuery != "" || u.Fragment != "" {
		ch.fail(key, v, "not a base URL", "an http(s) URL without query, such as https://explorer.lichess.org")
	}
}

// intList writes ints for an error message.
func intList(vs []int) string {
	s := make([]string, len(vs))
	for i, v := range vs {
		s[i] = strconv.Itoa(v)
	}
	return strings.Join(s, ", ")
}
