package engine

import "slices"

// Lichess variant keys an engine can declare.
const (
	VariantStandard     = "standard"
	VariantFromPosition = "fromPosition"
	VariantChess960     = "chess960"
)

// BuiltinVariants lists the variants Outpost's built-in search engines
// (easy, medium, hard, knobs, all on bots/board) play: standard chess, from
// the initial position or from any FEN, and Chess960. Crazyhouse, atomic,
// antichess and the other Lichess variants have other rules and are played
// by none.
func BuiltinVariants() []string {
	return []string{VariantStandard, VariantFromPosition, VariantChess960}
}

// NeuralVariants lists the variants Maia plays: standard chess only (its
// networks were trained on standard games and encode castling as the
// king's move from e1/e8).
func NeuralVariants() []string {
	return []string{VariantStandard, VariantFromPosition}
}

// UCIVariants lists the variants an external UCI engine plays: standard
// chess from any position, and Chess960 when it offers the UCI_Chess960
// option (chess960).
func UCIVariants(chess960 bool) []string {
	v := []string{VariantStandard, VariantFromPosition}
	if chess960 {
		v = append(v, VariantChess960)
	}
	return v
}

// VariantPlayer is implemented by engines that declare the variants they
// play. An engine that does not is taken to play BuiltinVariants.
type VariantPlayer interface {
	Variants() []string
}

// Variants returns the variants e plays (see VariantPlayer).
func Variants(e Engine) []string {
	if vp, ok := e.(VariantPlayer); ok {
		return vp.Variants()
	}
	return BuiltinVariants()
}

// Plays reports whether e plays the Lichess variant key v.
func Plays(e Engine, v string) bool { return slices.Contains(Variants(e), v) }
