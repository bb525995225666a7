package search

import (
	"context"
	"math"
	"time"

	"github.com/outpostchess/outpost/bots/board"
)

const (
	maxDepth  = 64    // deepest iteration
	maxPly    = 128   // deepest node (extensions and quiescence included)
	mateScore = 32000 // score of "mated now"; mate in n plies = mateScore-n
	mateBound = mateScore - 1000
	infinity  = 32500
)

// Move-ordering score bands: hash move, then captures and promotions by
// MVV-LVA, then the two killers, then quiet moves by history.
const (
	orderTT      = 1 << 30
	orderCapture = 1 << 28
	orderKiller1 = 1<<27 + 1
	orderKiller2 = 1 << 27
	orderBad     = 1 << 26 // captures that lose material by SEE: after the killers
	historyMax   = 1 << 24 // history scores are halved when one reaches this
)

// deltaMargin: in quiescence, a capture that cannot lift the score to
// alpha even if the captured piece is won outright plus this safety margin
// (two pawns, for positional swings the static evaluation may not see) is
// skipped.
const deltaMargin = 200

// Futility constants. Reverse futility: at depth <= rfpDepth, a node whose
// static evaluation beats beta by rfpMargin per remaining ply is assumed to
// hold (the opponent rarely wins back more than about a pawn and a quarter
// per move in quiet play). Futility: at depth <= len(futilityMargin)-1, a
// quiet move that does not give check is skipped when the static
// evaluation plus futilityMargin[depth] (a pawn and a half at depth 1, three
// pawns at depth 2: the most a quiet move is likely to gain positionally
// within that horizon) still cannot reach alpha.
const (
	rfpDepth  = 3
	rfpMargin = 120
)

var futilityMargin = [3]int{0, 150, 300}

// Late-move pruning: at depth <= lmpDepth away from the principal
// variation and not in check, once lmpBase + depth² quiet moves have been
// searched the remaining quiet, non-checking moves are skipped: with good
// ordering (hash move, captures, killers, counter move, history first) a
// cut-off this late near the leaves is rare, and the classic 3 + d²
// (4, 7, 12, 19 moves at depths 1-4) keeps enough of them.
const (
	lmpDepth = 4
	lmpBase  = 3
)

// SEE pruning: at depth <= seePruneDepth off the principal variation and
// not in check, a move that loses material by static exchange is skipped
// when it gives no check: a capture losing more than seeCaptureMargin·d²
// (a pawn's worth at depth 2, a minor at depth 4: deeper searches may win
// back more), a quiet move losing more than seeQuietMargin·d (a piece left
// en prise to a pawn is skipped at every such depth, a pawn at depth 1).
const (
	seePruneDepth    = 5
	seeCaptureMargin = 25
	seeQuietMargin   = 60
)

// Razoring (feature razor): at depth <= razorDepth off the principal
// variation, a node whose static evaluation is more than razorBase +
// razorMargin·depth below alpha (4.5, 7 and 9.5 pawns at depths 1-3:
// beyond what futility's 1.5 and 3 pawns already give up on) is settled by
// a null-window quiescence search: if even the captures cannot lift it to
// alpha, the node fails low without generating its quiet moves.
const (
	razorDepth  = 3
	razorBase   = 200
	razorMargin = 250
)

// iirDepth: internal iterative reduction applies from this depth on (a
// node four plies from the horizon without a hash move is searched at
// three); shallower nodes are cheap enough to search in full.
const iirDepth = 4

// Singular extensions (feature singular) are tried from singularDepth on;
// the other moves must all fail below the hash move's score less
// singularMargin centipawns per ply of depth (16 cp at depth 8: a move
// that clearly stands out, while a margin growing with depth keeps deep
// nodes from extending on small differences the deeper search sees
// through).
const (
	singularDepth  = 6
	singularMargin = 2
)

// Aspiration windows: from depth aspirationDepth on, search first within
// ±aspirationDelta (a third of a pawn) of the previous score, widening the
// failing side fourfold on each failure; most iterations stay inside, and
// the narrow window prunes more.
const (
	aspirationDepth = 5
	aspirationDelta = 35
)

