package sandbox

import (
	"errors"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/outpostchess/outpost/bots/board"
)

// challenge is one pending (or answered) challenge.
type challenge struct {
	id           string
	url          string
	challenger   *account
	dest         *account
	variant      string
	fen          string
	rated        bool
	source       string   // lila's game source of the game it starts: SourceFriend unless Server.Pair
	rules        []string // lila's GameRules of the game it starts (gamerules.go), in lila's order
	tournament   string   // the arena of an arena pairing
	clock        *timeControl
	days         int
	color        string // white, black or random
	finalColor   string // the challenger's color once decided
	status       string
	declineKey   string
	keepAlive    bool
	keepAliveSub *subscriber
	timer        *time.Timer
	createdAt    time.Time
}

// stopTimer cancels the expiry timer.
func (c *challenge) stopTimer() {
	if c.timer != nil {
		c.timer.Stop()
		c.timer = nil
	}
}

// declineReasons maps the decline reason keys (lower case) to their form
// names and English texts, as Lichess has them.
var declineReasons = map[string][2]string{
	"generic":     {"generic", "I'm not accepting challenges at the moment."},
	"later":       {"later", "This is not the right time for me, please ask again later."},
	"toofast":     {"tooFast", "This time control is too fast for me, please challenge again with a slower game."},
	"tooslow":     {"tooSlow", "This time control is too slow for me, please challenge again with a faster game."},
	"timecontrol": {"timeControl", "I'm not accepting challenges with this time control."},
	"rated":       {"rated", "Please send me a rated challenge instead."},
	"casual":      {"casual", "Please send me a casual challenge instead."},
	"standard":    {"standard", "I'm not accepting variant challenges right now."},
	"variant":     {"variant", "I'm not willing to play this variant right now."},
	"nobot":       {"noBot", "I'm not accepting challenges from bots."},
	"onlybot":     {"onlyBot", "I'm only accepting challenges from bots."},
}

// validClockLimits reports whether a clock.limit in seconds is one Lichess
// accepts: 0, 15, 30, 45, 60, 90 or a multiple of 60 up to 10800.
func validClockLimit(sec int) bool {
	switch sec {
	case 0, 15, 30, 45, 60, 90:
		return true
	}
	return sec > 0 && sec <= 10800 && sec%60 == 0
}

// challengeForm is a parsed challenge creation form.
type challengeForm struct {
	clock     *timeControl
	days      int
	rated     bool
	color     string
	variant   string
	fen       string
	keepAlive bool
	rules     []string
}

// maxIncrement is the largest clock increment Lichess accepts, in seconds
// (the spec's 60 is out of date: Lichess's lobby and API allow 180).
const maxIncrement = 180

// parseChallengeForm reads and checks the creation parameters, sent as a
// form or as a JSON body (see readParams). Problems with the values are
// returned per field, as Lichess reports them; apiErr is an unreadable body.
func parseChallengeForm(r *http.Request) (f challengeForm, errs fieldErrors, apiErr *apiError) {
	vals, apiErr := readParams(r)
	if apiErr != nil {
		return f, nil, apiErr
	}
	f = challengeForm{color: "random", variant: "standard"}
	errs = fieldErrors{}
	get := func(k string) string { return strings.TrimSpace(vals.Get(k)) }
	boolField := func(k string, dst *bool) {
		if v := get(k); v != "" {
			b, err := strconv.ParseBool(v)
			if err != nil {
				errs.add(k, msgBoolean)
				return
			}
			*dst = b
		}
	}
	parseChallengeTime(get, errs, &f)
	boolField("rated", &f.rated)
	boolField("keepAliveStream", &f.keepAlive)
	if v := get("color"); v != "" {
		if v != "white" && v != "black" && v != "random" {
			errs.add("color", msgInvalid)
		} else {
			f.color = v
		}
	}
	if v := get("rules"); v != "" {
		if rules, ok := parseRules(v); ok {
			f.rules = rules
		} else {
			errs.add("rules", msgInvalid) // lila: every name a GameRule
		}
	}
	if v := get("variant"); v != "" {
		if _, ok := lichessVariants[v]; !ok {
			errs.add("variant", msgInvalid)
		} else {
			f.variant = v
		}
	}
	parseChallengeFEN(get("fen"), errs, &f)
	if len(errs) == 0 {
		errs = nil
	}
	return f, errs, nil
}

