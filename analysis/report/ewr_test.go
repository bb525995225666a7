package report

import (
	"bytes"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/outpostchess/outpost/analysis"
	"github.com/outpostchess/outpost/analysis/ewr"
	"github.com/outpostchess/outpost/analysis/input"
)

const ewrTestPGN = `[Event "t"]
[White "W"]
[Black "B"]
[WhiteElo "1540"]
[BlackElo "1790"]
[Result "1-0"]

1. e4 { [%eval 0.2] } 1... f6?! { (0.20 → 0.90) Inaccuracy. e5 was best. } { [%eval 0.9] } (1... e5 2. Nf3) 2. d4 { [%eval 0.8] } 2... g5?? { (0.80 → Mate in 1) Checkmate is now unavoidable. e5 was best. } { [%eval #1] } (2... e5) 3. Qh5# 1-0`

// ewrTestGame is the game above analysed from its Lichess evals.
func ewrTestGame(t *testing.T) *analysis.Analysis {
	t.Helper()
	games, errs := input.ReadPGN(strings.NewReader(ewrTestPGN), "t.pgn")
	if len(errs) > 0 || len(games) != 1 {
		t.Fatalf("read: %v", errs)
	}
	a, err := analysis.BuildLichess(games[0])
	if err != nil {
		t.Fatal(err)
	}
	return a
}

// ewrTestMoments are hand-built moments of ewrTestGame: Black's blunder
// (best practical move differs), White's 2. d4 as our bot's best move
// (partial, with a warning), and a moment that failed.
func ewrTestMoments(a *analysis.Analysis) []EWRMoment {
	blunder := NewEWRMoment(ewr.Moment{
		Ply: 4, Label: "2... g5", White: false, Rating: 1800, OpponentRating: 1500,
		Played: ewr.MoveResult{SAN: "g5", UCI: "g7g5", ExpectedWinrate: 0.0, Confidence: 1, ConfidenceLabel: "High", StockfishWinrate: 0, TreeDepth: 1},
		Best:   ewr.MoveResult{SAN: "e5", UCI: "e7e5", ExpectedWinrate: 0.431, Confidence: 0.55, ConfidenceLabel: "Low", StockfishWinrate: 0.42, TreeDepth: 3.5},
		Result: &ewr.Result{BaseWinrate: 0.4123, FEN: "rnbqkbnr/ppppp1pp/5p2/8/3PP3/8/PPP2PPP/RNBQKBNR b KQkq - 0 2"},
	}, EWRCritical)
	best := ewr.MoveResult{SAN: "d4", UCI: "d2d4", ExpectedWinrate: 0.6249, Confidence: 0.7, ConfidenceLabel: "Medium", StockfishWinrate: 0.6, TreeDepth: 4}
	bot := NewEWRMoment(ewr.Moment{
		Ply: 3, Label: "2.d4", White: true, Rating: 1500, OpponentRating: 1800, Played: best, Best: best,
		Result: &ewr.Result{BaseWinrate: 0.6, FEN: "rnbqkbnr/ppppp1pp/5p2/8/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2", Partial: true,
			Warnings: []string{"time limit 1s reached: the result is partial"}},
	}, EWRBot)
	failed := FailedEWRMoment(a, 1, EWRBot, errors.New("ewr: ply 1: the played move e2e4 was not evaluated (time limit?)"))
	return []EWRMoment{failed, bot, blunder}
}

func TestNewEWRMoment(t *testing.T) {
	a := ewrTestGame(t)
	ms := ewrTestMoments(a)
	failed, bot, blunder := ms[0], ms[1], ms[2]
	if blunder.Side != "black" || blunder.SAN != "g5" || blunder.UCI != "g7g5" || blunder.PlayedWasBest || !blunder.OK() ||
		blunder.BaseWinrate == nil || *blunder.BaseWinrate != 0.4123 || blunder.Best.SAN != "e5" || blunder.Partial || blunder.FEN == "" {
		t.Errorf("blunder %+v", blunder)
	}
	if bot.Side != "white" || !bot.PlayedWasBest || !bot.Partial || len(bot.Warnings) != 1 || bot.KindText() != "our bot's move" {
		t.Errorf("bot %+v", bot)
	}
	if failed.OK() || failed.Label != "1. e4" || failed.Side != "white" || failed.UCI != "e2e4" || failed.Played != nil || failed.Comment() != "" {
		t.Errorf("failed %+v", failed)
	}
	if got := blunder.KindText(); got != "Black's worst move" {
		t.Errorf("kind text %q", got)
	}
}

