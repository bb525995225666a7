package search

import (
	"fmt"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/rs/zerolog"
)

// Features is a set of optional search techniques. Medium uses none of
// them; hard uses them all. Each can be switched off to measure its gain.
type Features uint32

// The optional search features.
const (
	FeatTT          Features = 1 << iota // transposition table (probe cutoffs and move ordering)
	FeatPVS                              // principal variation search (null-window scouting)
	FeatNullMove                         // null-move pruning
	FeatLMR                              // late-move reductions
	FeatKillers                          // killer-move ordering
	FeatHistory                          // history-heuristic ordering
	FeatCheckExt                         // check extensions
	FeatRepetition                       // repetition / fifty-move draws in the tree, game history included
	FeatFullEval                         // hard's tapered evaluation instead of medium's simple one
	FeatDelta                            // delta pruning in quiescence search
	FeatSEE                              // static exchange evaluation: losing captures pruned in quiescence, ordered late
	FeatFutility                         // reverse futility and futility pruning near the leaves
	FeatAspiration                       // aspiration windows around the previous iteration's score
	FeatLMP                              // late-move pruning: late quiet moves skipped near the leaves
	FeatEvalPlus                         // EvalPlus: threats, outposts, kings' distance to passed pawns (with eval)
	FeatIIR                              // internal iterative reduction: a node without a hash move is searched a ply shallower
	FeatQTT                              // transposition table probed in quiescence (cut-offs and the capture to try first)
	FeatTTEval                           // a table bound on the node's score refines the static evaluation used for pruning
	FeatSingular                         // singular extensions: a hash move much better than every other is searched a ply deeper
	FeatCorrHist                         // correction history: the static evaluation corrected by the search's past errors in the same pawn structure
	FeatQCorr                            // quiescence stands pat on the corrected evaluation, refined by a table bound (as the main search prunes on)
	FeatRazor                            // razoring: a node far below alpha near the leaves is settled by a quiescence search
	FeatLMRCaptures                      // late-move reductions for captures that lose material by SEE, not only for quiet moves
	FeatNet                              // the learned evaluation (EvalNet): EvalPlus corrected by a feature network

	// AllFeatures is hard's set. EvalPlus passed its SPRT at fixed nodes
	// (docs/engines.md: +35.5 ± 28.4 Elo) and costs about 1.45× the full
	// evaluation's time (BenchmarkEvaluate). Delta pruning is left out: measured
	// against hard without it, hard with it scored 39.6% over 40 games at
	// 100 ms per move (SEE pruning already removes most hopeless captures),
	// so it stays available only for experiments (WithFeatures). IIR, QTT,
	// TTEval, Singular and CorrHist passed one SPRT together (hard against
	// hard,Disable=iir+qtt+tteval+singular+corrhist: +28.2 ± 22.8 Elo);
	// each one's own share is not measured. QCorr, Razor and LMRCaptures
	// passed one SPRT together in the same way (+21.9 ± 16.1 Elo). Net (the
	// learned correction of EvalPlus, weight decay 4) passed at a fixed time,
	// which charges its cost (0.83× the nodes per second): +33.5 ± 27.1 Elo
	// at 0.03 s a move (docs/engines.md, "Learned evaluation").
	AllFeatures = FeatTT | FeatPVS | FeatNullMove | FeatLMR | FeatKillers | FeatHistory | FeatCheckExt |
		FeatRepetition | FeatFullEval | FeatSEE | FeatFutility | FeatAspiration | FeatLMP | FeatEvalPlus |
		FeatIIR | FeatQTT | FeatTTEval | FeatSingular | FeatCorrHist | FeatQCorr | FeatRazor | FeatLMRCaptures |
		FeatNet
)

