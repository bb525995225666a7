package sandbox

import (
	"net/http"
	"strings"
	"time"

	"github.com/outpostchess/outpost/bots/board"
)

// SourceAPI is the source of a game a bulk pairing created (lila Source.Api,
// set by ChallengeBulkApi.makePairings): not expirable, so no first-move
// deadline, and not a challenge game, so a claim may win it.
const SourceAPI = "api"

// maxBulkGames is lila's ChallengeBulkSetup.maxGames: at most 500 games
// (1000 tokens) in one bulk.
const maxBulkGames = 500

// bulkJSON is a bulk pairing as lila's ChallengeBulkSetup.toJson writes it.
// pairedAt and startClocksAt are null until set (lila writes the Options
// as null), as when the bulk is answered: the games are paired after the
// answer is written.
type bulkJSON struct {
	ID             string         `json:"id"`
	Games          []bulkGameJSON `json:"games"`
	Variant        string         `json:"variant"`
	Rated          bool           `json:"rated"`
	PairAt         int64          `json:"pairAt"`
	StartClocksAt  *int64         `json:"startClocksAt"`
	ScheduledAt    int64          `json:"scheduledAt"`
	PairedAt       *int64         `json:"pairedAt"`
	Clock          *bulkClockJSON `json:"clock,omitempty"`
	Correspondence map[string]int `json:"correspondence,omitempty"`
	Message        string         `json:"message,omitempty"`
	Rules          []string       `json:"rules,omitempty"`
}

// bulkGameJSON is one game of a bulk: its id and the players' user ids.
type bulkGameJSON struct {
	ID    string `json:"id"`
	White string `json:"white"`
	Black string `json:"black"`
}

// bulkClockJSON is a bulk's clock in seconds.
type bulkClockJSON struct {
	Limit     int `json:"limit"`
	Increment int `json:"increment"`
}

// bulkForm is a parsed bulk pairing form.
type bulkForm struct {
	challengeForm
	pairs   [][2]string // the players' tokens, white first
	message string
}

// parseBulkForm reads POST /api/bulk-pairing's parameters as lila's
// ChallengeBulkSetup.form does. The sandbox pairs at once and starts the
// clocks with the first moves: pairAt in the future and startClocksAt are
// refused with a field error saying so.
func parseBulkForm(r *http.Request) (f bulkForm, errs fieldErrors, apiErr *apiError) {
	vals, apiErr := readParams(r)
	if apiErr != nil {
		return f, nil, apiErr
	}
	f.challengeForm = challengeForm{variant: "standard"}
	errs = fieldErrors{}
	get := func(k string) string { return strings.TrimSpace(vals.Get(k)) }
	for _, pair := range strings.Split(get("players"), ",") {
		w, b, ok := strings.Cut(pair, ":")
		if w, b = strings.TrimSpace(w), strings.TrimSpace(b); ok && w != "" && b != "" {
			f.pairs = append(f.pairs, [2]string{w, b})
		}
	}
	switch {
	case get("players") == "":
		errs.add("players", msgRequired)
	case len(f.pairs) == 0:
		errs.add("players", "Not enough tokens")
	case len(f.pairs) > maxBulkGames:
		errs.add("players", "Too many tokens (max: 1000)")
	}
	parseChallengeTime(get, errs, &f.challengeForm)
	if f.clock == nil && f.days == 0 && len(errs) == 0 {
		errs.add("global", "clock or correspondence days required")
	}
	if v := get("rated"); v != "" {
		f.rated = v == "true" || v == "1"
	}
	switch v := get("variant"); v {
	case "", "standard", "chess960":
		if v != "" {
			f.variant = v
		}
	default:
		errs.add("variant", "The sandbox pairs standard chess and Chess960 only")
	}
	if v := get("rules"); v != "" {
		if rules, ok := parseRules(v); ok {
			f.rules = rules
		} else {
			errs.add("rules", msgInvalid)
		}
	}
	if v := get("pairAt"); v != "" && v != "0" {
		errs.add("pairAt", "The sandbox pairs at once: leave pairAt out")
	}
	if get("startClocksAt") != "" {
		errs.add("startClocksAt", "The sandbox starts the clocks with the first moves: leave startClocksAt out")
	}
	if v := get("fen"); v != "" {
		errs.add("fen", "The sandbox's bulk pairing takes no fen")
	}
	f.message = get("message")
	if f.message != "" && !strings.Contains(f.message, "{game}") {
		errs.add("message", "The message must contain {game}, which will be replaced with the game URL.")
	}
	if len(errs) == 0 {
		errs = nil
	}
	return f, errs, nil
}