// lmrTable[d][i] is the late-move reduction at depth d for the i-th move:
// 0.75 + ln(d)·ln(i)/2.25 plies, the well-known logarithmic shape (reduce
// more when deep and when the move comes late in a well-ordered list). The
// constants were chosen so that depth 3 reduces moves from about the 5th by
// one ply and deep nodes reduce late quiet moves by 3-4 plies.
var lmrTable [maxDepth + 1][64]int

func init() {
	for d := 1; d <= maxDepth; d++ {
		for i := 1; i < 64; i++ {
			lmrTable[d][i] = int(0.75 + math.Log(float64(d))*math.Log(float64(i))/2.25)
		}
	}
}

// searcher holds the state of one search.
type searcher struct {
	b         *board.Board
	feat      Features
	kind      EvalKind
	tt        *ttable
	killers   [maxPly][2]board.Move
	history   *[2][64][64]int32
	corr      *corrHistory // nil: no correction history
	pv        [maxPly][maxPly]board.Move
	pvLen     [maxPly]int
	nodes     int64
	nodeLimit int64
	stopped   bool
	ctx       context.Context
	deadline  time.Time // hard stop; zero = none
	depth     int       // the iteration being searched
	prevBest  board.Move
	iterBest  board.Move
	iterScore int
	tb        Tablebase // nil: no probing
	tbDepth   int
	tbHits    int64
	stack     [maxPly + 1]plyData
	ec        *evalCache // nil: every evaluation is computed
	ns        *netStack  // the learned evaluation's accumulators (EvalNet)
}

// plyData is the per-ply scratch space, kept in the searcher so that move
// lists are not re-zeroed at every node.
type plyData struct {
	ml     board.MoveList
	scores [board.MaxMoves]int32
	tried  [board.MaxMoves]board.Move // quiet moves searched so far (history malus)
	// excluded is the move a singular-extension search leaves out at this
	// ply (NullMove: none): that search visits the same position without
	// its hash move and must not cut on, nor overwrite, its table entry.
	excluded board.Move
}

func (s *searcher) checkStop() bool {
	if s.stopped {
		return true
	}
	if s.nodeLimit > 0 && s.nodes >= s.nodeLimit {
		s.stopped = true
		return true
	}
	// The first iteration always finishes (a few dozen nodes): the engine
	// then has a searched move to play at its deadline, never an
	// unsearched one.
	if s.nodes&1023 == 0 && s.depth > 1 {
		if s.ctx.Err() != nil || (!s.deadline.IsZero() && time.Now().After(s.deadline)) {
			s.stopped = true
		}
	}
	return s.stopped
}

// eval is the static evaluation of the current position (at ply), through
// the eval cache when the searcher has one (the same score either way); the
// learned evaluation is updated from the previous ply's accumulator.
func (s *searcher) eval(ply int) int {
	if s.kind == EvalNet && s.ns != nil {
		if s.ec == nil {
			return s.ns.eval(s.b, ply)
		}
		return s.ec.evaluateWith(s.b, s.kind, func() int { return s.ns.eval(s.b, ply) })
	}
	if s.ec == nil {
		return Evaluate(s.b, s.kind)
	}
	return s.ec.evaluate(s.b, s.kind)
}

// scoreMoves assigns ordering scores.
func (s *searcher) scoreMoves(ml *board.MoveList, scores *[board.MaxMoves]int32, ttMove board.Move, ply int) {
	us := s.b.SideToMove()
	for i, m := range ml.Slice() {
		var sc int32
		switch {
		case m == ttMove:
			sc = orderTT
		case m.IsCapture() || m.IsPromotion():
			victim := board.Pawn
			if !m.IsEnPassant() && m.IsCapture() {
				victim = s.b.PieceAt(m.To()).Type()
			}
			sc = orderCapture + int32(seeValue[victim])*8 - int32(s.b.PieceAt(m.From()).Type())
			if m.IsPromotion() {
				sc += int32(seeValue[m.Promotion()]) * 8
			} else if s.feat&FeatSEE != 0 && badCapture(s.b, m) {
				sc += orderBad - orderCapture
			}
		case s.feat&FeatKillers != 0 && m == s.killers[ply][0]:
			sc = orderKiller1
		case s.feat&FeatKillers != 0 && m == s.killers[ply][1]:
			sc = orderKiller2
		case s.feat&FeatHistory != 0:
			sc = s.history[us][m.From()][m.To()]
		}
		scores[i] = sc
	}
}