// parseChallengeFEN checks a challenge's fen (empty: none) against its
// variant as lila does and records it in f, or a field error in errs.
// lila's API challenge form (SetupForm.api, modules/setup/src/main/
// SetupForm.scala) trims the fen and rewrites one whose full-move number
// is 150 or more (lila.common.Form.fen.truncateMoveNumber);
// ApiConfig.autoVariant (modules/setup/src/main/ApiConfig.scala) makes a
// standard challenge with any position but the start itself fromPosition;
// ApiConfig.validFen is scalachess's Variant.isValidInitialFen: for
// fromPosition a fen that FenReader.read reads and
// Position.playable(strict = false) accepts (startProblem), for chess960
// one of the 960 starts, and a fromPosition challenge needs a fen.
func parseChallengeFEN(v string, errs fieldErrors, f *challengeForm) {
	switch {
	case v == "" && f.variant == "fromPosition":
		errs.add("fen", "Invalid position: a fromPosition challenge needs a fen")
		return
	case v == "":
		return
	case !playableVariant(f.variant):
		errs.add("fen", msgInvalid) // Lichess: a position only in standard, fromPosition and chess960
		return
	}
	v = truncateMoveNumber(v)
	if f.variant == "standard" && v == board.StartFEN {
		// autoVariant keeps it standard, and lila's Challenge.make keeps
		// no position for a standard challenge.
		return
	}
	if len(strings.Fields(v)) == 4 {
		v += " 0 1"
	}
	// As on Lichess: any playable position makes the game fromPosition,
	// except in Chess960, where it must be one of the 960 starts.
	chess960 := f.variant == "chess960"
	_, is960 := board.Chess960Number(v)
	switch problem := startProblem(v, chess960); {
	case problem != "":
		errs.add("fen", problem)
	case chess960 && !is960:
		errs.add("fen", "Invalid position: not a Chess960 starting position")
	case f.rated:
		errs.add("global", "Games from a position cannot be rated")
	default:
		f.fen = v
		if !chess960 {
			f.variant = "fromPosition"
		}
	}
}

// startProblem is why lila refuses fen as a challenge's position, or "".
// board.FromFENPlayable is scalachess's FenReader.read and the non-strict
// Variant.validSide (one king a side, no pawn on the first or last rank,
// the side not to move not in check: no limit on material, as Lichess
// counts neither pieces nor promotions); it drops what the reader drops (a
// castling right without its king or rook, an impossible en passant
// square). Position.playable also wants no end: mate, stalemate or an
// automatic draw, which for a position read without its half-move clock
// (FenReader.read keeps none) is insufficient material, not fifty moves.
func startProblem(fen string, chess960 bool) string {
	b, err := board.FromFENPlayable(fen, chess960)
	var pe *board.PositionError
	switch {
	case errors.As(err, &pe):
		return "Invalid position: " + pe.Problem
	case err != nil:
		return msgInvalid
	}
	pos, err := newVariantPosition(b.FEN(), b.Chess960())
	if err != nil {
		return msgInvalid
	}
	if e := pos.ending(); e != ongoing && e != endFiftyMoves {
		return "Invalid position"
	}
	return ""
}

// truncateMoveNumber is lila's Form.fen.truncateMoveNumber (modules/
// common/src/main/Form.scala): a fen whose full-move number (read as
// scalachess reads it, at most 500) is 150 or more is written again, as
// scalachess's Fen.write writes the position read, with that number
// modulo 100 ("keep the start ply low"); any other fen is left as it is.
func truncateMoveNumber(fen string) string {
	b, err := board.FromFENPlayable(fen, false)
	if err != nil || b.FullmoveNumber() < 150 {
		return fen
	}
	pos, err := newVariantPosition(b.FEN(), b.Chess960())
	if err != nil {
		return fen
	}
	f := strings.Fields(pos.fen())
	f[5] = strconv.Itoa(b.FullmoveNumber() % 100)
	return strings.Join(f, " ")
}