var featureNames = map[string]Features{
	"tt": FeatTT, "pvs": FeatPVS, "nullmove": FeatNullMove, "lmr": FeatLMR,
	"killers": FeatKillers, "history": FeatHistory, "checkext": FeatCheckExt,
	"repetition": FeatRepetition, "eval": FeatFullEval, "delta": FeatDelta,
	"see": FeatSEE, "futility": FeatFutility, "aspiration": FeatAspiration,
	"lmp": FeatLMP, "evalplus": FeatEvalPlus, "iir": FeatIIR, "qtt": FeatQTT, "tteval": FeatTTEval,
	"singular": FeatSingular, "corrhist": FeatCorrHist, "qcorr": FeatQCorr, "razor": FeatRazor,
	"lmrcap": FeatLMRCaptures, "net": FeatNet,
}

// FeatureNames lists the names accepted by ParseFeatures, sorted.
func FeatureNames() []string {
	names := make([]string, 0, len(featureNames))
	for n := range featureNames {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// ParseFeatures parses a list of feature names separated by commas or
// plus signs ("tt,pvs", "tt+pvs": the second form fits in an engine spec,
// whose options are separated by commas: "hard,Disable=iir+qtt").
func ParseFeatures(s string) (Features, error) {
	var f Features
	for _, name := range strings.FieldsFunc(s, func(r rune) bool { return r == ',' || r == '+' }) {
		name = strings.ToLower(strings.TrimSpace(name))
		if name == "" {
			continue
		}
		v, ok := featureNames[name]
		if !ok {
			return 0, fmt.Errorf("search: unknown feature %q (known: %s)", name, strings.Join(FeatureNames(), ", "))
		}
		f |= v
	}
	return f, nil
}

// String lists the feature names, sorted and comma-separated.
func (f Features) String() string {
	var names []string
	for n, v := range featureNames {
		if f&v != 0 {
			names = append(names, n)
		}
	}
	slices.Sort(names)
	return strings.Join(names, ",")
}

type config struct {
	name        string
	features    Features
	hashMB      int
	defaultTime time.Duration
	maxDepth    int
	log         zerolog.Logger
	tb          Tablebase // probed in search when set (WithTablebase)
	tbDepth     int       // least remaining depth for a probe
	net         *Net      // feature net's network (WithNet); nil: the embedded one
}

// Option configures an engine built by NewMedium or NewHard.
type Option func(*config) error

// WithHashMB sets the transposition table size in MiB (1 to 4096).
func WithHashMB(mb int) Option {
	return func(c *config) error {
		if mb < 1 || mb > 4096 {
			return fmt.Errorf("search: hash size %d MB out of range 1-4096", mb)
		}
		c.hashMB = mb
		return nil
	}
}

// WithFeatures replaces the engine's feature set.
func WithFeatures(f Features) Option {
	return func(c *config) error { c.features = f; return nil }
}

// WithoutFeatures switches the named features off ("lmr", "nullmove", …),
// to measure what each one gains.
func WithoutFeatures(names ...string) Option {
	return func(c *config) error {
		f, err := ParseFeatures(strings.Join(names, ","))
		if err != nil {
			return err
		}
		c.features &^= f
		return nil
	}
}

// WithNet makes feature net use network n instead of the embedded one
// (to measure a newly trained network against it without a rebuild).
func WithNet(n *Net) Option {
	return func(c *config) error {
		if n == nil {
			return fmt.Errorf("search: WithNet: no network")
		}
		c.net = n
		return nil
	}
}

// WithLogger sets the logger (search progress at debug level).
func WithLogger(l zerolog.Logger) Option {
	return func(c *config) error { c.log = l; return nil }
}

// WithMaxDepth caps the search depth in plies (1 to 64).
func WithMaxDepth(d int) Option {
	return func(c *config) error {
		if d < 1 || d > maxDepth {
			return fmt.Errorf("search: max depth %d out of range 1-%d", d, maxDepth)
		}
		c.maxDepth = d
		return nil
	}
}

// WithName overrides the engine's name (e.g. "hard-nolmr" in experiments).
func WithName(name string) Option {
	return func(c *config) error {
		if name == "" {
			return fmt.Errorf("search: empty engine name")
		}
		c.name = name
		return nil
	}
}