// pickNext moves the best-scored remaining move to position i.
func pickNext(ml *board.MoveList, scores *[board.MaxMoves]int32, i int) board.Move {
	best := i
	for j := i + 1; j < ml.N; j++ {
		if scores[j] > scores[best] {
			best = j
		}
	}
	ml.Moves[i], ml.Moves[best] = ml.Moves[best], ml.Moves[i]
	scores[i], scores[best] = scores[best], scores[i]
	return ml.Moves[i]
}

// Long: the alpha-beta node with its pruning steps in order; split, the hot path pays for calls.
func (s *searcher) negamax(depth, ply, alpha, beta int, nullOK bool) int {
	s.pvLen[ply] = ply
	if s.checkStop() {
		return 0
	}
	s.nodes++
	b := s.b
	pvNode := beta-alpha > 1
	if ply > 0 {
		if s.feat&FeatRepetition != 0 && (b.RepetitionCount() > 0 || b.IsFiftyMoveDraw()) {
			return 0
		}
		if b.InsufficientMaterial() {
			return 0
		}
		if ply >= maxPly-1 {
			return s.eval(ply)
		}
		// Mate-distance pruning: no line from here can beat a shorter mate.
		alpha = max(alpha, -mateScore+ply)
		beta = min(beta, mateScore-ply-1)
		if alpha >= beta {
			return alpha
		}
	}
	inCheck := b.InCheck()
	if inCheck && s.feat&FeatCheckExt != 0 && ply < maxPly/2 {
		depth++
	}
	if sc, ok := s.probeTB(depth, ply); ok {
		return sc
	}
	if depth <= 0 {
		return s.qsearch(ply, alpha, beta)
	}

	ttMove := board.NullMove
	if ply == 0 {
		ttMove = s.prevBest
	}
	var tte ttEntry
	ttHit := false
	excluded := s.stack[ply].excluded
	if s.tt != nil {
		if tte, ttHit = s.tt.probe(b.Hash()); ttHit {
			if ply > 0 {
				ttMove = tte.move
			}
			if !pvNode && ply > 0 && int(tte.depth) >= depth && excluded == board.NullMove {
				sc := scoreFromTT(int(tte.score), ply)
				if tte.bound == boundExact || (tte.bound == boundLower && sc >= beta) || (tte.bound == boundUpper && sc <= alpha) {
					return sc
				}
			}
		}
	}
	// Internal iterative reduction: without a hash move the ordering is
	// poor and the node is probably new to the table; searching it a ply
	// shallower costs little and the next iteration comes back with a move.
	if s.feat&FeatIIR != 0 && ply > 0 && depth >= iirDepth && ttMove == board.NullMove && !inCheck && excluded == board.NullMove {
		depth--
	}

	staticEval, rawEval, evalKnown := 0, 0, false
	if !inCheck && ply > 0 && excluded == board.NullMove &&
		(!pvNode && s.feat&(FeatNullMove|FeatFutility) != 0 || s.feat&FeatCorrHist != 0 && s.corr != nil) {
		rawEval = s.eval(ply)
		staticEval, evalKnown = rawEval+s.correction(), true
		if s.feat&FeatTTEval != 0 && ttHit {
			staticEval = refineEval(staticEval, scoreFromTT(int(tte.score), ply), tte.bound)
		}
		if !pvNode && s.feat&FeatFutility != 0 && depth <= rfpDepth && staticEval-rfpMargin*depth >= beta && abs(beta) < mateBound {
			return staticEval
		}
	}
	futile := s.feat&FeatFutility != 0 && evalKnown && !pvNode && depth < len(futilityMargin) &&
		staticEval+futilityMargin[depth] <= alpha && abs(alpha) < mateBound
	if s.feat&FeatRazor != 0 && evalKnown && !pvNode && depth <= razorDepth &&
		staticEval+razorBase+razorMargin*depth <= alpha && abs(alpha) < mateBound {
		sc := s.qsearch(ply, alpha, alpha+1)
		if s.stopped {
			return 0
		}
		if sc <= alpha {
			return sc
		}
	}

	// Null-move pruning: if passing the move still leaves us >= beta after a
	// reduced search, a real move will too. R = 2 + depth/6 plies (reduce
	// more at depth). Not in check, not at PV nodes, and only with pieces
	// other than pawns (zugzwang is common in pawn endings).
	if s.feat&FeatNullMove != 0 && nullOK && !inCheck && !pvNode && depth >= 3 && ply > 0 &&
		nonPawnMaterial(b, b.SideToMove()) > 0 && staticEval >= beta {
		r := 2 + depth/6
		b.MakeNull()
		sc := -s.negamax(depth-1-r, ply+1, -beta, -beta+1, false)
		b.Unmake()
		if s.stopped {
			return 0
		}
		if sc >= beta {
			if sc > mateBound {
				sc = beta
			}
			return sc
		}
	}

	ext, cut, ok := s.singular(tte, ttHit, ttMove, depth, ply, beta, pvNode)
	if !ok {
		return 0
	}
	if cut {
		return beta
	}

	ml, scores := &s.stack[ply].ml, &s.stack[ply].scores
	b.GenerateMoves(ml)
	if ml.N == 0 {
		if inCheck {
			return -mateScore + ply
		}
		return 0
	}
	s.scoreMoves(ml, scores, ttMove, ply)
	us := b.SideToMove()
	best, bestMove, origAlpha := -infinity, board.NullMove, alpha
	lmp := s.feat&FeatLMP != 0 && !pvNode && !inCheck && ply > 0 && depth <= lmpDepth
	seePrune := s.feat&FeatSEE != 0 && !pvNode && !inCheck && ply > 0 && depth <= seePruneDepth
	quiets := 0
	for i := 0; i < ml.N; i++ {
		m := pickNext(ml, scores, i)
		if m == excluded {
			continue
		}
		quiet := !m.IsCapture() && !m.IsPromotion()
		losing := seePrune && i > 0 && best > -mateBound && s.seeLoses(m, quiet, scores[i], depth)
		b.Make(m)
		givesCheck := b.InCheck()
		if losing && !givesCheck {
			b.Unmake()
			continue
		}
		if futile && quiet && !givesCheck && i > 0 {
			b.Unmake()
			continue
		}
		if lmp && quiet && !givesCheck && quiets >= lmpBase+depth*depth && best > -mateBound {
			b.Unmake()
			continue
		}
		if quiet {
			s.stack[ply].tried[quiets] = m
			quiets++
		}
		var sc int
		if i == 0 {
			sc = -s.negamax(depth-1+ext, ply+1, -beta, -alpha, true)
		} else {
			r := 0
			lateCapture := s.feat&FeatLMRCaptures != 0 && !quiet && !m.IsPromotion() && scores[i] < orderCapture
			if s.feat&FeatLMR != 0 && depth >= 3 && (quiet || lateCapture) && !inCheck && !givesCheck &&
				scores[i] < orderKiller2 {
				r = lmrTable[min(depth, maxDepth)][min(i, 63)]
				if pvNode && r > 0 {
					r-- // be more careful on the principal variation
				}
				r = max(0, min(r, depth-2))
			}
			if s.feat&FeatPVS != 0 {
				sc = -s.negamax(depth-1-r, ply+1, -alpha-1, -alpha, true)
				if sc > alpha && r > 0 {
					sc = -s.negamax(depth-1, ply+1, -alpha-1, -alpha, true)
				}
				if sc > alpha && sc < beta {
					sc = -s.negamax(depth-1, ply+1, -beta, -alpha, true)
				}
			} else {
				if r > 0 {
					sc = -s.negamax(depth-1-r, ply+1, -beta, -alpha, true)
				}
				if r == 0 || sc > alpha {
					sc = -s.negamax(depth-1, ply+1, -beta, -alpha, true)
				}
			}
		}
		b.Unmake()
		if s.stopped {
			return 0
		}
		if sc > best {
			best, bestMove = sc, m
			if sc > alpha {
				alpha = sc
				s.pv[ply][ply] = m
				copy(s.pv[ply][ply+1:s.pvLen[ply+1]], s.pv[ply+1][ply+1:s.pvLen[ply+1]])
				s.pvLen[ply] = max(s.pvLen[ply+1], ply+1)
				if ply == 0 {
					s.iterBest, s.iterScore = m, sc
				}
				if alpha >= beta {
					if quiet {
						s.rememberCutoff(us, m, depth, ply, s.stack[ply].tried[:quiets-1])
					}
					break
				}
			}
		}
	}
	if excluded != board.NullMove {
		return max(best, alpha) // a bound for the singular test only: not stored
	}
	if evalKnown && (bestMove == board.NullMove || !bestMove.IsCapture() && !bestMove.IsPromotion()) {
		s.learnCorrection(best, rawEval, staticEval, depth, best >= beta, best <= origAlpha)
	}
	if s.tt != nil {
		bound := boundUpper
		switch {
		case best >= beta:
			bound = boundLower
		case best > origAlpha:
			bound = boundExact
		}
		s.tt.store(b.Hash(), bestMove, best, depth, ply, bound)
	}
	return best
}

