package sandbox

import (
	"errors"
	"fmt"
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
}

// parseChallengeForm reads and checks the creation form.
func parseChallengeForm(r *http.Request) (challengeForm, *apiError) {
	if err := r.ParseForm(); err != nil {
		return challengeForm{}, badRequest(formProblem(err))
	}
	f := challengeForm{color: "random", variant: "standard"}
	get := func(k string) string { return strings.TrimSpace(r.Form.Get(k)) }
	limitStr, incStr, daysStr := get("clock.limit"), get("clock.increment"), get("days")
	switch {
	case limitStr != "" || incStr != "":
		if daysStr != "" {
			return f, badRequest("clock and days are exclusive")
		}
		limit, err1 := strconv.Atoi(limitStr)
		inc, err2 := strconv.Atoi(incStr)
		if err1 != nil || !validClockLimit(limit) {
			return f, badRequest(fmt.Sprintf("clock.limit %q: must be 0, 15, 30, 45, 60, 90 or a multiple of 60 up to 10800", limitStr))
		}
		if err2 != nil || inc < 0 || inc > 60 {
			return f, badRequest(fmt.Sprintf("clock.increment %q: must be an integer in 0..60", incStr))
		}
		if limit == 0 && inc == 0 {
			return f, badRequest("clock.limit and clock.increment cannot both be 0")
		}
		f.clock = &timeControl{limit: time.Duration(limit) * time.Second, increment: time.Duration(inc) * time.Second}
	case daysStr != "":
		d, err := strconv.Atoi(daysStr)
		switch {
		case err != nil:
			return f, badRequest(fmt.Sprintf("days %q: not an integer", daysStr))
		case d != 1 && d != 2 && d != 3 && d != 5 && d != 7 && d != 10 && d != 14:
			return f, badRequest(fmt.Sprintf("days %d: must be one of 1, 2, 3, 5, 7, 10, 14", d))
		}
		f.days = d
	}
	var err error
	if v := get("rated"); v != "" {
		if f.rated, err = strconv.ParseBool(v); err != nil {
			return f, badRequest(fmt.Sprintf("rated %q: not a boolean", v))
		}
	}
	if v := get("keepAliveStream"); v != "" {
		if f.keepAlive, err = strconv.ParseBool(v); err != nil {
			return f, badRequest(fmt.Sprintf("keepAliveStream %q: not a boolean", v))
		}
	}
	if v := get("color"); v != "" {
		if v != "white" && v != "black" && v != "random" {
			return f, badRequest(fmt.Sprintf("color %q: must be white, black or random", v))
		}
		f.color = v
	}
	if v := get("variant"); v != "" {
		if v != "standard" && v != "fromPosition" {
			return f, badRequest(fmt.Sprintf("variant %q: the sandbox plays standard and fromPosition only", v))
		}
		f.variant = v
	}
	if v := get("fen"); v != "" {
		if len(strings.Fields(v)) == 4 {
			v += " 0 1"
		}
		var pe *board.PositionError
		if err := board.Validate(v, false); errors.As(err, &pe) {
			return f, badRequest(fmt.Sprintf("fen %q: invalid position: %s", v, pe.Problem))
		}
		if _, err := newPosition(v); err != nil {
			return f, badRequest(fmt.Sprintf("fen %q: invalid position", v))
		}
		f.fen = v
		f.variant = "fromPosition"
		if f.rated {
			return f, badRequest("Games from a position cannot be rated")
		}
	}
	return f, nil
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
		Perf:       perfJSON{Icon: "", Name: perfName(speed)},
		InitialFen: c.fen,
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
	now := s.now()
	c := &challenge{
		id: s.newID(8), challenger: acc, dest: dest, variant: f.variant, fen: f.fen, rated: f.rated,
		clock: f.clock, days: f.days, color: f.color, status: "created", keepAlive: f.keepAlive, createdAt: now,
	}
	c.url = strings.TrimRight(baseURL, "/") + "/" + c.id
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
