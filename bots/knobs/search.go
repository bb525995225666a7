package knobs

import (
	"context"
	"math"
	"sort"
	"time"

	"github.com/outpostchess/outpost/bots/board"
)

// abortSignal is the panic value that unwinds a search whose time, node
// budget or context ran out; iterate recovers it.
type abortSignal struct{}

// searcher runs one move selection. It is not safe for concurrent use.
type searcher struct {
	lc       lineContext
	p        *params
	ctx      context.Context
	deadline time.Time
	maxNodes int64
	nodes    int64
	maxExt   int
	hist     map[repKey]int // occurrences of each position in the game so far
	path     []plyRecord
	keys     []repKey
	killers  [maxKillerPly][2]killer // quiet moves that caused cut-offs, by ply
	tb       Tablebase               // probed below the root; nil = none
	tbDepth  int                     // least nominal depth left to probe at
	depth    int                     // the iteration being searched
}

// maxKillerPly bounds the plies that keep killer moves.
const maxKillerPly = 64

// killer is a quiet move by its squares.
type killer struct{ from, to board.Square }

func (s *searcher) addKiller(ply int, m board.Move) {
	if ply >= maxKillerPly || m.IsCapture() || m.IsPromotion() {
		return
	}
	k := killer{m.From(), m.To()}
	if s.killers[ply][0] != k {
		s.killers[ply][1], s.killers[ply][0] = s.killers[ply][0], k
	}
}

// result is the outcome of searching a node: its engine-centric score, the
// line that produced it and that line's breakdown.
type result struct {
	score float64
	pv    []string
	bd    Breakdown
}

// node is a position in the search with its mailbox and features. pos is
// owned by the node (positions are copied, never made and unmade).
type node struct {
	pos  *board.Board
	mb   mailbox
	feat features
}

func (s *searcher) tick() {
	s.nodes++
	// The first iteration always finishes (a few hundred nodes): the
	// engine then has a searched move to play at its deadline, never an
	// unsearched one.
	if s.nodes&255 == 0 && s.depth > 1 {
		if s.ctx.Err() != nil || (!s.deadline.IsZero() && time.Now().After(s.deadline)) {
			panic(abortSignal{})
		}
	}
	if s.maxNodes > 0 && s.nodes >= s.maxNodes {
		panic(abortSignal{})
	}
}

// child plays mv from n and returns the new node and the ply's record.
func (s *searcher) child(n *node, mv board.Move) (*node, plyRecord) {
	c := &s.p.cfg
	stm := colorIndex(n.pos.SideToMove())
	kind := absKind(n.mb[mv.From()])
	ch := &node{pos: n.pos.Clone(), mb: n.mb}
	ch.pos.Make(mv)
	captured, promo := ch.mb.play(mv, ch.pos)
	ch.feat = s.p.measure(&ch.mb)
	rec := plyRecord{
		move:       mv,
		uci:        mv.String(),
		mover:      stm,
		captured:   s.p.value[captured],
		givesCheck: ch.pos.InCheck(),
		devBefore:  s.netDevelopment(&n.feat, stm),
		devAfter:   s.netDevelopment(&ch.feat, stm),
	}
	if captured == kKing {
		rec.captured = 0
	}
	if promo != 0 {
		rec.promoGain = s.p.value[promo] - c.PieceValuePawn
	}
	color := n.pos.SideToMove()
	can := func(b *board.Board, side int) bool {
		_, ok := b.CastlingRook(color, side == kingSide)
		return ok
	}
	switch {
	case mv.Flag() == board.FlagCastleK:
		rec.castle = kingSide
	case mv.Flag() == board.FlagCastleQ:
		rec.castle = queenSide
	case kind == kKing:
		rec.kingMove = true
		rec.kingRight = can(n.pos, kingSide) || can(n.pos, queenSide)
	case kind == kRook:
		for _, side := range []int{kingSide, queenSide} {
			if can(n.pos, side) && !can(ch.pos, side) {
				rec.lostRight[side] = true
			}
		}
	}
	return ch, rec
}