// singular decides the singular extension at a node (feature singular):
// when the table's best move tte.move was found good (a lower or exact
// bound at least depth-3 deep) and every other move fails low against its
// score less singularMargin·depth in a search of half the depth, the hash
// move alone holds the position and is searched a ply deeper (ext = 1). If
// instead that reduced search without it still reaches beta, more than one
// move beats beta and a node off the principal variation is cut (cut:
// return beta, "multi-cut"). ok is false when the search was stopped
// meanwhile.
func (s *searcher) singular(tte ttEntry, ttHit bool, ttMove board.Move, depth, ply, beta int, pvNode bool) (ext int, cut, ok bool) {
	if s.feat&FeatSingular == 0 || !ttHit || ply == 0 || depth < singularDepth || ttMove == board.NullMove ||
		s.stack[ply].excluded != board.NullMove || tte.bound == boundUpper || int(tte.depth) < depth-3 ||
		ply >= 2*s.depth {
		return 0, false, true
	}
	ttScore := scoreFromTT(int(tte.score), ply)
	if abs(ttScore) >= mateBound {
		return 0, false, true
	}
	sBeta := ttScore - singularMargin*depth
	s.stack[ply].excluded = ttMove
	sc := s.negamax((depth-1)/2, ply, sBeta-1, sBeta, false)
	s.stack[ply].excluded = board.NullMove
	switch {
	case s.stopped:
		return 0, false, false
	case sc < sBeta:
		return 1, false, true
	case sBeta >= beta && !pvNode:
		return 0, true, true
	}
	return 0, false, true
}

