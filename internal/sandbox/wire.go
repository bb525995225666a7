package sandbox

import "encoding/json"

// Wire types: the JSON bodies and ndjson lines the sandbox sends, shaped as
// the Lichess OpenAPI schemas name them. They are the sandbox's own, kept
// independent of the client package on purpose.

// variantJSON is the Variant schema.
type variantJSON struct {
	Key   string `json:"key"`
	Name  string `json:"name"`
	Short string `json:"short,omitempty"`
}

// statusJSON is the GameStatus schema.
type statusJSON struct {
	ID   int    `json:"id"`
	Name string `json:"name"`
}

// perfJSON is a challenge's perf object.
type perfJSON struct {
	Icon string `json:"icon"`
	Name string `json:"name"`
}

// challengeUserJSON is the ChallengeUser schema.
type challengeUserJSON struct {
	ID          string `json:"id"`
	Name        string `json:"name"`
	Rating      int    `json:"rating"`
	Title       string `json:"title,omitempty"`
	Provisional bool   `json:"provisional,omitempty"`
	Online      bool   `json:"online"`
	Lag         int    `json:"lag,omitempty"`
}

// timeControlJSON is the TimeControl schema (clock, correspondence or
// unlimited; only the fields of the chosen kind are set).
type timeControlJSON struct {
	Type        string `json:"type"`
	Limit       *int   `json:"limit,omitempty"`
	Increment   *int   `json:"increment,omitempty"`
	Show        string `json:"show,omitempty"`
	DaysPerTurn *int   `json:"daysPerTurn,omitempty"`
}

// challengeJSON is the ChallengeJson schema, plus the ChallengeDeclinedJson
// fields when declined.
type challengeJSON struct {
	ID               string             `json:"id"`
	URL              string             `json:"url"`
	Status           string             `json:"status"`
	Challenger       challengeUserJSON  `json:"challenger"`
	DestUser         *challengeUserJSON `json:"destUser"`
	Variant          variantJSON        `json:"variant"`
	Rated            bool               `json:"rated"`
	Speed            string             `json:"speed"`
	TimeControl      timeControlJSON    `json:"timeControl"`
	Color            string             `json:"color"`
	FinalColor       string             `json:"finalColor,omitempty"`
	Perf             perfJSON           `json:"perf"`
	Direction        string             `json:"direction,omitempty"`
	InitialFen       string             `json:"initialFen,omitempty"`
	Rules            []string           `json:"rules,omitempty"`
	DeclineReason    string             `json:"declineReason,omitempty"`
	DeclineReasonKey string             `json:"declineReasonKey,omitempty"`
}

// compatJSON is the GameCompat schema.
type compatJSON struct {
	Bot   bool `json:"bot"`
	Board bool `json:"board"`
}

// opponentJSON is the GameEventOpponent schema (player form).
type opponentJSON struct {
	ID       string `json:"id"`
	Username string `json:"username"`
	Rating   int    `json:"rating"`
}

// gameEventInfoJSON is the GameEventInfo schema.
type gameEventInfoJSON struct {
	FullID       string       `json:"fullId"`
	GameID       string       `json:"gameId"`
	Fen          string       `json:"fen"`
	Color        string       `json:"color"`
	LastMove     string       `json:"lastMove"`
	Source       string       `json:"source"`
	Status       statusJSON   `json:"status"`
	Variant      variantJSON  `json:"variant"`
	Speed        string       `json:"speed"`
	Perf         string       `json:"perf"`
	Rated        bool         `json:"rated"`
	HasMoved     bool         `json:"hasMoved"`
	Opponent     opponentJSON `json:"opponent"`
	IsMyTurn     bool         `json:"isMyTurn"`
	SecondsLeft  *int         `json:"secondsLeft,omitempty"`
	Winner       string       `json:"winner,omitempty"`
	Rating       int          `json:"rating"`
	Compat       compatJSON   `json:"compat"`
	ID           string       `json:"id"`
	TournamentID string       `json:"tournamentId,omitempty"`
}

// eventJSON is one line of the event stream.
type eventJSON struct {
	Type      string             `json:"type"`
	Challenge *challengeJSON     `json:"challenge,omitempty"`
	Game      *gameEventInfoJSON `json:"game,omitempty"`
	Compat    *compatJSON        `json:"compat,omitempty"`
}

