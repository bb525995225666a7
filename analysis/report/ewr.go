package report

import (
	"fmt"
	"strings"

	"github.com/outpostchess/outpost/analysis"
	"github.com/outpostchess/outpost/analysis/ewr"
)

// Why a move of a game gets an expected-winrate moment.
const (
	// EWRCritical marks a side's worst judgement (ewr.CriticalPlies).
	EWRCritical = "critical"
	// EWRBot marks a move of our bot in a bot game.
	EWRBot = "bot"
)

// EWRMove is one move of a moment: its expected winrate for a human at the
// moment's Maia level, with the confidence of the figure.
type EWRMove struct {
	SAN string `json:"san"`
	UCI string `json:"uci"`
	// ExpectedWinrate is the mover's expected winrate (0..1).
	ExpectedWinrate float64 `json:"expected_winrate"`
	// Confidence is the share of the probability mass evaluated (0..1);
	// ConfidenceLabel its band: High (> 0.8), Medium (0.6–0.8), Low.
	Confidence      float64 `json:"confidence"`
	ConfidenceLabel string  `json:"confidence_label"`
	// StockfishWinrate is Stockfish's winrate after the move, for the
	// mover (0..1).
	StockfishWinrate float64 `json:"stockfish_winrate"`
	// TreeDepth is the mean length of the evaluated Maia paths in plies.
	TreeDepth float64 `json:"tree_depth"`
	// Partial is set when the time limit left paths of the move's tree
	// unevaluated (ewr.MoveResult.Partial): a confidence of 0 is then
	// "nothing evaluated yet", never a figure of a complete calculation.
	Partial bool `json:"partial,omitempty"`
}

// EWRMoment is the expected-winrate view of one move of an analysed game:
// the played move against the best practical move (highest expected
// winrate) in the position before it. A moment whose calculation failed
// carries Error and no figures.
type EWRMoment struct {
	// Ply is the move's 1-based index in the game.
	Ply int `json:"ply"`
	// Label is the move number and SAN ("23...Nxe5").
	Label string `json:"label"`
	SAN   string `json:"san"`
	UCI   string `json:"uci"`
	// Side is the mover: "white" or "black".
	Side string `json:"side"`
	// Kind is why the move was analysed: EWRCritical or EWRBot.
	Kind string `json:"kind"`
	// Rating is the mover's Maia level, OpponentRating the other side's.
	Rating         int `json:"rating"`
	OpponentRating int `json:"opponent_rating"`
	// FEN is the position before the move.
	FEN string `json:"fen"`
	// Played is the move played; Best the best practical move; they are
	// equal when PlayedWasBest.
	Played        *EWRMove `json:"played,omitempty"`
	Best          *EWRMove `json:"best,omitempty"`
	PlayedWasBest bool     `json:"played_was_best"`
	// BaseWinrate is the mover's winrate in the position (Stockfish).
	BaseWinrate *float64 `json:"base_winrate,omitempty"`
	// Partial is set when the time limit cut the calculation short; the
	// unevaluated paths then count at the base winrate.
	Partial  bool     `json:"partial"`
	Warnings []string `json:"warnings,omitempty"`
	// Error says why the moment could not be computed.
	Error string `json:"error,omitempty"`
}

// EWRSet holds the expected-winrate moments of the games of one run, by
// analysis. A game missing from the set was not analysed for expected
// winrate; a game mapped to no moments was, and had none.
type EWRSet map[*analysis.Analysis][]EWRMoment

// NewEWRMoment converts a computed moment; kind is EWRCritical or EWRBot.
func NewEWRMoment(m ewr.Moment, kind string) EWRMoment {
	out := EWRMoment{
		Ply: m.Ply, Label: m.Label, SAN: m.Played.SAN, UCI: m.Played.UCI, Side: sideName(m.White), Kind: kind,
		Rating: m.Rating, OpponentRating: m.OpponentRating, PlayedWasBest: m.PlayedWasBest(),
	}
	played, best := ewrMove(m.Played), ewrMove(m.Best)
	out.Played, out.Best = &played, &best
	if r := m.Result; r != nil {
		base := r.BaseWinrate
		out.BaseWinrate = &base
		out.FEN = r.FEN
		out.Partial = r.Partial
		out.Warnings = append([]string(nil), r.Warnings...)
	}
	return out
}

// FailedEWRMoment records a moment that could not be computed: the move at
// ply of a, and why.
func FailedEWRMoment(a *analysis.Analysis, ply int, kind string, err error) EWRMoment {
	out := EWRMoment{Ply: ply, Kind: kind, Error: err.Error()}
	if ply >= 1 && ply <= len(a.Plies) {
		p := &a.Plies[ply-1]
		out.SAN, out.UCI, out.Side = p.SAN, p.UCI, p.Color
		out.Label = p.Label()
	}
	return out
}

func ewrMove(r ewr.MoveResult) EWRMove {
	return EWRMove{SAN: r.SAN, UCI: r.UCI, ExpectedWinrate: r.ExpectedWinrate, Confidence: r.Confidence,
		ConfidenceLabel: r.ConfidenceLabel, StockfishWinrate: r.StockfishWinrate, TreeDepth: r.TreeDepth, Partial: r.Partial}
}

func sideName(white bool) string {
	if white {
		return "white"
	}
	return "black"
}

// OK reports whether the moment was computed.
func (m EWRMoment) OK() bool { return m.Error == "" && m.Played != nil && m.Best != nil }

// Comment renders the moment for an annotated PGN (without braces):
// "EWR (Maia 1500): Qxd5 8.0% (Low), best practical Nf6 43.0% (High)";
// "" for a failed moment.
func (m EWRMoment) Comment() string {
	if !m.OK() {
		return ""
	}
	var b strings.Builder
	fmt.Fprintf(&b, "EWR (Maia %d): %s %s", m.Rating, m.Played.SAN, winrateWithConfidence(m.Played))
	if m.PlayedWasBest {
		b.WriteString(", the best practical move")
	} else {
		fmt.Fprintf(&b, ", best practical %s %s", m.Best.SAN, winrateWithConfidence(m.Best))
	}
	if m.Partial {
		b.WriteString(" [partial]")
	}
	// A PGN comment ends at '}': keep any (impossible in SAN) out.
	return strings.ReplaceAll(b.String(), "}", ")")
}

// Percent renders a winrate (0..1) as "43.1%".
func Percent(w float64) string { return fmt.Sprintf("%.1f%%", 100*w) }

func winrateWithConfidence(m *EWRMove) string {
	return Percent(m.ExpectedWinrate) + " (" + m.ConfidenceLabel + ")"
}

// KindText describes why a moment was analysed: "White's worst move",
// "our bot's move".
func (m EWRMoment) KindText() string {
	if m.Kind == EWRBot {
		return "our bot's move"
	}
	if m.Side == "black" {
		return "Black's worst move"
	}
	return "White's worst move"
}