// standPat is quiescence's static score of the current position: the
// evaluation, and with feature qcorr corrected by the correction history and
// refined by the table's bound tte (when ttHit) the way the main search's
// pruning uses it, kept clear of mate scores.
func (s *searcher) standPat(tte ttEntry, ttHit bool, ply int) int {
	ev := s.eval(ply)
	if s.feat&FeatQCorr == 0 {
		return ev
	}
	ev += s.correction()
	if ttHit {
		ev = refineEval(ev, scoreFromTT(int(tte.score), ply), tte.bound)
	}
	return max(-mateBound+1, min(mateBound-1, ev))
}

// refineEval returns the static evaluation ev corrected by a table score
// sc of the same node: a lower bound above ev, or an upper bound below it,
// says the search knows better than the evaluation (an exact score always
// does), so pruning decisions use it instead.
func refineEval(ev, sc int, bound uint8) int {
	if abs(sc) >= mateBound {
		return ev
	}
	switch {
	case bound == boundExact, bound == boundLower && sc > ev, bound == boundUpper && sc < ev:
		return sc
	}
	return ev
}

// seeLoses reports whether move m (ordering score sc) loses more material
// by static exchange than SEE pruning allows at depth: for a capture,
// seeCaptureMargin·depth², only computed for those ordered as losing; for a
// quiet move (castling aside), seeQuietMargin·depth.
func (s *searcher) seeLoses(m board.Move, quiet bool, sc int32, depth int) bool {
	switch {
	case m.IsCastle(): // SEE would count the king as lost on an attacked rook's square
		return false
	case quiet:
		return see(s.b, m) < -seeQuietMargin*depth
	case m.IsPromotion() || sc >= orderCapture:
		return false
	default:
		return see(s.b, m) < -seeCaptureMargin*depth*depth
	}
}

