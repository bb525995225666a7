package syzygy

// WDL is a tablebase result for the side to move, ordered from worst to
// best: a loss, a loss the 50-move rule saves ("blessed"), a draw, a win
// the 50-move rule spoils ("cursed"), a win.
type WDL int

// The five WDL values.
const (
	Loss        WDL = -2
	BlessedLoss WDL = -1
	Draw        WDL = 0
	CursedWin   WDL = 1
	Win         WDL = 2
)

// String names the value as the Syzygy and Lichess tablebases do.
func (w WDL) String() string {
	switch w {
	case Loss:
		return "loss"
	case BlessedLoss:
		return "blessed-loss"
	case Draw:
		return "draw"
	case CursedWin:
		return "cursed-win"
	case Win:
		return "win"
	}
	return "unknown"
}