// parseChallengeTime reads the clock (clock.limit and clock.increment, both
// required when either is set) or the correspondence days.
func parseChallengeTime(get func(string) string, errs fieldErrors, f *challengeForm) {
	limitStr, incStr, daysStr := get("clock.limit"), get("clock.increment"), get("days")
	number := func(key, v string) (int, bool) {
		if v == "" {
			errs.add(key, msgRequired)
			return 0, false
		}
		n, err := strconv.Atoi(v)
		if err != nil {
			errs.add(key, msgNumber)
			return 0, false
		}
		return n, true
	}
	switch {
	case limitStr != "" || incStr != "":
		if daysStr != "" {
			errs.add("global", "Set either a clock or days, not both")
			return
		}
		limit, okL := number("clock.limit", limitStr)
		inc, okI := number("clock.increment", incStr)
		if okL && !validClockLimit(limit) {
			errs.add("clock.limit", msgInvalid)
			okL = false
		}
		switch {
		case okI && inc < 0:
			errs.add("clock.increment", msgMin(0))
			okI = false
		case okI && inc > maxIncrement:
			errs.add("clock.increment", msgMax(maxIncrement))
			okI = false
		}
		if !okL || !okI {
			return
		}
		if limit == 0 && inc == 0 {
			errs.add("clock", "Invalid clock: limit and increment cannot both be 0")
			return
		}
		f.clock = &timeControl{limit: time.Duration(limit) * time.Second, increment: time.Duration(inc) * time.Second}
	case daysStr != "":
		d, ok := number("days", daysStr)
		if !ok {
			return
		}
		switch d {
		case 1, 2, 3, 5, 7, 10, 14:
			f.days = d
		default:
			errs.add("days", msgInvalid)
		}
	}
}

// challengeJSONFor renders a challenge as seen by viewer (mu held).
func (s *Server) challengeJSONFor(c *challenge, viewer *account) *challengeJSON {
	speed := speedOf(c.clock, c.days)
	j := &challengeJSON{
		ID:         c.id,
		URL:        c.url,
		Status:     c.status,
		Challenger: s.challengeUser(c.challenger),
		Variant:    variantOf(c.variant),
		Rated:      c.rated,
		Speed:      speed,
		Color:      c.color,
		FinalColor: c.finalColor,
		Perf:       perfJSON{Icon: "", Name: challengePerf(c.variant, speed)},
		InitialFen: c.fen,
		Rules:      c.rules, // lila challenge JsonView: .add("rules" -> c.nonEmptyRules)
	}
	dest := s.challengeUser(c.dest)
	j.DestUser = &dest
	switch {
	case c.clock != nil:
		limit, inc := int(c.clock.limit/time.Second), int(c.clock.increment/time.Second)
		j.TimeControl = timeControlJSON{Type: "clock", Limit: &limit, Increment: &inc, Show: showClock(limit, inc)}
	case c.days > 0:
		d := c.days
		j.TimeControl = timeControlJSON{Type: "correspondence", DaysPerTurn: &d}
	default:
		j.TimeControl = timeControlJSON{Type: "unlimited"}
	}
	switch viewer {
	case c.challenger:
		j.Direction = "out"
	case c.dest:
		j.Direction = "in"
	}
	if c.status == "declined" {
		r := declineReasons[c.declineKey]
		j.DeclineReasonKey = c.declineKey
		j.DeclineReason = r[1]
	}
	return j
}

// showClock renders a clock as Lichess shows it ("1+0", "½+2", "¼+0").
func showClock(limit, inc int) string {
	var base string
	switch limit {
	case 15:
		base = "¼"
	case 30:
		base = "½"
	case 45:
		base = "¾"
	case 90:
		base = "1.5"
	default:
		base = strconv.Itoa(limit / 60)
	}
	return base + "+" + strconv.Itoa(inc)
}

// challengeUser renders a ChallengeUser (mu held).
func (s *Server) challengeUser(a *account) challengeUserJSON {
	return challengeUserJSON{ID: a.id, Name: a.Name, Rating: a.Rating, Title: a.Title, Online: s.online(a)}
}

// notifyChallenge sends a challenge event to both sides (mu held).
func (s *Server) notifyChallenge(c *challenge, typ string) {
	for _, a := range []*account{c.challenger, c.dest} {
		ev := eventJSON{Type: typ, Challenge: s.challengeJSONFor(c, a)}
		if typ == "challenge" {
			ev.Compat = &compatJSON{Bot: true, Board: true}
		}
		s.sendEvent(a, ev)
	}
}

