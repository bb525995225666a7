package config

import (
	"net"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/outpostchess/outpost/analysis/duration"
	"github.com/outpostchess/outpost/models"
)

// Validate checks every value of the configuration and returns all
// problems at once as ValidationErrors (nil when there are none). Each
// names its key, the bad value and what is allowed.
func (c *Config) Validate() error { return c.validate().err() }

// validate runs every section's checks.
func (c *Config) validate() ValidationErrors {
	ch := &checker{}
	c.checkLichess(ch)
	ch.intRange("ratelimit.seconds", c.RateLimit.Seconds, 60, 3600, "seconds")
	c.checkChallenge(ch)
	c.checkEngines(ch)
	c.checkRules(ch)
	c.checkVariantsPlayable(ch)
	c.checkKnobs(ch)
	c.checkGame(ch)
	c.checkSummary(ch)
	c.checkVerify(ch)
	c.checkMatchmaking(ch)
	c.checkTournaments(ch)
	c.checkStore(ch)
	c.checkAnalysis(ch)
	c.checkCompare(ch)
	c.checkModels(ch)
	c.checkEWR(ch)
	c.checkCluster(ch)
	c.checkWeb(ch)
	c.checkLog(ch)
	c.checkLogFile(ch)
	c.checkRecords(ch)
	c.checkProvider(ch)
	return ch.errs
}

func (c *Config) checkLichess(ch *checker) {
	l := c.Lichess
	if u, err := url.Parse(l.URL); err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" ||
		u.RawQuery != "" || u.Fragment != "" {
		ch.fail("lichess.url", l.URL, "not a base URL", "an http(s) URL without query, such as https://lichess.org")
	} else if u.User != nil {
		// not echoed: the value holds a password, which error messages
		// naming the URL would then show
		ch.fail("lichess.url", nil, "holds a user name or password", "an http(s) URL without user:password@ (the token comes from lichess.token_file or LICHESS_TOKEN)")
	}
	if looksLikeToken(l.TokenFile) {
		ch.fail("lichess.token_file", hidden, "this looks like a token, not a file name; the token must never be in the config file",
			"the path of a file holding the token (readable only by you), or leave it empty and set LICHESS_TOKEN")
	}
	ch.durRange("lichess.stream_timeout", l.StreamTimeout, 10*time.Second, 10*time.Minute)
	ch.durRange("lichess.request_timeout", l.RequestTimeout, time.Second, 10*time.Minute)
	checkServiceURL(ch, "lichess.explorer_url", l.ExplorerURL)
	checkServiceURL(ch, "lichess.tablebase_url", l.TablebaseURL)
}

