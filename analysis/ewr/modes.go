package ewr

// Calculation modes: what `outpost ewr`, the daemon's summary ([summary]
// ewr_mode) and the web explorer calculate.
const (
	// ModeSettle is the default: the fast mode with the settle rule
	// (Params.Settle), within 1 pp of the exact calculation on every move
	// of both benchmark sets at 63 % of its nodes (docs/expected-winrate.md).
	// It needs engines that clear their hash before every search
	// (ModeClearsHash).
	ModeSettle = "settle"
	// ModeExact is the exact calculation, the reference: every position
	// at Params.Depth.
	ModeExact = "exact"
	// ModeFast is the fast mode: the trees at FastTreeDepth everywhere
	// (Params.Fast), up to ~5 pp from the exact calculation.
	ModeFast = "fast"
	// DefaultMode is the mode used unless another is chosen.
	DefaultMode = ModeSettle
)

// Modes lists the mode names, the default first.
var Modes = []string{ModeSettle, ModeExact, ModeFast}

// The settle mode's parameters (Params.Settle), chosen on the per-position
// iteration scores of both benchmark sets and measured there
// (docs/expected-winrate.md, issue #26).
const (
	// SettleVolatility is Params.Volatility of the settle mode: 0.004 kept
	// every move within 0.88 pp of the exact calculation; 0.0045 let a
	// middlegame move miss by 1.25 pp for 4 % fewer nodes.
	SettleVolatility = 0.004
	// SettleDecisionMargin is Params.DecisionMargin of the settle mode: an
	// analysing player's move within 3 points of the loss threshold is
	// searched to the full depth (at 2 points one pruning decision of the
	// second set flipped).
	SettleDecisionMargin = 0.03
)

// Settle returns p in the settle mode: the fast mode's tree depth, the
// settle rule (SettleVolatility) and its decision margin. Its figures are
// reproducible only on engines that clear their hash before every search;
// on others the calculation searches every tree position at Depth (see
// Params.Volatility).
func (p Params) Settle() Params {
	p = p.Fast()
	if p.IsFast() {
		p.DecisionMargin, p.Volatility = SettleDecisionMargin, SettleVolatility
	}
	return p
}

// WithMode returns p in the named mode ("" is DefaultMode); ok is false
// for an unknown name. The exact mode is p with every position at Depth.
func (p Params) WithMode(mode string) (out Params, ok bool) {
	switch mode {
	case ModeSettle, "":
		return p.Settle(), true
	case ModeExact:
		p.TreeDepth, p.FullDepthMass, p.DecisionMargin, p.Volatility = 0, 0, 0, 0
		return p, true
	case ModeFast:
		return p.Fast(), true
	}
	return p, false
}

// ModeClearsHash reports whether the named mode needs engines that clear
// their hash before every search (EngineConfig.ClearEach): the settle
// mode, whose searches end early.
func ModeClearsHash(mode string) bool { return mode == ModeSettle || mode == "" }

// ClearHashMB is the hash of an engine that clears it before every search:
// ample for one depth-15 search (~0.2 M nodes), and a small hash clears
// fast (docs/expected-winrate.md).
const ClearHashMB = 16