// rememberCutoff records the quiet move m that failed high: a killer at
// this ply, and a history bonus of depth² for m and the same malus for each
// quiet move searched before it without a cut-off (tried), so that moves
// that keep failing sink in the ordering instead of keeping the score of
// their old successes.
func (s *searcher) rememberCutoff(us board.Color, m board.Move, depth, ply int, tried []board.Move) {
	if s.feat&FeatKillers != 0 && s.killers[ply][0] != m {
		s.killers[ply][1] = s.killers[ply][0]
		s.killers[ply][0] = m
	}
	if s.feat&FeatHistory == 0 {
		return
	}
	bonus := int32(depth * depth)
	over := s.addHistory(us, m, bonus)
	for _, q := range tried {
		over = s.addHistory(us, q, -bonus) || over
	}
	if over {
		for c := range s.history {
			for f := range s.history[c] {
				for t := range s.history[c][f] {
					s.history[c][f][t] /= 2
				}
			}
		}
	}
}

// addHistory adds d to m's history score and reports whether its size
// reached historyMax (the table is then halved).
func (s *searcher) addHistory(us board.Color, m board.Move, d int32) bool {
	h := &s.history[us][m.From()][m.To()]
	*h += d
	return *h >= historyMax || *h <= -historyMax
}

func (s *searcher) qsearch(ply, alpha, beta int) int {
	s.pvLen[ply] = ply
	if s.checkStop() {
		return 0
	}
	s.nodes++
	b := s.b
	if ply >= maxPly-1 {
		return s.eval(ply)
	}
	ttMove := board.NullMove
	var tte ttEntry
	ttHit := false
	if s.tt != nil && s.feat&FeatQTT != 0 {
		// Every stored entry is at least as deep as quiescence (depth 0).
		if tte, ttHit = s.tt.probe(b.Hash()); ttHit {
			sc := scoreFromTT(int(tte.score), ply)
			if beta-alpha == 1 && (tte.bound == boundExact || (tte.bound == boundLower && sc >= beta) || (tte.bound == boundUpper && sc <= alpha)) {
				return sc
			}
			ttMove = tte.move
		}
	}
	inCheck := b.InCheck()
	ml, scores := &s.stack[ply].ml, &s.stack[ply].scores
	best, stand := -infinity, 0
	if inCheck {
		b.GenerateMoves(ml)
		if ml.N == 0 {
			return -mateScore + ply
		}
	} else {
		stand = s.standPat(tte, ttHit, ply)
		if stand >= beta {
			return stand
		}
		alpha = max(alpha, stand)
		best = stand
		b.GenerateCaptures(ml)
	}
	s.scoreMoves(ml, scores, ttMove, ply)
	for i := 0; i < ml.N; i++ {
		m := pickNext(ml, scores, i)
		if !inCheck && s.feat&FeatDelta != 0 && !m.IsPromotion() {
			victim := board.Pawn
			if !m.IsEnPassant() {
				victim = b.PieceAt(m.To()).Type()
			}
			if stand+seeValue[victim]+deltaMargin <= alpha {
				continue
			}
		}
		if !inCheck && s.feat&FeatSEE != 0 && scores[i] < orderCapture {
			break // the rest are losing captures (ordered last)
		}
		b.Make(m)
		sc := -s.qsearch(ply+1, -beta, -alpha)
		b.Unmake()
		if s.stopped {
			return 0
		}
		if sc > best {
			best = sc
			if sc > alpha {
				alpha = sc
				if alpha >= beta {
					break
				}
			}
		}
	}
	return best
}