// gamePlayerJSON is the GameEventPlayer schema.
type gamePlayerJSON struct {
	ID          string  `json:"id"`
	Name        string  `json:"name"`
	Title       *string `json:"title"`
	Rating      int     `json:"rating"`
	Provisional bool    `json:"provisional,omitempty"`
}

// clockJSON is gameFull's clock (milliseconds).
type clockJSON struct {
	Initial   int64 `json:"initial"`
	Increment int64 `json:"increment"`
}

// expirationJSON is gameState's expiration (first moves).
type expirationJSON struct {
	IdleMillis   int64 `json:"idleMillis"`
	MillisToMove int64 `json:"millisToMove"`
}

// gameStateJSON is the GameStateEvent schema.
type gameStateJSON struct {
	Type       string          `json:"type"`
	Moves      string          `json:"moves"`
	Wtime      int64           `json:"wtime"`
	Btime      int64           `json:"btime"`
	Winc       int64           `json:"winc"`
	Binc       int64           `json:"binc"`
	Status     string          `json:"status"`
	Winner     string          `json:"winner,omitempty"`
	Wdraw      bool            `json:"wdraw,omitempty"`
	Bdraw      bool            `json:"bdraw,omitempty"`
	Wtakeback  bool            `json:"wtakeback,omitempty"`
	Btakeback  bool            `json:"btakeback,omitempty"`
	Expiration *expirationJSON `json:"expiration,omitempty"`
}

// perfNameJSON is gameFull's perf.
type perfNameJSON struct {
	Name string `json:"name"`
}

// gameFullJSON is the GameFullEvent schema.
type gameFullJSON struct {
	Type         string         `json:"type"`
	ID           string         `json:"id"`
	Variant      variantJSON    `json:"variant"`
	Clock        *clockJSON     `json:"clock,omitempty"`
	Speed        string         `json:"speed"`
	Perf         perfNameJSON   `json:"perf"`
	Rated        bool           `json:"rated"`
	CreatedAt    int64          `json:"createdAt"`
	White        gamePlayerJSON `json:"white"`
	Black        gamePlayerJSON `json:"black"`
	InitialFen   string         `json:"initialFen"`
	State        gameStateJSON  `json:"state"`
	DaysPerTurn  *int           `json:"daysPerTurn,omitempty"`
	TournamentID string         `json:"tournamentId,omitempty"`
}

// chatLineJSON is the ChatLineEvent schema.
type chatLineJSON struct {
	Type     string `json:"type"`
	Room     string `json:"room"`
	Username string `json:"username"`
	Text     string `json:"text"`
}

// opponentGoneJSON is the OpponentGoneEvent schema.
type opponentGoneJSON struct {
	Type              string `json:"type"`
	Gone              bool   `json:"gone"`
	ClaimWinInSeconds *int   `json:"claimWinInSeconds,omitempty"`
}

// okJSON is the Ok schema.
type okJSON struct {
	OK bool `json:"ok"`
}

// errorJSON is the Error schema.
type errorJSON struct {
	Error string `json:"error"`
}

// perfStatJSON is the Perf schema.
type perfStatJSON struct {
	Games  int  `json:"games"`
	Rating int  `json:"rating"`
	RD     int  `json:"rd"`
	Prog   int  `json:"prog"`
	Prov   bool `json:"prov,omitempty"`
}

// playTimeJSON is the PlayTime schema.
type playTimeJSON struct {
	Total int `json:"total"`
	TV    int `json:"tv"`
}

// userJSON is the User / UserExtended schema.
type userJSON struct {
	ID        string                  `json:"id"`
	Username  string                  `json:"username"`
	Perfs     map[string]perfStatJSON `json:"perfs"`
	Title     string                  `json:"title,omitempty"`
	CreatedAt int64                   `json:"createdAt"`
	SeenAt    int64                   `json:"seenAt"`
	PlayTime  playTimeJSON            `json:"playTime"`
	URL       string                  `json:"url,omitempty"`
	Playing   string                  `json:"playing,omitempty"`
}

// lightUserJSON is the LightUser schema.
type lightUserJSON struct {
	ID    string `json:"id"`
	Name  string `json:"name"`
	Title string `json:"title,omitempty"`
}

// playerAnalysisJSON is GamePlayerUser.analysis.
type playerAnalysisJSON struct {
	Inaccuracy int  `json:"inaccuracy"`
	Mistake    int  `json:"mistake"`
	Blunder    int  `json:"blunder"`
	ACPL       int  `json:"acpl"`
	Accuracy   *int `json:"accuracy,omitempty"`
}