func (c *Config) checkChallenge(ch *checker) {
	p := c.Challenge
	ch.listOf("challenge.variants", p.Variants, Variants(), true)
	c.checkSpeeds(ch, "challenge.speeds", p.Speeds, true)
	if ch.intRange("challenge.min_base", p.MinBase, 0, maxClockBase, "seconds") &&
		ch.intRange("challenge.max_base", p.MaxBase, 0, maxClockBase, "seconds") {
		ch.ordered("challenge.max_base", "challenge.min_base", p.MinBase, p.MaxBase, false)
	}
	if ch.intRange("challenge.min_increment", p.MinIncrement, 0, maxClockIncrement, "seconds") &&
		ch.intRange("challenge.max_increment", p.MaxIncrement, 0, maxClockIncrement, "seconds") {
		ch.ordered("challenge.max_increment", "challenge.min_increment", p.MinIncrement, p.MaxIncrement, false)
	}
	if ch.intRange("challenge.min_days", p.MinDays, 1, maxCorrDays, "days") &&
		ch.intRange("challenge.max_days", p.MaxDays, 1, maxCorrDays, "days") {
		ch.ordered("challenge.max_days", "challenge.min_days", p.MinDays, p.MaxDays, false)
	}
	if !p.Rated && !p.Casual {
		ch.fail("challenge.casual", false, "rated and casual are both false, so every challenge would be declined",
			"at least one of challenge.rated and challenge.casual true")
	}
	if !p.AllowBots && !p.AllowHumans {
		ch.fail("challenge.allow_humans", false, "allow_bots and allow_humans are both false, so every challenge would be declined",
			"at least one of challenge.allow_bots and challenge.allow_humans true")
	}
	if ch.intRangeOrZero("challenge.min_rating", p.MinRating, 1, maxRating, "", "no bound") &&
		ch.intRangeOrZero("challenge.max_rating", p.MaxRating, 1, maxRating, "", "no bound") {
		ch.ordered("challenge.max_rating", "challenge.min_rating", p.MinRating, p.MaxRating, true)
	}
	ch.users("challenge.allow_list", p.AllowList)
	ch.users("challenge.block_list", p.BlockList)
	for _, u := range p.AllowList {
		if slices.ContainsFunc(p.BlockList, func(b string) bool { return strings.EqualFold(b, u) }) {
			ch.fail("challenge.block_list", u, "user is in both allow_list and block_list", "a user in at most one of the two lists")
		}
	}
	ch.intRange("challenge.max_games", p.MaxGames, 1, 100, "games")
	ch.intRange("challenge.max_games_per_opponent", p.MaxGamesPerOpponent, 1, max(1, p.MaxGames), "games (at most challenge.max_games)")
	ch.intRange("challenge.bot_daily_budget", p.BotDailyBudget, 0, maxBotDailyBudget, "games a day")
	ch.intRange("challenge.queue_size", p.QueueSize, 1, 100, "challenges")
	ch.intRange("challenge.max_correspondence_games", p.MaxCorrespondenceGames, 1, 100, "games")
	ch.intRangeOrZero("challenge.rating_window_below", p.RatingWindowBelow, 1, maxRating, "rating points", "no bound")
	ch.intRangeOrZero("challenge.rating_window_above", p.RatingWindowAbove, 1, maxRating, "rating points", "no bound")
	for _, speed := range sortedKeys(p.MinIncrementPerSpeed) {
		key := "challenge.min_increment_per_speed." + speed
		if !slices.Contains(RealTimeSpeeds(), speed) {
			ch.fail(key, speed, "not a real-time speed"+didYouMean(speed, RealTimeSpeeds()), strings.Join(RealTimeSpeeds(), ", "))
			continue
		}
		ch.intRange(key, p.MinIncrementPerSpeed[speed], 0, maxClockIncrement, "seconds")
	}
	if p.MaxGames >= 1 {
		ch.intRange("challenge.reserved_human_slots", p.ReservedHumanSlots, 0, p.MaxGames-1,
			"slots (fewer than challenge.max_games, so that bots keep at least one)")
	}
	if p.ReservedHumanSlots > 0 && !p.AllowHumans {
		ch.fail("challenge.reserved_human_slots", p.ReservedHumanSlots, "slots reserved for humans, but allow_humans is false",
			"0, or allow_humans = true")
	}
}

// RealTimeSpeeds lists the real-time speeds BOT accounts may play.
func RealTimeSpeeds() []string { return []string{"bullet", "blitz", "rapid", "classical"} }

// sortedKeys returns a map's keys in order, so that problems come out in a
// stable order.
func sortedKeys(m map[string]int) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// checkSpeeds checks a list of speeds, explaining UltraBullet.
func (c *Config) checkSpeeds(ch *checker, key string, speeds []string, nonEmpty bool) {
	var rest []string
	for _, s := range speeds {
		if s == "ultraBullet" {
			ch.fail(key, s, "Lichess does not let BOT accounts play UltraBullet", strings.Join(BotSpeeds(), ", "))
			continue
		}
		rest = append(rest, s)
	}
	if nonEmpty && len(speeds) == 0 {
		ch.listOf(key, speeds, BotSpeeds(), true)
		return
	}
	ch.listOf(key, rest, BotSpeeds(), false)
}

func (c *Config) checkRules(ch *checker) {
	for i, r := range c.Rules {
		k := func(field string) string { return indexKey("rules", i) + "." + field }
		if r.Engine == "" {
			ch.fail(k("engine"), nil, "missing: every rule names the engine it selects", strings.Join(c.EngineNames(), ", "))
		} else if _, err := c.ResolveEngine(r.Engine); err != nil {
			ch.fail(k("engine"), r.Engine, "unknown engine"+didYouMean(r.Engine, c.EngineNames()),
				strings.Join(c.EngineNames(), ", ")+" (or define it in [engines."+r.Engine+"])")
		}
		c.checkSpeeds(ch, k("speeds"), r.Speeds, false)
		ch.listOf(k("variants"), r.Variants, Variants(), false)
		ch.listOf(k("titles"), r.Titles, Titles(), false)
		if ch.intRangeOrZero(k("min_rating"), r.MinRating, 1, maxRating, "", "no bound") &&
			ch.intRangeOrZero(k("max_rating"), r.MaxRating, 1, maxRating, "", "no bound") {
			ch.ordered(k("max_rating"), k("min_rating"), r.MinRating, r.MaxRating, true)
		}
		if r.Bot != nil && r.Human != nil && *r.Bot == *r.Human {
			ch.fail(k("human"), *r.Human, "contradicts bot = "+strconv.FormatBool(*r.Bot)+", so the rule can never match",
				"human = !bot, or set only one of bot and human")
		}
		ch.users(k("users"), r.Users)
	}
}