func TestEWRComment(t *testing.T) {
	ms := ewrTestMoments(ewrTestGame(t))
	for _, tc := range []struct {
		m    EWRMoment
		want string
	}{
		{ms[2], "EWR (Maia 1800): g5 0.0% (High), best practical e5 43.1% (Low)"},
		{ms[1], "EWR (Maia 1500): d4 62.5% (Medium), the best practical move [partial]"},
		{ms[0], ""},
	} {
		if got := tc.m.Comment(); got != tc.want {
			t.Errorf("comment %q, want %q", got, tc.want)
		}
	}
}

func TestEWRText(t *testing.T) {
	a := ewrTestGame(t)
	other := ewrTestGame(t)
	var b bytes.Buffer
	if err := WriteTextEWR(&b, []*analysis.Analysis{a, other}, EWRSet{a: ewrTestMoments(a)}, nil); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	for _, want := range []string{
		"Critical moments (expected winrate for a human at the Maia level; Maia × Stockfish)\n" +
			" ply  move         why                  maia  played                   best practical             base\n" +
			"   1  1. e4        our bot's move             not computed: ewr: ply 1: the played move e2e4 was not evaluated (time limit?)\n" +
			"   3  2. d4        our bot's move       1500  d4 62.5% (Medium)        (played)                  60.0%  [partial: time limit]\n" +
			"   4  2... g5??    Black's worst move   1800  g5 0.0% (High)           e5 43.1% (Low)            41.2%\n",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("text lacks\n%s\ngot\n%s", want, out)
		}
	}
	if n := strings.Count(out, "Critical moments"); n != 1 {
		t.Errorf("%d critical-moment sections, want 1 (the other game was not analysed for EWR)", n)
	}
	b.Reset()
	if err := WriteTextEWR(&b, []*analysis.Analysis{a}, EWRSet{a: nil}, nil); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), "Critical moments (expected winrate): none (no judged move)\n") {
		t.Errorf("empty set: %s", b.String())
	}
	var plain, none bytes.Buffer
	if err := WriteText(&plain, []*analysis.Analysis{a}, nil); err != nil {
		t.Fatal(err)
	}
	if err := WriteTextEWR(&none, []*analysis.Analysis{a}, nil, nil); err != nil {
		t.Fatal(err)
	}
	if plain.String() != none.String() || strings.Contains(plain.String(), "Critical") {
		t.Error("text without --ewr changed")
	}
}

