// Package config loads, validates and documents Outpost's TOML
// configuration. Load and Parse decode a file strictly (unknown keys, wrong
// types and bad values are all reported at once, each naming its key, the
// value and what is allowed); Default returns the built-in defaults, which
// config.example.toml documents key by key.
package config

import (
	"time"

	"github.com/outpostchess/outpost/bots/enginepath"
)

// Config is the whole configuration of the daemon and the analysis tools.
// Every field has a default (see Default) and a documented range (see
// config.example.toml).
type Config struct {
	Lichess     LichessConfig      `toml:"lichess"`
	RateLimit   RateLimitConfig    `toml:"ratelimit"`
	Challenge   ChallengeConfig    `toml:"challenge"`
	Rules       []Rule             `toml:"rules"`
	Engines     EnginesConfig      `toml:"engines"`
	Knobs       map[string]KnobSet `toml:"knobs"`
	Game        GameConfig         `toml:"game"`
	Summary     SummaryConfig      `toml:"summary"`
	Verify      VerifyConfig       `toml:"verify"`
	Matchmaking MatchmakingConfig  `toml:"matchmaking"`
	Tournaments TournamentsConfig  `toml:"tournaments"` // tournaments.go
	Store       StoreConfig        `toml:"store"`
	Analysis    AnalysisConfig     `toml:"analysis"`
	Compare     CompareConfig      `toml:"compare"`
	Models      ModelsConfig       `toml:"models"`
	EWR         EWRConfig          `toml:"ewr"`
	Cluster     ClusterConfig      `toml:"cluster"`
	Web         WebConfig          `toml:"web"`
	Log         LogConfig          `toml:"log"`
	Records     RecordsConfig      `toml:"records"`
	Provider    ProviderConfig     `toml:"provider"`
}

// LichessConfig is the [lichess] section: where the server is and how to
// talk to it. The API token is never part of the configuration: it comes
// from TokenFile or the LICHESS_TOKEN environment variable.
type LichessConfig struct {
	URL            string        `toml:"url"`             // base URL, default https://lichess.org
	TokenFile      string        `toml:"token_file"`      // file holding the token; "" = env LICHESS_TOKEN
	StreamTimeout  time.Duration `toml:"stream_timeout"`  // silence after which a stream is reconnected (20s)
	RequestTimeout time.Duration `toml:"request_timeout"` // timeout of one ordinary request (30s)
	ExplorerURL    string        `toml:"explorer_url"`    // opening explorer host; "" = https://explorer.lichess.org
	TablebaseURL   string        `toml:"tablebase_url"`   // tablebase host; "" = https://tablebase.lichess.org
}

// RateLimitConfig is the [ratelimit] section.
type RateLimitConfig struct {
	Seconds int `toml:"seconds"` // minimum lockout after a 429, at least 60
}