func (c *Config) checkGame(ch *checker) {
	g := c.Game
	ch.durRange("game.move_overhead", g.MoveOverhead, 0, 10*time.Second)
	ch.durRange("game.abort_after", g.AbortAfter, 5*time.Second, 10*time.Minute)
	ch.oneOf("game.accept_draw", g.AcceptDraw, []string{"never", "always", "when_behind", "by_eval"})
	ch.intRange("game.draw_eval_cp", g.DrawEvalCP, 0, 1000, "centipawns")
	ch.intRange("game.draw_min_ply", g.DrawMinPly, 0, 1000, "plies")
	ch.intRange("game.resign_below_cp", g.ResignBelowCP, -10000, -100, "centipawns")
	ch.intRange("game.resign_moves", g.ResignMoves, 1, 50, "moves")
	checkTemplate(ch, "game.greeting", g.Greeting)
	checkTemplate(ch, "game.goodbye", g.Goodbye)
	ch.listOf("game.greeting_rooms", g.GreetingRooms, chatRooms(), false)
	ch.durRange("game.correspondence_move_time", g.CorrespondenceMoveTime, time.Second, time.Hour)
	ch.oneOf("game.shutdown", g.Shutdown, []string{"finish", "abort", "leave"})
	ch.durRange("game.shutdown_timeout", g.ShutdownTimeout, 0, 24*time.Hour)
	ch.listOf("game.engine_output_rooms", g.EngineOutputRooms, chatRooms(), false)
	ch.intRange("game.takebacks_per_game", g.TakebacksPerGame, 0, 100, "takebacks (0 declines every offer)")
	ch.intRange("game.offer_draw_moves", g.OfferDrawMoves, 1, 100, "consecutive own moves")
}

// chatRooms lists the Lichess game chat rooms.
func chatRooms() []string { return []string{"player", "spectator"} }

// TemplateFields lists the placeholders greeting and goodbye templates may
// use.
func TemplateFields() []string { return []string{"{engine}", "{opponent}"} }

// checkTemplate checks a chat template: known placeholders, balanced braces
// and at most one chat line.
func checkTemplate(ch *checker, key, t string) {
	allowed := "text of at most 140 characters using " + strings.Join(TemplateFields(), " and ")
	if n := len([]rune(t)); n > chatLineMax {
		ch.fail(key, t, "too long ("+strconv.Itoa(n)+" characters)", allowed)
	}
	rest := t
	for {
		open := strings.IndexAny(rest, "{}")
		if open < 0 {
			return
		}
		if rest[open] == '}' {
			ch.fail(key, t, "unbalanced '}'", allowed)
			return
		}
		end := strings.IndexByte(rest[open:], '}')
		if end < 0 {
			ch.fail(key, t, "unclosed '{'", allowed)
			return
		}
		field := rest[open : open+end+1]
		if !slices.Contains(TemplateFields(), field) {
			ch.fail(key, t, "unknown placeholder "+field, allowed)
		}
		rest = rest[open+end+1:]
	}
}

func (c *Config) checkSummary(ch *checker) {
	s := c.Summary
	ch.listOf("summary.rooms", s.Rooms, chatRooms(), s.Enabled)
	ch.intRange("summary.nodes", s.Nodes, 1000, 100_000_000, "nodes")
	ch.command("summary.engine", s.Engine, false)
	ch.durRange("summary.timeout", s.Timeout, time.Minute, 24*time.Hour)
	ch.durRange("summary.ewr_timeout", s.EWRTimeout, 10*time.Second, time.Hour)
	ch.oneOf("summary.ewr_mode", s.EWRMode, []string{"settle", "exact", "fast"})
	ch.intRange("summary.ewr_engines_in_game", s.EWREnginesInGame, 0, 64, "engines")
}

func (c *Config) checkVerify(ch *checker) {
	v := c.Verify
	ch.durRange("verify.window", v.Window, time.Hour, 30*24*time.Hour)
	ch.durRange("verify.first_delay", v.FirstDelay, 10*time.Second, 6*time.Hour)
	ch.durRange("verify.max_delay", v.MaxDelay, 10*time.Second, 24*time.Hour)
	if v.MaxDelay < v.FirstDelay {
		ch.fail("verify.max_delay", rawValue(strconv.Quote(duration.Format(v.MaxDelay))),
			"shorter than verify.first_delay ("+duration.Format(v.FirstDelay)+")", "at least verify.first_delay, at most 1d")
	}
}