// handleBulkPairing serves POST /api/bulk-pairing: lila's
// controllers.BulkPairing.create. Every token must be an account's
// (a bad one fails the whole bulk with {"tokens":{token:message}}), no
// player twice in a real-time bulk ({"duplicateUsers":[ids]}); then the
// games start at once with source "api" and the bulk's rules, each player
// hearing gameStart.
func (s *Server) handleBulkPairing(w http.ResponseWriter, r *http.Request, acc *account) {
	f, fieldErrs, ferr := parseBulkForm(r)
	if ferr != nil {
		writeAPIError(w, ferr)
		return
	}
	if fieldErrs != nil {
		fieldErrs.write(w)
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	players, bad, dups := s.bulkPlayers(f)
	switch {
	case len(bad) > 0:
		writeJSON(w, http.StatusBadRequest, map[string]any{"tokens": bad})
		return
	case len(dups) > 0:
		writeJSON(w, http.StatusBadRequest, map[string]any{"duplicateUsers": dups})
		return
	}
	now := s.now()
	out := bulkJSON{ID: s.newID(8), Variant: f.variant, Rated: f.rated, PairAt: now.UnixMilli(),
		ScheduledAt: now.UnixMilli(), Message: f.message, Rules: f.rules}
	if f.clock != nil {
		out.Clock = &bulkClockJSON{Limit: int(f.clock.limit / time.Second), Increment: int(f.clock.increment / time.Second)}
	} else {
		out.Correspondence = map[string]int{"daysPerTurn": f.days}
	}
	for _, p := range players {
		c := &challenge{id: s.newID(8), challenger: p[0], dest: p[1], variant: f.variant, rated: f.rated,
			source: SourceAPI, clock: f.clock, days: f.days, color: "white", finalColor: "white",
			status: "accepted", createdAt: now, rules: f.rules}
		if f.variant == "chess960" {
			fen, err := board.Chess960FEN(s.rng.Intn(960))
			if err != nil {
				writeError(w, http.StatusInternalServerError, err.Error())
				return
			}
			c.fen = fen
		}
		out.Games = append(out.Games, bulkGameJSON{ID: c.id, White: p[0].id, Black: p[1].id})
		s.startGame(c, p[0], p[1])
	}
	s.log.Info().Str("bulk", out.ID).Int("games", len(out.Games)).Strs("rules", f.rules).Msg("bulk paired")
	writeJSON(w, http.StatusOK, out)
}

// bulkPlayers resolves a bulk's token pairs to accounts (mu held): bad
// maps each unknown token to lila's OAuth error text, dups lists the
// players paired twice in a real-time bulk (lila allows that only in
// correspondence).
func (s *Server) bulkPlayers(f bulkForm) (players [][2]*account, bad map[string]string, dups []string) {
	bad = map[string]string{}
	seen := map[*account]int{}
	for _, pair := range f.pairs {
		var p [2]*account
		for i, tok := range pair {
			if p[i] = s.tokens[tok]; p[i] == nil {
				bad[tok] = "No such token"
				continue
			}
			seen[p[i]]++
			if seen[p[i]] == 2 && f.clock != nil {
				dups = append(dups, p[i].id)
			}
		}
		players = append(players, p)
	}
	return players, bad, dups
}