// ChallengeConfig is the [challenge] section: which incoming challenges are
// accepted. The daemon derives the Lichess decline reason from the rule
// that refused a challenge.
type ChallengeConfig struct {
	Variants            []string `toml:"variants"`               // Lichess variant keys accepted
	Speeds              []string `toml:"speeds"`                 // bullet, blitz, rapid, classical, correspondence
	MinBase             int      `toml:"min_base"`               // seconds of initial clock, inclusive
	MaxBase             int      `toml:"max_base"`               // seconds of initial clock, inclusive
	MinIncrement        int      `toml:"min_increment"`          // seconds, inclusive
	MaxIncrement        int      `toml:"max_increment"`          // seconds, inclusive
	MinDays             int      `toml:"min_days"`               // correspondence days per move, inclusive
	MaxDays             int      `toml:"max_days"`               // correspondence days per move, inclusive
	Rated               bool     `toml:"rated"`                  // accept rated challenges
	Casual              bool     `toml:"casual"`                 // accept casual challenges
	AllowBots           bool     `toml:"allow_bots"`             // accept challenges from BOT accounts
	AllowHumans         bool     `toml:"allow_humans"`           // accept challenges from human accounts
	MinRating           int      `toml:"min_rating"`             // opponent's rating in the speed, 0 = no bound
	MaxRating           int      `toml:"max_rating"`             // opponent's rating in the speed, 0 = no bound
	AllowList           []string `toml:"allow_list"`             // if non-empty, only these users (case-insensitive)
	BlockList           []string `toml:"block_list"`             // never these users (case-insensitive)
	MaxGames            int      `toml:"max_games"`              // concurrent games
	MaxGamesPerOpponent int      `toml:"max_games_per_opponent"` // concurrent games against one opponent
	BotDailyBudget      int      `toml:"bot_daily_budget"`       // bot-vs-bot games per rolling day (Lichess: 100)
	Queue               bool     `toml:"queue"`                  // hold challenges while at max_games
	QueueSize           int      `toml:"queue_size"`             // how many challenges may wait
	// MaxCorrespondenceGames bounds the correspondence (and unlimited)
	// games at the same time; they do not count against MaxGames, which
	// bounds the real-time games.
	MaxCorrespondenceGames int `toml:"max_correspondence_games"`
	// RatingWindowBelow and RatingWindowAbove bound the challenger's rating
	// relative to ours in the challenge's speed (0 = no bound).
	RatingWindowBelow int `toml:"rating_window_below"`
	RatingWindowAbove int `toml:"rating_window_above"`
	// MinIncrementPerSpeed is the smallest increment (seconds) accepted per
	// real-time speed (bullet, blitz, rapid, classical), on top of
	// MinIncrement.
	MinIncrementPerSpeed map[string]int `toml:"min_increment_per_speed"`
	// ReservedHumanSlots are real-time slots only humans may take: a bot's
	// challenge is refused (queued) when taking a slot would leave fewer.
	ReservedHumanSlots int `toml:"reserved_human_slots"`
}

// Rule is one [[rules]] entry: when every set match field agrees with a
// challenge, Engine plays it. Rules are tried in order; the first match
// wins; no match means Engines.Default. Unset list fields and nil pointers
// match anything; MinRating/MaxRating 0 mean no bound.
type Rule struct {
	Name       string   `toml:"name"`       // optional label for logs
	Speeds     []string `toml:"speeds"`     // match the challenge's speed
	Variants   []string `toml:"variants"`   // match the challenge's variant
	Rated      *bool    `toml:"rated"`      // match rated (true) or casual (false)
	MinRating  int      `toml:"min_rating"` // opponent's rating at least this
	MaxRating  int      `toml:"max_rating"` // opponent's rating at most this
	Titles     []string `toml:"titles"`     // opponent's title (GM, IM, …, BOT; "none" = untitled)
	Bot        *bool    `toml:"bot"`        // opponent is a BOT account
	Human      *bool    `toml:"human"`      // opponent is a human account
	Users      []string `toml:"users"`      // opponent's username (case-insensitive)
	Tournament string   `toml:"tournament"` // an arena id, "any" arena game or "none" (tournaments.go)
	Engine     string   `toml:"engine"`     // engine name: built-in or an [engines.NAME]
}

// EnginesConfig is the [engines] section: the default engine and the named
// engine definitions [engines.NAME]. Built-in names (see BuiltinEngines)
// need no definition.
type EnginesConfig struct {
	Default string                  `toml:"default"` // engine when no rule matches
	Defs    map[string]EngineConfig `toml:"*"`       // every [engines.NAME] table
}