func (c *Config) checkMatchmaking(ch *checker) {
	m := c.Matchmaking
	ch.durRange("matchmaking.interval", m.Interval, time.Minute, 24*time.Hour)
	if ch.intRangeOrZero("matchmaking.min_rating", m.MinRating, 1, maxRating, "", "no bound") &&
		ch.intRangeOrZero("matchmaking.max_rating", m.MaxRating, 1, maxRating, "", "no bound") {
		ch.ordered("matchmaking.max_rating", "matchmaking.min_rating", m.MinRating, m.MaxRating, true)
	}
	if m.Enabled && len(m.TimeControls) == 0 {
		ch.fail("matchmaking.time_controls", rawValue("[]"), "must not be empty when matchmaking is enabled", `time controls such as ["3+2", "1+0"]`)
	}
	for _, s := range m.TimeControls {
		tc, err := ParseTimeControl(s)
		switch {
		case err != nil:
			ch.fail("matchmaking.time_controls", s, "not a time control", `MINUTES+SECONDS such as "3+2" (minutes 0..180, seconds 0..180)`)
		case tc.Speed() == "ultraBullet":
			ch.fail("matchmaking.time_controls", s, "UltraBullet: Lichess does not let BOT accounts play it",
				"an estimated duration (minutes×60 + 40×seconds) of at least 30 seconds")
		}
	}
	variants := slices.DeleteFunc(Variants(), func(v string) bool { return v == "fromPosition" })
	ch.oneOf("matchmaking.variant", m.Variant, variants)
	ch.durRange("matchmaking.decline_memory", m.DeclineMemory, 0, 30*24*time.Hour)
	ch.users("matchmaking.allow_list", m.AllowList)
	ch.users("matchmaking.block_list", m.BlockList)
	ch.durRange("matchmaking.block_list_refresh", m.BlockListRefresh, time.Minute, 7*24*time.Hour)
	for _, src := range m.BlockListSources {
		if err := CheckBlockListSource(src); err != nil {
			ch.fail("matchmaking.block_list_sources", src, err.Error(), "a file path or an http(s) URL")
		}
	}
	blocked := m.BlockList
	if m.IncludeChallengeBlockList {
		blocked = append(slices.Clone(blocked), c.Challenge.BlockList...)
	}
	for _, u := range m.AllowList {
		if slices.ContainsFunc(blocked, func(b string) bool { return strings.EqualFold(b, u) }) {
			ch.fail("matchmaking.allow_list", u, "bot is also blocked (matchmaking.block_list, or challenge.block_list with include_challenge_block_list)",
				"a bot in at most one of the allow and block lists")
		}
	}
}

func (c *Config) checkStore(ch *checker) {
	if strings.TrimSpace(c.Store.Path) == "" {
		ch.fail("store.path", c.Store.Path, "must not be empty", `a file name such as "outpost.db"`)
	}
}

// Presets lists the analysis budget presets.
func Presets() []string {
	return []string{"quick", "lichess", "lichess-sf15", "lichess-sf16", "lichess-sf16-2.8", "lichess-sf17.1", "lichess-sf18", "deep"}
}

// ComparePresets lists the presets of comparisons: Presets and by-date
// (each game with the preset of its period of Lichess's analysis).
func ComparePresets() []string { return append(Presets(), "by-date") }

func (c *Config) checkAnalysis(ch *checker) {
	a := c.Analysis
	ch.command("analysis.engine", a.Engine, true)
	ch.intRange("analysis.workers", a.Workers, 1, 64, "")
	ch.intRange("analysis.threads", a.Threads, 1, 64, "")
	ch.intRange("analysis.hash_mb", a.HashMB, 1, 65536, "MiB")
	ch.oneOf("analysis.preset", a.Preset, Presets())
	ch.intRangeOrZero("analysis.nodes", a.Nodes, 1000, 1_000_000_000, "", "from preset")
	ch.intRangeOrZero("analysis.depth", a.Depth, 1, 99, "", "from preset")
	if a.Nodes != 0 && a.Depth != 0 {
		ch.fail("analysis.depth", a.Depth, "set together with analysis.nodes", "at most one of analysis.nodes and analysis.depth (0 = from preset)")
	}
}