// netDevelopment is side's development minus the weighted development of
// the other side.
func (s *searcher) netDevelopment(f *features, side int) float64 {
	return f[side].development - s.p.cfg.DevelopmentOpponentWeight*f[1-side].development
}

// drawn reports a draw by the fifty-move rule or insufficient material.
func drawn(n *node) bool {
	if n.pos.HalfmoveClock() >= 100 {
		return true
	}
	minors := 0
	for _, p := range n.mb {
		switch absKind(p) {
		case kPawn, kRook, kQueen:
			return false
		case kKnight, kBishop:
			minors++
		}
	}
	return minors <= 1
}

// repetitions counts how often key occurs in the game and the current line.
func (s *searcher) repetitions(k repKey) int {
	n := s.hist[k]
	for i := range s.keys {
		if s.keys[i] == k {
			n++
		}
	}
	return n
}

// orderMoves sorts captures by most valuable victim / least valuable
// attacker, then promotions, killer moves of this ply and checks, keeping
// generation order otherwise.
func (s *searcher) orderMoves(n *node, moves []board.Move) {
	ply := len(s.path)
	key := func(m board.Move) float64 {
		var k float64
		if ply < maxKillerPly {
			switch (killer{m.From(), m.To()}) {
			case s.killers[ply][0]:
				k += 3e4
			case s.killers[ply][1]:
				k += 2.5e4
			}
		}
		if v := absKind(n.mb[m.To()]); v != 0 && m.IsCapture() {
			k += 10*s.p.value[v] - s.p.value[absKind(n.mb[m.From()])]/10 + 1e5
		} else if m.IsEnPassant() {
			k += 10*s.p.cfg.PieceValuePawn + 1e5
		}
		if m.IsPromotion() {
			k += 5e4 + s.p.value[kindOf(m.Promotion())]
		}
		if givesCheck(n.pos, m) {
			k += 2e4
		}
		return k
	}
	keys := make([]float64, len(moves))
	idx := make([]int, len(moves))
	for i, m := range moves {
		keys[i], idx[i] = key(m), i
	}
	sort.SliceStable(idx, func(a, b int) bool { return keys[idx[a]] > keys[idx[b]] })
	sorted := make([]board.Move, len(moves))
	for i, j := range idx {
		sorted[i] = moves[j]
	}
	copy(moves, sorted)
}

// leaf scores the current line ending at n.
func (s *searcher) leaf(n *node, term int) result {
	bd := s.lc.score(&n.feat, s.path, colorIndex(n.pos.SideToMove()), term)
	return result{score: bd.Total, bd: bd}
}