// EngineConfig is one [engines.NAME] definition. Which fields apply depends
// on Type; setting a field that does not apply is an error.
type EngineConfig struct {
	Type         string         `toml:"type"`          // easy|medium|hard|knobs|uci|maia
	Knobs        string         `toml:"knobs"`         // knobs: name of a [knobs.NAME] set; "" = defaults
	Path         string         `toml:"path"`          // uci: engine executable
	Args         []string       `toml:"args"`          // uci: its arguments
	Options      map[string]any `toml:"options"`       // uci: setoption values (string, integer, float or bool)
	Elo          int            `toml:"elo"`           // uci: UCI_LimitStrength + UCI_Elo; 0 = off
	SkillLevel   *int           `toml:"skill_level"`   // uci: "Skill Level" 0..20; nil = off
	HashMB       int            `toml:"hash_mb"`       // uci: Hash in MiB; 0 = engine default
	Rating       int            `toml:"rating"`        // maia: 1100..1900 (nearest model)
	Temperature  float64        `toml:"temperature"`   // maia: 0 = most likely move, else sampling temperature
	MoveOverhead time.Duration  `toml:"move_overhead"` // any: overrides game.move_overhead; 0 = inherit
	Syzygy       *SyzygyConfig  `toml:"syzygy"`        // any: local Syzygy tablebases (engine_syzygy.go)
	Ponder       bool           `toml:"ponder"`        // uci, medium, hard: think on the opponent's time (see engine_ponder.go)
	Book         BookConfig     `toml:"book"`          // any: Polyglot opening books (engine_book.go)
	Limits       SpeedLimits    `toml:"limits"`        // any: nodes/depth/movetime caps per speed (engine_limits.go)
	GoCommands   SearchCaps     `toml:"go_commands"`   // uci: caps sent with every go, all speeds
	ThinkTime    ThinkTime      `toml:"think_time"`    // any: human-like delay on fast moves
	Online       OnlineConfig   `toml:"online"`        // any: Lichess move sources (engine_online.go)
}

// KnobSet is one [knobs.NAME] table kept raw (knob name → TOML value); the
// knobs package interprets and validates it.
type KnobSet map[string]any

// GameConfig is the [game] section: how the daemon conducts a game.
type GameConfig struct {
	MoveOverhead           time.Duration `toml:"move_overhead"`            // reserved per move for latency
	AbortAfter             time.Duration `toml:"abort_after"`              // wait for the opponent's first move, then abort
	AcceptDraw             string        `toml:"accept_draw"`              // never|always|when_behind|by_eval
	DrawEvalCP             int           `toml:"draw_eval_cp"`             // threshold for when_behind / by_eval
	DrawMinPly             int           `toml:"draw_min_ply"`             // no draw accepted before this ply
	ResignEnabled          bool          `toml:"resign_enabled"`           // resign lost positions
	ResignBelowCP          int           `toml:"resign_below_cp"`          // our eval at or below this …
	ResignMoves            int           `toml:"resign_moves"`             // … for this many consecutive own moves
	ClaimVictory           bool          `toml:"claim_victory"`            // claim the win when the opponent is gone
	Greeting               string        `toml:"greeting"`                 // template; "" = none
	Goodbye                string        `toml:"goodbye"`                  // template; "" = none
	GreetingRooms          []string      `toml:"greeting_rooms"`           // player and/or spectator
	ChatCommands           bool          `toml:"chat_commands"`            // answer !help, !engine, !eval
	CorrespondenceMoveTime time.Duration `toml:"correspondence_move_time"` // thinking time per correspondence move
	Shutdown               string        `toml:"shutdown"`                 // finish|abort|leave
	ShutdownTimeout        time.Duration `toml:"shutdown_timeout"`         // how long "finish" waits
	// EngineOutputRooms are the chat rooms where !eval (the engine's
	// evaluation) is answered; elsewhere it is politely refused.
	EngineOutputRooms []string `toml:"engine_output_rooms"`
	// TakebacksPerGame is how many takeback offers of a human opponent
	// are accepted per game (0 declines all); bots' offers are declined.
	TakebacksPerGame int `toml:"takebacks_per_game"`
	// OfferDraw makes the bot offer a draw (with its move) from
	// DrawMinPly on, when its eval stayed within DrawEvalCP for
	// OfferDrawMoves consecutive own moves or neither side can mate.
	OfferDraw      bool `toml:"offer_draw"`
	OfferDrawMoves int  `toml:"offer_draw_moves"`
}