// gamePlayerUserJSON is the GamePlayerUser schema.
type gamePlayerUserJSON struct {
	User     lightUserJSON       `json:"user"`
	Rating   int                 `json:"rating"`
	Analysis *playerAnalysisJSON `json:"analysis,omitempty"`
}

// judgmentJSON is GameMoveAnalysis.judgment.
type judgmentJSON struct {
	Name    string `json:"name"`
	Comment string `json:"comment"`
}

// moveAnalysisJSON is the GameMoveAnalysis schema.
type moveAnalysisJSON struct {
	Eval      *int          `json:"eval,omitempty"`
	Mate      *int          `json:"mate,omitempty"`
	Best      string        `json:"best,omitempty"`
	Variation string        `json:"variation,omitempty"`
	Judgment  *judgmentJSON `json:"judgment,omitempty"`
}

// exportClockJSON is GameJson.clock (seconds).
type exportClockJSON struct {
	Initial   int `json:"initial"`
	Increment int `json:"increment"`
	TotalTime int `json:"totalTime"`
}

// gameJSON is the GameJson schema.
type gameJSON struct {
	ID          string                        `json:"id"`
	Rated       bool                          `json:"rated"`
	Variant     string                        `json:"variant"`
	Speed       string                        `json:"speed"`
	Perf        string                        `json:"perf"`
	CreatedAt   int64                         `json:"createdAt"`
	LastMoveAt  int64                         `json:"lastMoveAt"`
	Status      string                        `json:"status"`
	Source      string                        `json:"source"`
	Players     map[string]gamePlayerUserJSON `json:"players"`
	InitialFen  string                        `json:"initialFen,omitempty"`
	Winner      string                        `json:"winner,omitempty"`
	Moves       string                        `json:"moves"`
	PGN         string                        `json:"pgn,omitempty"`
	DaysPerTurn *int                          `json:"daysPerTurn,omitempty"`
	Analysis    []moveAnalysisJSON            `json:"analysis,omitempty"`
	Clock       *exportClockJSON              `json:"clock,omitempty"`
	Clocks      []int64                       `json:"clocks,omitempty"`
	ArenaTour   *arenaTourJSON                `json:"arenaTour,omitempty"`
}

// arenaTourJSON is GameJson's arenaTour: the arena a game is from.
type arenaTourJSON struct {
	ID   string `json:"id"`
	Name string `json:"name"`
}

// nowPlayingJSON is one entry of GET /api/account/playing.
type nowPlayingJSON struct {
	GameID      string       `json:"gameId"`
	FullID      string       `json:"fullId"`
	Color       string       `json:"color"`
	Fen         string       `json:"fen"`
	HasMoved    bool         `json:"hasMoved"`
	IsMyTurn    bool         `json:"isMyTurn"`
	LastMove    string       `json:"lastMove"`
	Opponent    opponentJSON `json:"opponent"`
	Perf        string       `json:"perf"`
	Rated       bool         `json:"rated"`
	SecondsLeft int          `json:"secondsLeft"`
	Source      string       `json:"source"`
	Speed       string       `json:"speed"`
	Variant     variantJSON  `json:"variant"`
	Status      string       `json:"status"`
}

// userStatusJSON is one entry of GET /api/users/status.
type userStatusJSON struct {
	ID          string           `json:"id"`
	Name        string           `json:"name"`
	Title       string           `json:"title,omitempty"`
	Online      bool             `json:"online,omitempty"`
	Playing     bool             `json:"-"`
	PlayingID   string           `json:"playingId,omitempty"`
	PlayingMeta *playingMetaJSON `json:"playing,omitempty"`
}

// MarshalJSON writes playing as true when the user plays (and no game
// metas were asked for), as Lichess does.
func (u userStatusJSON) MarshalJSON() ([]byte, error) {
	type plain userStatusJSON
	if u.Playing && u.PlayingMeta == nil {
		return json.Marshal(struct {
			plain
			Playing bool `json:"playing"`
		}{plain(u), true})
	}
	return json.Marshal(plain(u))
}

// playingMetaJSON is the playing object of withGameMetas.
type playingMetaJSON struct {
	ID      string `json:"id"`
	Clock   string `json:"clock,omitempty"`
	Variant string `json:"variant"`
}

// tokenInfoJSON is one value of POST /api/token/test.
type tokenInfoJSON struct {
	UserID  string `json:"userId"`
	Scopes  string `json:"scopes"`
	Expires *int64 `json:"expires"`
}
