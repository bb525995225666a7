package config

import (
	"strings"
	"testing"

	"github.com/outpostchess/outpost/models"
)

// TestValidationRules checks every validation rule: each snippet must be
// refused with a problem at key whose text (problem + allowed) contains want,
// and the problem must show the bad value where one was written.
func TestValidationRules(t *testing.T) {
	cases := []refusal{
		{"url scheme", "[lichess]\nurl = \"ftp://lichess.org\"", "lichess.url", "http(s) URL"},
		{"url host", "[lichess]\nurl = \"https://\"", "lichess.url", "http(s) URL"},
		{"url query", "[lichess]\nurl = \"https://x.org/?a=1\"", "lichess.url", "without query"},
		{"url password", "[lichess]\nurl = \"https://u:hunter2@x.org\"", "lichess.url", "without user:password@"},
		{"token in token_file", "[lichess]\ntoken_file = \"lip_abcdefghijkl\"", "lichess.token_file", "looks like a token"},
		{"stream timeout low", "[lichess]\nstream_timeout = \"5s\"", "lichess.stream_timeout", "10s..10m"},
		{"stream timeout high", "[lichess]\nstream_timeout = \"11m\"", "lichess.stream_timeout", "10s..10m"},
		{"request timeout", "[lichess]\nrequest_timeout = \"0s\"", "lichess.request_timeout", "1s..10m"},
		{"negative duration", "[lichess]\nrequest_timeout = \"-5s\"", "lichess.request_timeout", "negative duration not allowed"},
		{"negative days", "[compare]\nsince = \"-1d\"", "compare.since", "negative duration not allowed"},
		{"not a duration", "[lichess]\nrequest_timeout = \"soon\"", "lichess.request_timeout", "not a duration"},
		{"ratelimit low", "[ratelimit]\nseconds = 59", "ratelimit.seconds", "60..3600"},
		{"ratelimit high", "[ratelimit]\nseconds = 3601", "ratelimit.seconds", "60..3600"},

		{"no variants", "[challenge]\nvariants = []", "challenge.variants", "must not be empty"},
		{"variant case", "[challenge]\nvariants = [\"Standard\"]", "challenge.variants", `did you mean "standard"`},
		{"variant unknown", "[challenge]\nvariants = [\"bughouse\"]", "challenge.variants", "kingOfTheHill"},
		{"ultrabullet", "[challenge]\nspeeds = [\"blitz\", \"ultraBullet\"]", "challenge.speeds", "UltraBullet"},
		{"no speeds", "[challenge]\nspeeds = []", "challenge.speeds", "must not be empty"},
		{"bad speed", "[challenge]\nspeeds = [\"blits\"]", "challenge.speeds", `did you mean "blitz"`},
		{"min base", "[challenge]\nmin_base = -1", "challenge.min_base", "0..10800"},
		{"max base", "[challenge]\nmax_base = 10801", "challenge.max_base", "0..10800"},
		{"base order", "[challenge]\nmin_base = 600\nmax_base = 60", "challenge.max_base", "at least challenge.min_base"},
		{"increment", "[challenge]\nmax_increment = 181", "challenge.max_increment", "0..180"},
		{"increment order", "[challenge]\nmin_increment = 5\nmax_increment = 2", "challenge.max_increment", "at least challenge.min_increment"},
		{"min days", "[challenge]\nmin_days = 0", "challenge.min_days", "1..14"},
		{"max days", "[challenge]\nmax_days = 15", "challenge.max_days", "1..14"},
		{"days order", "[challenge]\nmin_days = 7\nmax_days = 3", "challenge.max_days", "at least challenge.min_days"},
		{"rated and casual", "[challenge]\nrated = false\ncasual = false", "challenge.casual", "at least one"},
		{"bots and humans", "[challenge]\nallow_bots = false\nallow_humans = false", "challenge.allow_humans", "at least one"},
		{"min rating", "[challenge]\nmin_rating = 5000", "challenge.min_rating", "1..4000"},
		{"rating order", "[challenge]\nmin_rating = 2000\nmax_rating = 1500", "challenge.max_rating", "at least challenge.min_rating"},
		{"allow list", "[challenge]\nallow_list = [\"bad name\"]", "challenge.allow_list", "Lichess username"},
		{"block list", "[challenge]\nblock_list = [\"x\"]", "challenge.block_list", "Lichess username"},
		{"both lists", "[challenge]\nallow_list = [\"alice\"]\nblock_list = [\"Alice\"]", "challenge.block_list", "both allow_list and block_list"},
		{"max games", "[challenge]\nmax_games = 0", "challenge.max_games", "1..100"},
		{"max games high", "[challenge]\nmax_games = 101", "challenge.max_games", "1..100"},
		{"per opponent", "[challenge]\nmax_games = 2\nmax_games_per_opponent = 3", "challenge.max_games_per_opponent", "1..2"},
		{"bot budget", "[challenge]\nbot_daily_budget = 101", "challenge.bot_daily_budget", "0..100"},
		{"queue size", "[challenge]\nqueue_size = 0", "challenge.queue_size", "1..100"},
		{"correspondence games", "[challenge]\nmax_correspondence_games = 0", "challenge.max_correspondence_games", "1..100"},
		{"window below", "[challenge]\nrating_window_below = -100", "challenge.rating_window_below", "0 (no bound) or 1..4000"},
		{"window above", "[challenge]\nrating_window_above = 4001", "challenge.rating_window_above", "1..4000"},
		{"increment per speed", "[challenge]\nmin_increment_per_speed = {blitz = 181}", "challenge.min_increment_per_speed.blitz", "0..180"},
		{"increment speed name", "[challenge]\nmin_increment_per_speed = {blits = 2}", "challenge.min_increment_per_speed.blits", `did you mean "blitz"`},
		{"increment correspondence", "[challenge]\nmin_increment_per_speed = {correspondence = 2}", "challenge.min_increment_per_speed.correspondence", "bullet, blitz, rapid, classical"},
		{"increment type", "[challenge]\nmin_increment_per_speed = {blitz = \"2\"}", "challenge.min_increment_per_speed.blitz", "an integer"},
		{"reserved slots", "[challenge]\nmax_games = 2\nreserved_human_slots = 2", "challenge.reserved_human_slots", "0..1"},
		{"reserved without humans", "[challenge]\nmax_games = 3\nreserved_human_slots = 1\nallow_humans = false", "challenge.reserved_human_slots", "allow_humans"},

		{"engine output room", "[game]\nengine_output_rooms = [\"spectators\"]", "game.engine_output_rooms", `did you mean "spectator"`},
		{"takebacks", "[game]\ntakebacks_per_game = -1", "game.takebacks_per_game", "0..100"},
		{"offer draw moves", "[game]\noffer_draw_moves = 0", "game.offer_draw_moves", "1..100"},
		{"mm allow list", "[matchmaking]\nallow_list = [\"no way\"]", "matchmaking.allow_list", "Lichess username"},
		{"mm block list", "[matchmaking]\nblock_list = [\"-x\"]", "matchmaking.block_list", "Lichess username"},
		{"mm both lists", "[matchmaking]\nallow_list = [\"Sparky\"]\nblock_list = [\"sparky\"]", "matchmaking.allow_list", "at most one"},
		{"mm challenge block list", "[challenge]\nblock_list = [\"sparky\"]\n[matchmaking]\nallow_list = [\"Sparky\"]", "matchmaking.allow_list", "challenge.block_list"},

		{"verify window", "[verify]\nwindow = \"30m\"", "verify.window", "1h..30d"},
		{"verify first delay", "[verify]\nfirst_delay = \"1s\"", "verify.first_delay", "10s..6h"},
		{"verify max delay", "[verify]\nmax_delay = \"25h\"", "verify.max_delay", "10s..1d"},
		{"verify delay order", "[verify]\nfirst_delay = \"2h\"\nmax_delay = \"1h\"", "verify.max_delay", "shorter than verify.first_delay (2h)"},
		{"verify cloud type", "[verify]\ncloud = \"yes\"", "verify.cloud", "true or false"},

		{"rule without engine", "[[rules]]\nspeeds = [\"blitz\"]", "rules[0].engine", "missing"},
		{"rule unknown engine", "[[rules]]\nengine = \"nope\"", "rules[0].engine", "unknown engine"},
		{"rule maia rating off grid", "[[rules]]\nengine = \"maia-1550\"", "rules[0].engine", "maia-1500"},
		{"rule ultrabullet", "[[rules]]\nengine = \"easy\"\nspeeds = [\"ultraBullet\"]", "rules[0].speeds", "UltraBullet"},
		{"rule variant", "[[rules]]\nengine = \"easy\"\nvariants = [\"chess9600\"]", "rules[0].variants", `did you mean "chess960"`},
		{"rule title", "[[rules]]\nengine = \"easy\"\ntitles = [\"GMX\"]", "rules[0].titles", "WGM"},
		{"rule rating", "[[rules]]\nengine = \"easy\"\nmin_rating = -1", "rules[0].min_rating", "1..4000"},
		{"rule rating order", "[[rules]]\nengine = \"easy\"\nmin_rating = 1900\nmax_rating = 1000", "rules[0].max_rating", "at least rules[0].min_rating"},
		{"rule bot and human", "[[rules]]\nengine = \"easy\"\nbot = true\nhuman = true", "rules[0].human", "never match"},
		{"rule neither", "[[rules]]\nengine = \"easy\"\nbot = false\nhuman = false", "rules[0].human", "never match"},
		{"rule users", "[[rules]]\nengine = \"easy\"\nusers = [\"a b\"]", "rules[0].users", "Lichess username"},
		{"second rule", "[[rules]]\nengine = \"easy\"\n[[rules]]\nengine = \"hardd\"", "rules[1].engine", `did you mean "hard"`},

		{"default empty", "[engines]\ndefault = \"\"", "engines.default", "must not be empty"},
		{"engine name", "[engines.\"my engine\"]\ntype = \"easy\"", `engines."my engine"`, "letters, digits"},
		{"builtin name", "[engines.hard]\ntype = \"easy\"", "engines.hard", "built-in"},
		{"builtin maia name", "[engines.maia-1500]\ntype = \"maia\"\nrating = 1500", "engines.maia-1500", "built-in"},
		{"type missing", "[engines.x]\npath = \"/bin/x\"", "engines.x.type", "missing"},
		{"type bad", "[engines.x]\ntype = \"ucci\"", "engines.x.type", `did you mean "uci"`},
		{"field for other type", "[engines.x]\ntype = \"maia\"\nrating = 1500\npath = \"/bin/x\"", "engines.x.path", "only for type uci"},
		{"knobs on uci", "[engines.x]\ntype = \"uci\"\npath = \"/bin/x\"\nknobs = \"k\"", "engines.x.knobs", "only for type knobs"},
		{"unknown knob set", "[engines.x]\ntype = \"knobs\"\nknobs = \"nope\"", "engines.x.knobs", "no [knobs.NAME] sets"},
		{"uci path", "[engines.x]\ntype = \"uci\"", "engines.x.path", "missing"},
		{"uci elo", "[engines.x]\ntype = \"uci\"\npath = \"/x\"\nelo = 100", "engines.x.elo", "500..3500"},
		{"uci skill", "[engines.x]\ntype = \"uci\"\npath = \"/x\"\nskill_level = 21", "engines.x.skill_level", "0..20"},
		{"uci hash", "[engines.x]\ntype = \"uci\"\npath = \"/x\"\nhash_mb = -1", "engines.x.hash_mb", "0..65536"},
		{"uci hash twice", "[engines.x]\ntype = \"uci\"\npath = \"/x\"\nhash_mb = 16\noptions = {Hash = 16}", "engines.x.options.Hash", "not both"},
		{"uci elo twice", "[engines.x]\ntype = \"uci\"\npath = \"/x\"\nelo = 1500\noptions = {UCI_Elo = 1500}", "engines.x.options.UCI_Elo", "not both"},
		{"uci option name", "[engines.x]\ntype = \"uci\"\npath = \"/x\"\noptions = {\"a value b\" = 1}", `engines.x.options."a value b"`, "option name"},
		{"uci Hash unbounded", "[engines.x]\ntype = \"uci\"\npath = \"/x\"\noptions = {Hash = 10000000}", "engines.x.options.Hash", "1..65536 MiB"},
		{"uci Threads unbounded", "[engines.x]\ntype = \"uci\"\npath = \"/x\"\noptions = {threads = 100000}", "engines.x.options.threads", "1..512"},
		{"uci Threads zero", "[engines.x]\ntype = \"uci\"\npath = \"/x\"\noptions = {Threads = 0}", "engines.x.options.Threads", "1..512"},
		{"uci option newline", "[engines.x]\ntype = \"uci\"\npath = \"/x\"\noptions = {A = \"1\\nquit\"}", "engines.x.options.A", "line break"},
		{"maia rating", "[engines.x]\ntype = \"maia\"\nrating = 1000", "engines.x.rating", "1100..1900"},
		{"maia rating missing", "[engines.x]\ntype = \"maia\"", "engines.x.rating", "1100..1900"},
		{"maia temperature", "[engines.x]\ntype = \"maia\"\nrating = 1500\ntemperature = 3", "engines.x.temperature", "0..2"},
		{"engine overhead", "[engines.x]\ntype = \"easy\"\nmove_overhead = \"11s\"", "engines.x.move_overhead", "0s..10s"},

		{"knob set name", "[knobs.\"a b\"]\nopponent_ply_depth = 4", `knobs."a b"`, "letters, digits"},
		{"knob unknown", "[knobs.k]\nopponent_ply_dept = 4", "knobs.k.opponent_ply_dept", `did you mean "opponent_ply_depth"`},
		{"knob range", "[knobs.k]\nopponent_ply_depth = 13", "knobs.k.opponent_ply_depth", "0..12"},
		{"knob int type", "[knobs.k]\nopponent_ply_depth = 4.5", "knobs.k.opponent_ply_depth", "an integer"},
		{"knob bool type", "[knobs.k]\ndebug = 1", "knobs.k.debug", "true or false"},
		{"knob enum", "[knobs.k]\nsearch_mode = \"deep\"", "knobs.k.search_mode", "line, greedy"},
		{"knob cross", "[knobs.k]\nendgamishness_min = 0.9\nendgamishness_max = 0.1", "knobs.k", "endgamishness_min"},
		{"knob set not table", "[knobs]\nk = 1", "knobs.k", "a table"},

		{"move overhead", "[game]\nmove_overhead = \"11s\"", "game.move_overhead", "0s..10s"},
		{"abort after", "[game]\nabort_after = \"1s\"", "game.abort_after", "5s..10m"},
		{"accept draw", "[game]\naccept_draw = \"sometimes\"", "game.accept_draw", "when_behind"},
		{"draw eval", "[game]\ndraw_eval_cp = 1001", "game.draw_eval_cp", "0..1000"},
		{"draw ply", "[game]\ndraw_min_ply = -1", "game.draw_min_ply", "0..1000"},
		{"resign cp", "[game]\nresign_below_cp = 0", "game.resign_below_cp", "-10000..-100"},
		{"resign moves", "[game]\nresign_moves = 0", "game.resign_moves", "1..50"},
		{"greeting placeholder", "[game]\ngreeting = \"hi {name}\"", "game.greeting", "unknown placeholder {name}"},
		{"goodbye brace", "[game]\ngoodbye = \"bye {opponent\"", "game.goodbye", "unclosed"},
		{"goodbye close brace", "[game]\ngoodbye = \"bye }\"", "game.goodbye", "unbalanced"},
		{"greeting length", "[game]\ngreeting = \"" + strings.Repeat("x", 141) + "\"", "game.greeting", "too long"},
		{"greeting rooms", "[game]\ngreeting_rooms = [\"lobby\"]", "game.greeting_rooms", "spectator"},
		{"corr time", "[game]\ncorrespondence_move_time = \"2h\"", "game.correspondence_move_time", "1s..1h"},
		{"shutdown", "[game]\nshutdown = \"now\"", "game.shutdown", "finish, abort, leave"},
		{"shutdown timeout", "[game]\nshutdown_timeout = \"2d\"", "game.shutdown_timeout", "0s..1d"},

		{"summary rooms", "[summary]\nrooms = []", "summary.rooms", "must not be empty"},
		{"summary room", "[summary]\nrooms = [\"players\"]", "summary.rooms", `did you mean "player"`},
		{"summary nodes", "[summary]\nnodes = 10", "summary.nodes", "1000..100000000"},
		{"summary engine", "[summary]\nengine = [\"\"]", "summary.engine", "program is empty"},

		{"mm interval", "[matchmaking]\ninterval = \"10s\"", "matchmaking.interval", "1m..1d"},
		{"mm rating", "[matchmaking]\nmax_rating = 4001", "matchmaking.max_rating", "1..4000"},
		{"mm rating order", "[matchmaking]\nmin_rating = 2000\nmax_rating = 1000", "matchmaking.max_rating", "at least"},
		{"mm no tcs", "[matchmaking]\nenabled = true\ntime_controls = []", "matchmaking.time_controls", "must not be empty"},
		{"mm bad tc", "[matchmaking]\ntime_controls = [\"3|2\"]", "matchmaking.time_controls", "MINUTES+SECONDS"},
		{"mm ultrabullet", "[matchmaking]\ntime_controls = [\"0.25+0\"]", "matchmaking.time_controls", "UltraBullet"},
		{"mm variant", "[matchmaking]\nvariant = \"fromPosition\"", "matchmaking.variant", "chess960"},
		{"mm variant nobody plays", "[matchmaking]\nenabled = true\nvariant = \"atomic\"", "matchmaking.variant", "no configured engine plays this variant (engines that may be chosen for it: medium)"},
		{"variant nobody plays", "[challenge]\nvariants = [\"standard\", \"crazyhouse\"]", "challenge.variants", "no configured engine plays this variant (engines that may be chosen for it: medium)"},
		{"chess960 on Maia", "[challenge]\nvariants = [\"chess960\"]\n[engines]\ndefault = \"maia-1500\"", "challenge.variants", "variants an engine plays: standard, fromPosition"},
		{"variant rule to an engine that cannot", "[challenge]\nvariants = [\"standard\", \"atomic\"]\n[engines.sf]\ntype = \"uci\"\npath = \"/x\"\n[[rules]]\nvariants = [\"atomic\"]\nengine = \"sf\"", "challenge.variants", "(engines that may be chosen for it: medium, sf)"},
		{"mm decline memory", "[matchmaking]\ndecline_memory = \"31d\"", "matchmaking.decline_memory", "0s..30d"},

		{"store path", "[store]\npath = \"\"", "store.path", "must not be empty"},

		{"analysis engine", "[analysis]\nengine = []", "analysis.engine", "must not be empty"},
		{"analysis engine name", "[analysis]\nengine = [\"sf17\"]", "analysis.engine", "unknown engine name"},
		{"analysis engine names listed", "[analysis]\nengine = [\"stockfish-16.1\"]", "analysis.engine", "sf15, sf16, sf17.1, sf18, sf19, auto"},
		{"compare engine name", "[compare]\nengine = [\"SF20\"]", "compare.engine", "unknown engine name"},
		{"analysis workers", "[analysis]\nworkers = 0", "analysis.workers", "1..64"},
		{"analysis threads", "[analysis]\nthreads = 65", "analysis.threads", "1..64"},
		{"analysis hash", "[analysis]\nhash_mb = 0", "analysis.hash_mb", "1..65536"},
		{"analysis preset", "[analysis]\npreset = \"fast\"", "analysis.preset", "quick, lichess, lichess-sf15, lichess-sf16, lichess-sf16-2.8, lichess-sf17.1, lichess-sf18, deep"},
		{"analysis nodes", "[analysis]\nnodes = 10", "analysis.nodes", "1000..1000000000"},
		{"analysis depth", "[analysis]\ndepth = 100", "analysis.depth", "1..99"},
		{"analysis both", "[analysis]\nnodes = 100000\ndepth = 20", "analysis.depth", "at most one"},

		{"compare users", "[compare]\nenabled = true", "compare.users", "must not be empty"},
		{"compare user", "[compare]\nusers = [\"-x-\"]", "compare.users", "Lichess username"},
		{"compare interval", "[compare]\ninterval = \"10m\"", "compare.interval", "1h..30d"},
		{"compare max", "[compare]\nmax_games = 0", "compare.max_games", "1..300"},
		{"compare since", "[compare]\nsince = \"10m\"", "compare.since", "1h..3650d"},
		{"compare preset", "[compare]\npreset = \"x\"", "compare.preset", "quick"},
		{"compare nodes", "[compare]\nnodes = 5", "compare.nodes", "1000.."},

		{"models threads", "[models]\nthreads = 65", "models.threads", "0..64"},
		{"models runtime", "[models]\nruntime = \"tensorflow\"", "models.runtime", "onnx, go"},

		{"ewr threshold", "[ewr]\nthreshold = 0.05", "ewr.threshold", "0.1, 0.01 or 0.001"},
		{"ewr depth", "[ewr]\ndepth = 16", "ewr.depth", "15, 20 or 25"},
		{"ewr loss", "[ewr]\nloss = 0.5", "ewr.loss", "-1..0"},
		{"ewr maia", "[ewr]\nmaia = 1000", "ewr.maia", "1100..1900"},
		{"ewr opponent maia", "[ewr]\nopponent_maia = 2000", "ewr.opponent_maia", "1100..1900"},

		{"web addr", "[web]\naddr = \"localhost\"", "web.addr", "HOST:PORT"},
		{"web port", "[web]\naddr = \"127.0.0.1:99999\"", "web.addr", "0..65535"},
		{"web public", "[web]\naddr = \"0.0.0.0:8090\"", "web.access_token_file", "not a loopback"},
		{"web all interfaces", "[web]\naddr = \":8090\"", "web.access_token_file", "not a loopback"},
		{"web plain HTTP off loopback", "[web]\naddr = \"0.0.0.0:8090\"\naccess_token_file = \"/t\"", "web.tls_cert_file", "not a loopback"},
		{"web certificate without key", "[web]\ntls_cert_file = \"/c\"", "web.tls_key_file", "go together"},

		{"log level", "[log]\nlevel = \"loud\"", "log.level", "trace, debug"},
		{"log format", "[log]\nformat = \"xml\"", "log.format", "auto, console, json"},
	}
	checkRefusals(t, cases, validationRuleChecks)
}