// SummaryConfig is the [summary] section: the post-game analysis summary.
type SummaryConfig struct {
	Enabled bool     `toml:"enabled"`
	Rooms   []string `toml:"rooms"`  // player and/or spectator
	Nodes   int      `toml:"nodes"`  // node budget per position
	Engine  []string `toml:"engine"` // UCI command line; empty = analysis.engine
	EWR     bool     `toml:"ewr"`    // add the expected-winrate line
	// Timeout bounds a whole summary from the start of its analysis; past
	// it the summary goes out with the parts that are ready.
	Timeout time.Duration `toml:"timeout"`
	// EWRTimeout bounds the wait for the expected-winrate line; past it
	// the summary goes out saying it was not ready.
	EWRTimeout time.Duration `toml:"ewr_timeout"`
	// EWRMode is "settle" (the default: the trees searched towards depth
	// 15 and ended at 12 or 13 where the score has settled, within 1 pp of
	// the exact calculation), "exact" (every position at depth 15) or
	// "fast" (the trees at depth 12).
	EWRMode string `toml:"ewr_mode"`
	// EWREnginesInGame is how many expected-winrate engines may search
	// while a game is on the clock (0: pause until no game is).
	EWREnginesInGame int `toml:"ewr_engines_in_game"`
}

// VerifyConfig is the [verify] section: checking the post-game summaries
// against Lichess's own evaluations (cloud evals, the game's server
// analysis).
type VerifyConfig struct {
	Enabled    bool          `toml:"enabled"`
	Cloud      bool          `toml:"cloud"`       // look the critical positions up in the cloud evals
	Window     time.Duration `toml:"window"`      // how long after the game the export is polled
	FirstDelay time.Duration `toml:"first_delay"` // wait after the first unsuccessful poll
	MaxDelay   time.Duration `toml:"max_delay"`   // longest wait between polls
	ChatLine   bool          `toml:"chat_line"`   // add the agreement line to the summary
	// DetectPeriod detects which period's engine made Lichess's analysis
	// from its evals (runs each obtainable engine on 5 positions).
	DetectPeriod bool `toml:"detect_period"`
}

// MatchmakingConfig is the [matchmaking] section: challenging online bots
// when idle.
type MatchmakingConfig struct {
	Enabled       bool          `toml:"enabled"`
	Interval      time.Duration `toml:"interval"`       // idle time before challenging
	MinRating     int           `toml:"min_rating"`     // opponent bot rating, 0 = no bound
	MaxRating     int           `toml:"max_rating"`     // opponent bot rating, 0 = no bound
	TimeControls  []string      `toml:"time_controls"`  // "MINUTES+SECONDS", e.g. "3+2"; see ParseTimeControl
	Variant       string        `toml:"variant"`        // variant of our challenges
	Rated         bool          `toml:"rated"`          // rated challenges
	DeclineMemory time.Duration `toml:"decline_memory"` // how long a bot that declined is left alone
	AllowList     []string      `toml:"allow_list"`     // if non-empty, only these bots are challenged
	BlockList     []string      `toml:"block_list"`     // never challenge these bots
	// IncludeChallengeBlockList also keeps the matchmaker away from the
	// users of [challenge] block_list.
	IncludeChallengeBlockList bool `toml:"include_challenge_block_list"`
	// BlockListSources are files and http(s) URLs of block lists (one bot
	// name a line), read again every BlockListRefresh; a source that cannot
	// be read keeps its last good list.
	BlockListSources []string      `toml:"block_list_sources"`
	BlockListRefresh time.Duration `toml:"block_list_refresh"`
}

// StoreConfig is the [store] section.
type StoreConfig struct {
	Path   string `toml:"path"`    // SQLite file
	PGNDir string `toml:"pgn_dir"` // directory for finished games' PGNs; "" = none
}

// AnalysisConfig is the [analysis] section: the Stockfish pool.
type AnalysisConfig struct {
	Engine  []string `toml:"engine"`  // UCI command line
	Workers int      `toml:"workers"` // engine processes
	Threads int      `toml:"threads"` // UCI Threads per engine
	HashMB  int      `toml:"hash_mb"` // UCI Hash per engine, MiB
	Preset  string   `toml:"preset"`  // quick|lichess|deep
	Nodes   int      `toml:"nodes"`   // per position; 0 = from preset
	Depth   int      `toml:"depth"`   // per position; 0 = from preset
}