// search returns the best line from n. depth is the nominal depth left;
// ext the extension plies used; swingPending that a material swing still
// awaits its non-check reply; checkSeq that the previous ply answered a
// check in the extension zone, so the side to move may keep checking.
// Long: the line search with its extensions, kept whole so that the specification's order of steps stays visible.
func (s *searcher) search(n *node, depth, ext int, swingPending, checkSeq bool, alpha, beta float64) result {
	s.tick()
	stm := colorIndex(n.pos.SideToMove())
	inCheck := n.feat[stm].inCheck
	if drawn(n) {
		return s.leaf(n, termDraw)
	}
	if r, ok := s.probeTB(n, depth); ok {
		return r
	}
	var moves []board.Move
	if inCheck || !hasMoveQuick(&n.mb, &n.feat, stm) {
		moves = n.pos.LegalMoves()
		if len(moves) == 0 {
			if inCheck {
				return s.leaf(n, termMate)
			}
			return s.leaf(n, termDraw)
		}
	}
	// Beyond the nominal depth only forced continuations are searched:
	// evasions when in check (full width); after a material swing the
	// reply side may recapture or compensate (captures and promotions) or
	// decline (stand pat, the line ends); after answering a check the
	// checking side may continue with checks or stop.
	standPat := false
	var keep func(board.Move) bool
	nextExt := ext
	if depth <= 0 {
		switch {
		case ext >= s.maxExt || (!inCheck && !swingPending && !checkSeq):
			return s.leaf(n, termNone)
		case inCheck:
			nextExt++
		default:
			nextExt++
			standPat = true
			keep = func(m board.Move) bool {
				return (swingPending && (m.IsCapture() || m.IsPromotion())) ||
					(checkSeq && givesCheck(n.pos, m))
			}
		}
	}

	maximize := stm == s.lc.engine
	best := result{score: math.Inf(-1)}
	if !maximize {
		best.score = math.Inf(1)
	}
	if standPat {
		best = s.leaf(n, termNone)
		if maximize {
			alpha = math.Max(alpha, best.score)
		} else {
			beta = math.Min(beta, best.score)
		}
		if alpha >= beta {
			return best
		}
	}
	if moves == nil {
		moves = n.pos.LegalMoves()
	}
	if keep != nil {
		kept := moves[:0]
		for _, m := range moves {
			if keep(m) {
				kept = append(kept, m)
			}
		}
		moves = kept
	}
	s.orderMoves(n, moves)
	for _, mv := range moves {
		ch, rec := s.child(n, mv)
		k := keyOf(&ch.mb, ch.pos)
		s.path = append(s.path, rec)
		var r result
		if s.repetitions(k) >= 2 {
			// This move makes the third occurrence: a draw, stop the line.
			s.keys = append(s.keys, k)
			r = s.leaf(ch, termDraw)
		} else {
			s.keys = append(s.keys, k)
			pending := rec.swing() || (swingPending && rec.givesCheck)
			childCheckSeq := depth <= 0 && inCheck
			r = s.search(ch, depth-1, nextExt, pending, childCheckSeq, alpha, beta)
		}
		s.path = s.path[:len(s.path)-1]
		s.keys = s.keys[:len(s.keys)-1]
		if (maximize && r.score > best.score) || (!maximize && r.score < best.score) {
			best = result{score: r.score, pv: append([]string{rec.uci}, r.pv...), bd: r.bd}
		}
		if maximize {
			alpha = math.Max(alpha, best.score)
		} else {
			beta = math.Min(beta, best.score)
		}
		if alpha >= beta {
			s.addKiller(len(s.path), mv)
			break
		}
	}
	return best
}

// candidate is one root move with its line and score.
type candidate struct {
	uci string
	res result
}

// searchRoot searches every root move to depth (the root ply included) and
// returns the candidates, best first. With exact set every candidate gets a
// full window (for debug reports); otherwise later moves are bounded.
func (s *searcher) searchRoot(root *node, moves []board.Move, depth int, exact bool) []candidate {
	cands := make([]candidate, 0, len(moves))
	alpha := math.Inf(-1)
	for _, mv := range moves {
		ch, rec := s.child(root, mv)
		k := keyOf(&ch.mb, ch.pos)
		s.path = append(s.path[:0], rec)
		s.keys = append(s.keys[:0], k)
		var r result
		if s.repetitions(k) >= 3 {
			r = s.leaf(ch, termDraw)
		} else {
			lo := alpha
			if exact {
				lo = math.Inf(-1)
			}
			r = s.search(ch, depth-1, 0, rec.swing(), false, lo, math.Inf(1))
		}
		s.path, s.keys = s.path[:0], s.keys[:0]
		r.pv = append([]string{rec.uci}, r.pv...)
		cands = append(cands, candidate{uci: rec.uci, res: r})
		alpha = math.Max(alpha, r.score)
	}
	sort.SliceStable(cands, func(a, b int) bool { return cands[a].res.score > cands[b].res.score })
	return cands
}

// givesCheck reports whether the legal move m checks the opponent.
func givesCheck(b *board.Board, m board.Move) bool {
	b.Make(m)
	check := b.InCheck()
	b.Unmake()
	return check
}