// validationRuleChecks: the problem names its line (but for the web token,
// which has none) and says what is allowed.
func validationRuleChecks(t *testing.T, c refusal, e FieldError) {
	t.Helper()
	if e.Line == 0 && !strings.HasPrefix(c.key, "web.access_token_file") && !strings.HasPrefix(c.key, "web.tls_cert_file") {
		t.Errorf("no line: %s", e.Error())
	}
	saysAllowed(t, c, e)
}

// TestValidValues: boundary and alternative values that must be accepted.
func TestValidValues(t *testing.T) {
	for _, src := range []string{
		"[lichess]\nurl = \"http://127.0.0.1:8080\"\nstream_timeout = \"10s\"",
		"[lichess]\nurl = \"https://lichess.org/\"",
		"[ratelimit]\nseconds = 3600",
		"[challenge]\nmin_base = 10800\nmax_base = 10800\nmin_days = 14\nmax_days = 14",
		"[challenge]\nallow_bots = false\nrated = false\nmin_rating = 1\nmax_rating = 4000\nmax_games = 100\nmax_games_per_opponent = 100",
		"[challenge]\nbot_daily_budget = 0\nqueue = false",
		"[[rules]]\nengine = \"maia-1900\"\nbot = true\nhuman = false\ntitles = [\"none\", \"BOT\"]",
		"[[rules]]\nengine = \"knobs\"\nrated = false",
		"[engines]\ndefault = \"mine\"\n[engines.mine]\ntype = \"knobs\"\nknobs = \"aggressive\"\n[knobs.aggressive]\nopponent_ply_depth = 12\nsearch_mode = \"greedy\"\ntrade_ply_depth_equivalent = 1",
		"[engines.sf]\ntype = \"uci\"\npath = \"/usr/games/stockfish\"\nskill_level = 0\nelo = 0",
		"[engines.m]\ntype = \"maia\"\nrating = 1900\ntemperature = 2",
		"[game]\ngreeting = \"\"\ngoodbye = \"\"\ngreeting_rooms = []\nshutdown_timeout = \"0s\"\nmove_overhead = \"0s\"",
		"[game]\ngreeting = \"" + strings.Repeat("é", 140) + "\"",
		"[summary]\nenabled = false\nrooms = []\nengine = [\"/usr/games/stockfish\", \"--x\"]",
		"[engines]\ndefault = \"sf\"\n[engines.sf]\ntype = \"uci\"\npath = \"/usr/games/stockfish\"\n" +
			"[matchmaking]\nenabled = true\ntime_controls = [\"0.5+1\", \"1+0\", \"180+180\", \"0+1\"]\nvariant = \"chess960\"",
		// Chess960 accepted: a rule sends it to an engine that plays it.
		"[challenge]\nvariants = [\"standard\", \"chess960\"]\n[engines.sf]\ntype = \"uci\"\npath = \"/x\"\n" +
			"[[rules]]\nvariants = [\"chess960\"]\nengine = \"sf\"",
		"[analysis]\npreset = \"deep\"\ndepth = 99",
		"[analysis]\nnodes = 1000",
		"[analysis]\nengine = [\"sf18\"]\n[compare]\nengine = [\"Stockfish-19\"]",
		"[analysis]\nengine = [\"auto\"]\n[summary]\nengine = [\"stockfish\"]",
		"[analysis]\nengine = [\"sf15\", \"--flag\"]", // a program named sf15 with an argument
		"[compare]\nenabled = true\nusers = [\"DrNykterstein\", \"a-b_c\"]\nsince = \"2w\"\ninterval = \"1.5d\"",
		"[ewr]\nthreshold = 0.001\ndepth = 25\nloss = -1\nmaia = 1100\nopponent_maia = 1900",
		"[ewr]\nthreshold = 1e-2\nloss = 0",
		"[web]\naddr = \"[::1]:8090\"",
		"[web]\naddr = \"localhost:0\"",
		"[web]\naddr = \"0.0.0.0:8090\"\naccess_token_file = \"/etc/outpost/web.token\"\ntls_cert_file = \"/etc/outpost/web.crt\"\ntls_key_file = \"/etc/outpost/web.key\"",
		"[web]\naddr = \"0.0.0.0:8090\"\naccess_token_file = \"/etc/outpost/web.token\"\nplain_http = true",
		"[log]\nlevel = \"off\"\nformat = \"json\"",
	} {
		if _, err := Parse([]byte(src), "valid"); err != nil {
			t.Errorf("%q refused: %v", src, err)
		}
	}
}

// TestModelsRuntimeNeedsCgo: runtime "onnx" is refused in a build without
// cgo, naming the key and the pure-Go alternative; "go" is valid in every
// build.
func TestModelsRuntimeNeedsCgo(t *testing.T) {
	for _, rt := range []string{"go", "onnx", ""} {
		_, err := Parse([]byte("[models]\nruntime = \""+rt+"\"\n"), "test.toml")
		bad := rt == models.RuntimeONNX && !models.HasONNXRuntime
		if bad != (err != nil) {
			t.Errorf("runtime %q (cgo %v): error %v", rt, models.HasONNXRuntime, err)
			continue
		}
		if bad && (!strings.Contains(err.Error(), "models.runtime") || !strings.Contains(err.Error(), "cgo")) {
			t.Errorf("runtime %q: error %v should name models.runtime and cgo", rt, err)
		}
	}
}