// CompareConfig is the [compare] section: scheduled comparisons with
// Lichess's own analysis.
type CompareConfig struct {
	Enabled  bool          `toml:"enabled"`
	Users    []string      `toml:"users"`     // Lichess usernames
	Interval time.Duration `toml:"interval"`  // between runs
	MaxGames int           `toml:"max_games"` // per user and run
	Since    time.Duration `toml:"since"`     // how far back to fetch games
	Preset   string        `toml:"preset"`    // quick|lichess|deep
	Nodes    int           `toml:"nodes"`     // 0 = from preset
	Engine   []string      `toml:"engine"`    // UCI command line or engine name (sf15, sf18, sf19, auto)
}

// ModelsConfig is the [models] section: Maia weights and ONNX Runtime.
type ModelsConfig struct {
	Dir        string `toml:"dir"`         // weights directory; "" = the models package's default
	ORTLibrary string `toml:"ort_library"` // onnxruntime shared library; "" = default location
	Threads    int    `toml:"threads"`     // inference threads; 0 = automatic
	Maia2Model string `toml:"maia2_model"` // user-supplied Maia-2 ONNX file; "" = none
	Runtime    string `toml:"runtime"`     // "onnx" (ONNX Runtime, cgo builds) or "go" (pure Go); "" = the build's default
}

// EWRConfig is the [ewr] section: expected-winrate defaults.
type EWRConfig struct {
	Threshold    float64 `toml:"threshold"`     // path probability cut-off: 0.1, 0.01 or 0.001
	Depth        int     `toml:"depth"`         // Stockfish depth: 15, 20 or 25
	Loss         float64 `toml:"loss"`          // winrate loss threshold, -1..0
	Maia         int     `toml:"maia"`          // analysing player's Maia rating, 1100..1900
	OpponentMaia int     `toml:"opponent_maia"` // opponent's Maia rating; 0 = same as maia
}

// WebConfig is the [web] section: the local web console.
type WebConfig struct {
	Enabled         bool   `toml:"enabled"`
	Addr            string `toml:"addr"`              // listen address
	AccessTokenFile string `toml:"access_token_file"` // required unless addr is loopback
	// TLSCertFile and TLSKeyFile (PEM) make the console serve HTTPS; off
	// loopback they are required unless PlainHTTP says TLS ends in front
	// of the console (a reverse proxy on the same host).
	TLSCertFile string `toml:"tls_cert_file"`
	TLSKeyFile  string `toml:"tls_key_file"`
	PlainHTTP   bool   `toml:"plain_http"`
}

// LogConfig is the [log] section.
type LogConfig struct {
	// Level (trace|debug|info|warn|error|off) is that of outpost run's
	// console and of the file; --log-level overrides it on the console.
	// Format (auto|console|json) is the console's; the file is JSON lines.
	Level  string `toml:"level"`
	Format string `toml:"format"`
	// File, when set, also receives the log (JSON lines at Level), rotated
	// at MaxSizeMB, keeping MaxFiles old files (see records.go).
	File      string `toml:"file"`
	MaxSizeMB int    `toml:"max_size_mb"`
	MaxFiles  int    `toml:"max_files"`
}