func TestEWRJSON(t *testing.T) {
	a := ewrTestGame(t)
	other := ewrTestGame(t)
	empty := ewrTestGame(t)
	var b bytes.Buffer
	set := EWRSet{a: ewrTestMoments(a), empty: nil}
	if err := WriteJSON(&b, Document{Games: []*analysis.Analysis{a, other, empty}, Errors: []string{"x"}, EWR: set}); err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Games  []map[string]json.RawMessage `json:"games"`
		Errors []string                     `json:"errors"`
	}
	if err := json.Unmarshal(b.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	if len(doc.Games) != 3 || len(doc.Errors) != 1 {
		t.Fatalf("games %d errors %v", len(doc.Games), doc.Errors)
	}
	for _, key := range []string{"id", "players", "plies", "result", "engine"} {
		if _, ok := doc.Games[0][key]; !ok {
			t.Errorf("game lacks %q beside ewr", key)
		}
	}
	if _, ok := doc.Games[1]["ewr"]; ok {
		t.Error("game outside the set has an ewr field")
	}
	if string(doc.Games[2]["ewr"]) != "[]" {
		t.Errorf("game without moments: ewr = %s, want []", doc.Games[2]["ewr"])
	}
	var ms []map[string]any
	if err := json.Unmarshal(doc.Games[0]["ewr"], &ms); err != nil {
		t.Fatal(err)
	}
	if len(ms) != 3 {
		t.Fatalf("%d moments", len(ms))
	}
	m := ms[2]
	for key, want := range map[string]any{"ply": 4.0, "label": "2... g5", "san": "g5", "uci": "g7g5", "side": "black", "kind": "critical",
		"rating": 1800.0, "opponent_rating": 1500.0, "played_was_best": false, "base_winrate": 0.4123, "partial": false,
		"fen": "rnbqkbnr/ppppp1pp/5p2/8/3PP3/8/PPP2PPP/RNBQKBNR b KQkq - 0 2"} {
		if m[key] != want {
			t.Errorf("moment %s = %v, want %v", key, m[key], want)
		}
	}
	best := m["best"].(map[string]any)
	for key, want := range map[string]any{"san": "e5", "uci": "e7e5", "expected_winrate": 0.431, "confidence": 0.55,
		"confidence_label": "Low", "stockfish_winrate": 0.42, "tree_depth": 3.5} {
		if best[key] != want {
			t.Errorf("best %s = %v, want %v", key, best[key], want)
		}
	}
	if p := m["played"].(map[string]any); p["san"] != "g5" || p["confidence_label"] != "High" {
		t.Errorf("played %v", p)
	}
	if f := ms[0]; f["error"] == nil || f["played"] != nil || f["best"] != nil || f["base_winrate"] != nil || f["kind"] != "bot" {
		t.Errorf("failed moment %v", f)
	}
	if w := ms[1]["warnings"].([]any); len(w) != 1 || ms[1]["partial"] != true {
		t.Errorf("partial moment %v", ms[1])
	}
	// Without a set the document is exactly as before.
	var plain, withNil bytes.Buffer
	if err := WriteJSON(&plain, Document{Games: []*analysis.Analysis{a}}); err != nil {
		t.Fatal(err)
	}
	type oldDocument struct {
		Games     []*analysis.Analysis `json:"games"`
		Errors    []string             `json:"errors,omitempty"`
		Aggregate *Aggregate           `json:"aggregate,omitempty"`
	}
	enc := json.NewEncoder(&withNil)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	if err := enc.Encode(oldDocument{Games: []*analysis.Analysis{a}}); err != nil {
		t.Fatal(err)
	}
	if plain.String() != withNil.String() {
		t.Error("JSON without --ewr changed")
	}
}

func TestEWRPGN(t *testing.T) {
	a := ewrTestGame(t)
	opt := DefaultPGNOptions
	plain := RenderPGN(a, opt)
	opt.EWR = EWRSet{a: ewrTestMoments(a)}
	got := RenderPGN(a, opt)
	want := "1. e4 { [%eval 0.2] } 1... f6?! { (0.20 → 0.90) Inaccuracy. e5 was best. } { [%eval 0.9] } (1... e5 2. Nf3) " +
		"2. d4 { [%eval 0.8] } { EWR (Maia 1500): d4 62.5% (Medium), the best practical move [partial] } " +
		"2... g5?? { (0.80 → Mate in 1) Checkmate is now unavoidable. e5 was best. } { [%eval #1] } " +
		"{ EWR (Maia 1800): g5 0.0% (High), best practical e5 43.1% (Low) } (2... e5) 3. Qh5# { White wins by checkmate. } 1-0"
	if !strings.HasSuffix(got, want) {
		t.Errorf("pgn\n got %s\nwant suffix %s", got, want)
	}
	if strings.Contains(plain, "EWR") {
		t.Error("PGN without moments has an EWR comment")
	}
	// The annotated PGN reads back with the same moves.
	games, errs := input.ReadPGN(strings.NewReader(got), "ewr.pgn")
	if len(errs) > 0 || len(games) != 1 || len(games[0].Moves) != len(a.Plies) {
		t.Fatalf("read back: %v", errs)
	}
	if c := games[0].Moves[3].Comments; len(c) != 1 || !strings.HasPrefix(c[0], "EWR (Maia 1800)") {
		t.Errorf("comments read back %q", c)
	}
}