// createChallenge registers a challenge from acc to dest (mu held).
func (s *Server) createChallenge(acc, dest *account, f challengeForm, baseURL string) (*challenge, *apiError) {
	if dest == acc {
		return nil, badRequest("You cannot challenge yourself.")
	}
	speed := speedOf(f.clock, f.days)
	if (acc.Bot || dest.Bot) && speed == "ultraBullet" {
		return nil, badRequest("Bots cannot play UltraBullet.")
	}
	if dest.Bot && len(f.rules) > 0 {
		// lila controllers.Challenge.apiCreate, before any other check on
		// the destination: rules are for games between humans or with a
		// human, never in a challenge to a bot.
		return nil, badRequest("Rules not applicable for bots")
	}
	if err := s.botLimitError(acc, dest); err != nil {
		return nil, err
	}
	now := s.now()
	c := &challenge{
		id: s.newID(8), challenger: acc, dest: dest, variant: f.variant, fen: f.fen, rated: f.rated,
		clock: f.clock, days: f.days, color: f.color, status: "created", keepAlive: f.keepAlive, createdAt: now,
		rules: f.rules,
	}
	c.url = strings.TrimRight(baseURL, "/") + "/" + c.id
	if c.variant == "chess960" && c.fen == "" {
		// Lichess draws one of the 960 start positions at random.
		fen, err := board.Chess960FEN(s.rng.Intn(960))
		if err != nil {
			return nil, badRequest(err.Error())
		}
		c.fen = fen
	}
	switch c.color {
	case "random":
		if s.rng.Intn(2) == 0 {
			c.finalColor = "white"
		} else {
			c.finalColor = "black"
		}
	default:
		c.finalColor = c.color
	}
	s.challenges[c.id] = c
	if f.clock != nil && !f.keepAlive {
		s.armChallenge(c, s.cfg.ChallengeTTL)
	}
	s.notifyChallenge(c, "challenge")
	return c, nil
}

// armChallenge sets a challenge's expiry timer (mu held).
func (s *Server) armChallenge(c *challenge, d time.Duration) {
	c.stopTimer()
	if s.closed {
		return
	}
	c.timer = time.AfterFunc(d, func() {
		s.mu.Lock()
		defer s.mu.Unlock()
		if s.closed || c.status != "created" {
			return
		}
		s.log.Debug().Str("challenge", c.id).Msg("challenge expired")
		s.endChallenge(c, "canceled")
	})
}

// endChallenge closes a pending challenge with a final status (canceled or
// declined), telling both sides and any keep-alive stream (mu held).
func (s *Server) endChallenge(c *challenge, status string) {
	c.stopTimer()
	c.status = status
	delete(s.challenges, c.id)
	if status == "declined" {
		s.sendEvent(c.challenger, eventJSON{Type: "challengeDeclined", Challenge: s.challengeJSONFor(c, c.challenger)})
	} else {
		s.notifyChallenge(c, "challengeCanceled")
	}
	s.doneKeepAlive(c, status)
}

// doneKeepAlive ends the challenger's keep-alive stream with {"done":status}.
func (s *Server) doneKeepAlive(c *challenge, status string) {
	if c.keepAliveSub != nil {
		c.keepAliveSub.send(map[string]string{"done": status})
		c.keepAliveSub.end()
		c.keepAliveSub = nil
	}
}

// accept starts the game of a challenge for its destination (mu held).
func (s *Server) accept(c *challenge, acc *account, color string) *apiError {
	if c.dest != acc || c.status != "created" {
		return notFound("Challenge not found")
	}
	if !playableVariant(c.variant) {
		return badRequest("The sandbox has no rules for " + variantOf(c.variant).Name +
			": it plays standard chess, from a position and Chess960 (decline the challenge)")
	}
	if err := s.botLimitError(acc, c.challenger); err != nil {
		return err // lila Challenge.apiAccept: acceptLimitError before accepting
	}
	if color == "white" || color == "black" {
		if c.color == "random" {
			c.finalColor = map[string]string{"white": "black", "black": "white"}[color]
		}
	}
	c.stopTimer()
	c.status = "accepted"
	delete(s.challenges, c.id)
	w, b := c.challenger, c.dest
	if c.finalColor == "black" {
		w, b = b, w
	}
	s.startGame(c, w, b)
	s.doneKeepAlive(c, "accepted")
	return nil
}

// decline declines a challenge for its destination with a reason (mu held).
func (s *Server) decline(c *challenge, acc *account, reason string) *apiError {
	if c.dest != acc || c.status != "created" {
		return notFound("Challenge not found")
	}
	key := strings.ToLower(strings.TrimSpace(reason))
	if _, ok := declineReasons[key]; !ok {
		key = "generic"
	}
	c.declineKey = key
	s.endChallenge(c, "declined")
	return nil
}

// challengePerf is the rating category of a challenge: its speed in
// standard chess (fromPosition included), the variant otherwise, as Lichess
// rates them.
func challengePerf(variant, speed string) string {
	if variant == "standard" || variant == "fromPosition" {
		return perfName(speed)
	}
	return variantOf(variant).Name
}