// Default returns the built-in configuration. It is valid as it is.
// Long: one literal holding every section's defaults, read as a table.
func Default() *Config {
	return &Config{
		Lichess: LichessConfig{
			URL:            "https://lichess.org",
			StreamTimeout:  20 * time.Second,
			RequestTimeout: 30 * time.Second,
		},
		RateLimit: RateLimitConfig{Seconds: 60},
		Challenge: ChallengeConfig{
			Variants:            []string{"standard", "fromPosition"},
			Speeds:              []string{"bullet", "blitz", "rapid", "classical", "correspondence"},
			MinBase:             0,
			MaxBase:             maxClockBase,
			MinIncrement:        0,
			MaxIncrement:        maxClockIncrement,
			MinDays:             1,
			MaxDays:             14,
			Rated:               true,
			Casual:              true,
			AllowBots:           true,
			AllowHumans:         true,
			AllowList:           []string{},
			BlockList:           []string{},
			MaxGames:            2,
			MaxGamesPerOpponent: 1,
			BotDailyBudget:      100,
			Queue:               true,
			QueueSize:           5,

			MaxCorrespondenceGames: 5,
			MinIncrementPerSpeed:   map[string]int{"bullet": 0, "blitz": 0, "rapid": 0, "classical": 0},
		},
		Rules:   []Rule{},
		Engines: EnginesConfig{Default: "medium", Defs: map[string]EngineConfig{}},
		Knobs:   map[string]KnobSet{},
		Game: GameConfig{
			MoveOverhead:           100 * time.Millisecond,
			AbortAfter:             30 * time.Second,
			AcceptDraw:             "by_eval",
			DrawEvalCP:             20,
			DrawMinPly:             60,
			ResignEnabled:          false,
			ResignBelowCP:          -1000,
			ResignMoves:            5,
			ClaimVictory:           true,
			Greeting:               "Hi {opponent}, I'm {engine}. Good luck!",
			Goodbye:                "Good game, {opponent}!",
			GreetingRooms:          []string{"player", "spectator"},
			ChatCommands:           true,
			CorrespondenceMoveTime: 30 * time.Second,
			Shutdown:               "finish",
			ShutdownTimeout:        10 * time.Minute,
			EngineOutputRooms:      []string{"spectator"},
			TakebacksPerGame:       0,
			OfferDraw:              false,
			OfferDrawMoves:         10,
		},
		Summary: SummaryConfig{
			Enabled: true,
			Rooms:   []string{"player", "spectator"},
			Nodes:   100_000,
			Engine:  []string{},
			EWR:     true,
			// The exact calculation takes 1–15 s per position on two idle
			// cores (docs/expected-winrate.md); the bound leaves room for
			// a busy machine and a game on the clock (one engine).
			EWRTimeout: 2 * time.Minute,
			// The analysis takes seconds and the line at most
			// ewr_timeout; the rest is for a busy machine and for games
			// on the clock, which hold the summary's engines back.
			Timeout:          10 * time.Minute,
			EWRMode:          "settle",
			EWREnginesInGame: 1,
		},
		Verify: VerifyConfig{
			Enabled:    true,
			Cloud:      true,
			Window:     48 * time.Hour,
			FirstDelay: time.Minute,
			MaxDelay:   2 * time.Hour,
			ChatLine:   false,
		},
		Tournaments: defaultTournaments(),
		Matchmaking: MatchmakingConfig{
			Enabled:       false,
			Interval:      10 * time.Minute,
			MinRating:     0,
			MaxRating:     0,
			TimeControls:  []string{"3+2"},
			Variant:       "standard",
			Rated:         true,
			DeclineMemory: time.Hour,
			AllowList:     []string{},
			BlockList:     []string{},

			IncludeChallengeBlockList: true,
			BlockListSources:          []string{},
			BlockListRefresh:          time.Hour,
		},
		Store: StoreConfig{Path: "outpost.db", PGNDir: "pgn"},
		Analysis: AnalysisConfig{
			Engine:  []string{enginepath.Stockfish15},
			Workers: 2,
			Threads: 1,
			HashMB:  16,
			Preset:  "lichess",
		},
		Compare: CompareConfig{
			Enabled:  false,
			Users:    []string{},
			Interval: 24 * time.Hour,
			MaxGames: 50,
			Since:    30 * 24 * time.Hour,
			Preset:   "by-date",
			Engine:   []string{enginepath.Stockfish15},
		},
		Models: ModelsConfig{},
		EWR: EWRConfig{
			Threshold: 0.1,
			Depth:     15,
			Loss:      -0.1,
			Maia:      1500,
		},
		Cluster:  ClusterConfig{AckWait: DefaultClusterAckWait, Replicas: 1},
		Web:      WebConfig{Enabled: false, Addr: "127.0.0.1:8090"},
		Provider: ProviderConfig{Engines: DefaultProviderEngines(), IdleTimeout: 5 * time.Minute},
		Log:      LogConfig{Level: "info", Format: "auto", MaxSizeMB: 50, MaxFiles: 5},
		Records:  RecordsConfig{Per: "game"},
	}
}