func (c *Config) checkCompare(ch *checker) {
	p := c.Compare
	if p.Enabled && len(p.Users) == 0 {
		ch.fail("compare.users", rawValue("[]"), "must not be empty when compare is enabled", `Lichess usernames such as ["alice"]`)
	}
	ch.users("compare.users", p.Users)
	ch.durRange("compare.interval", p.Interval, time.Hour, 30*24*time.Hour)
	ch.intRange("compare.max_games", p.MaxGames, 1, 300, "games")
	ch.durRange("compare.since", p.Since, time.Hour, 3650*24*time.Hour)
	ch.oneOf("compare.preset", p.Preset, ComparePresets())
	ch.intRangeOrZero("compare.nodes", p.Nodes, 1000, 1_000_000_000, "", "from preset")
	ch.command("compare.engine", p.Engine, true)
}

func (c *Config) checkModels(ch *checker) {
	ch.intRange("models.threads", c.Models.Threads, 0, 64, "(0 = automatic)")
	ch.oneOf("models.runtime", c.Models.Runtime, []string{"", models.RuntimeONNX, models.RuntimeGo})
	if c.Models.Runtime == models.RuntimeONNX && !models.HasONNXRuntime {
		ch.fail("models.runtime", c.Models.Runtime, "this build has no cgo (CGO_ENABLED=0), which ONNX Runtime needs", `"go" or "" (the pure-Go Maia-1), or a cgo build`)
	}
}

// EWRThresholds lists the allowed expected-winrate probability thresholds.
func EWRThresholds() []float64 { return []float64{0.1, 0.01, 0.001} }

// EWRDepths lists the allowed expected-winrate Stockfish depths.
func EWRDepths() []int { return []int{15, 20, 25} }

func (c *Config) checkEWR(ch *checker) {
	e := c.EWR
	if !slices.ContainsFunc(EWRThresholds(), func(t float64) bool { return closeTo(e.Threshold, t) }) {
		ch.fail("ewr.threshold", e.Threshold, "not allowed", "0.1, 0.01 or 0.001")
	}
	if !slices.Contains(EWRDepths(), e.Depth) {
		ch.fail("ewr.depth", e.Depth, "not allowed", "15, 20 or 25")
	}
	ch.floatRange("ewr.loss", e.Loss, -1, 0)
	ch.intRange("ewr.maia", e.Maia, 1100, 1900, "(nearest Maia model)")
	ch.intRangeOrZero("ewr.opponent_maia", e.OpponentMaia, 1100, 1900, "", "same as ewr.maia")
}

// closeTo compares floats written in a config file.
func closeTo(a, b float64) bool { return a > b*(1-1e-9) && a < b*(1+1e-9) }

func (c *Config) checkWeb(ch *checker) {
	w := c.Web
	host, port, err := net.SplitHostPort(w.Addr)
	if err != nil {
		ch.fail("web.addr", w.Addr, "not a listen address", `HOST:PORT such as "127.0.0.1:8090"`)
		return
	}
	if p, err := strconv.Atoi(port); err != nil || p < 0 || p > 65535 {
		ch.fail("web.addr", w.Addr, "bad port", "a port 0..65535")
		return
	}
	if !IsLoopback(host) && strings.TrimSpace(w.AccessTokenFile) == "" {
		ch.fail("web.access_token_file", nil, "required because web.addr "+strconv.Quote(w.Addr)+" is not a loopback address",
			"the path of a file holding the console's access token, or a loopback web.addr such as 127.0.0.1:8090")
	}
	if (strings.TrimSpace(w.TLSCertFile) == "") != (strings.TrimSpace(w.TLSKeyFile) == "") {
		ch.fail("web.tls_key_file", w.TLSKeyFile, "web.tls_cert_file and web.tls_key_file go together", "both files (PEM), or neither")
	} else if !IsLoopback(host) && w.TLSCertFile == "" && !w.PlainHTTP {
		ch.fail("web.tls_cert_file", nil, "required because web.addr "+strconv.Quote(w.Addr)+" is not a loopback address (plain HTTP would carry the access token in clear)",
			"web.tls_cert_file and web.tls_key_file, or web.plain_http = true when TLS ends in front of the console")
	}
}

// IsLoopback reports whether a listen host only accepts local connections:
// "localhost" or a loopback IP. An empty host (all interfaces) is not.
func IsLoopback(host string) bool {
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// LogLevels lists the accepted log levels.
func LogLevels() []string { return []string{"trace", "debug", "info", "warn", "error", "off"} }

func (c *Config) checkLog(ch *checker) {
	ch.oneOf("log.level", c.Log.Level, LogLevels())
	ch.oneOf("log.format", c.Log.Format, []string{"auto", "console", "json"})
}
