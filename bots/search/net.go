package search

import (
	_ "embed"
	"encoding/binary"
	"errors"
	"fmt"
	"os"
	"sync"

	"github.com/outpostchess/outpost/bots/board"
)

// The learned evaluation (feature net, EvalNet) is EvalPlus plus a
// correction computed by a two-layer network in the shape engines call
// "768 → N×2 → 1": every (colour, piece type, square) is an input, seen
// from both sides; each side's view goes through the same first layer into
// netHidden units, and the output layer reads the side to move's units and
// then the other side's. It was trained on Stockfish's scores of quiet
// positions with EvalPlus as the starting point and a strong weight decay,
// so it only says what the hand-written terms miss (docs/engines.md,
// "Learned evaluation": a network standing alone, trained on the same
// data, lost 150 Elo — too little data for a whole evaluation). The first
// layer is summed incrementally as moves change squares (netStack).
const (
	netInputs = 768 // 2 colours (own, other) × 6 piece types × 64 squares
	// netHidden is the width of one side's hidden layer. 64 units keep the
	// first layer at 96 KiB (fits a core's L2 cache) and an update at 128
	// additions per changed square (docs/engines.md, "Learned evaluation",
	// has the cost; 32 is untried).
	netHidden = 64
	// netQA is the first layer's fixed-point scale: weights, biases and
	// the hidden activations' clamp [0, 1] are stored times 255.
	netQA = 255
	// netQB is the output layer's fixed-point scale.
	netQB = 64
	// netScale converts the network's output (a win-probability logit,
	// trained as sigmoid(out) ≈ sigmoid(cp/400)) to centipawns.
	netScale = 400
	// netMaxDiff is the number of changed squares above which an
	// accumulator is recomputed rather than updated: a refresh costs about
	// 30 piece additions, an update two per changed square (removal and
	// addition).
	netMaxDiff = 12
)

// netMagic opens a network file; the format is little-endian: magic,
// uint32 hidden width, then int16 first-layer weights (input-major),
// int16 first-layer biases, int16 output weights (side to move's units
// first), int32 output bias.
const netMagic = "OPNET1\x00\x00"

// netFileSize is the size of a network file of netHidden units.
const netFileSize = len(netMagic) + 4 + 2*(netInputs*netHidden+netHidden+2*netHidden) + 4

// Net is a quantised feature network (EvalNet). Its evaluation is exact
// integer arithmetic, so an accumulator updated move by move gives the
// same score as one summed from scratch.
type Net struct {
	w1 [netInputs][netHidden]int16
	b1 [netHidden]int16
	w2 [2 * netHidden]int16
	b2 int32
}

// netAcc holds the first layer's sums for both views (indexed by the
// viewing colour), biases included.
type netAcc struct {
	v [2][netHidden]int32
}

//go:embed nets/outpost-net-1.bin
var embeddedNetFile []byte

// embeddedNet is the network hard evaluates with (feature "net"), parsed
// once: read-only data, like the board's attack tables.
var embeddedNet = sync.OnceValue(func() *Net {
	n, err := ParseNet(embeddedNetFile)
	if err != nil {
		panic(fmt.Sprintf("search: embedded network: %v", err)) // a build defect, caught by TestEmbeddedNet
	}
	return n
})

// ParseNet reads a network file (MarshalBinary's format).
func ParseNet(data []byte) (*Net, error) {
	if len(data) < len(netMagic)+4 || string(data[:len(netMagic)]) != netMagic {
		return nil, errors.New("search: network file: bad magic (not an Outpost network)")
	}
	if h := binary.LittleEndian.Uint32(data[len(netMagic):]); h != netHidden {
		return nil, fmt.Errorf("search: network file: hidden width %d, this build evaluates %d", h, netHidden)
	}
	if len(data) != netFileSize {
		return nil, fmt.Errorf("search: network file: %d bytes, want %d", len(data), netFileSize)
	}
	n := new(Net)
	p := data[len(netMagic)+4:]
	next := func() int16 {
		v := int16(binary.LittleEndian.Uint16(p))
		p = p[2:]
		return v
	}
	for f := range n.w1 {
		for i := range n.w1[f] {
			n.w1[f][i] = next()
		}
	}
	for i := range n.b1 {
		n.b1[i] = next()
	}
	for i := range n.w2 {
		n.w2[i] = next()
	}
	n.b2 = int32(binary.LittleEndian.Uint32(p))
	return n, nil
}

// ReadNet reads and parses a network file (ParseNet's format).
func ReadNet(path string) (*Net, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("search: network: %w", err)
	}
	n, err := ParseNet(data)
	if err != nil {
		return nil, fmt.Errorf("search: network %s: %w", path, err)
	}
	return n, nil
}

// MarshalBinary writes the network in ParseNet's format.
func (n *Net) MarshalBinary() ([]byte, error) {
	out := make([]byte, 0, netFileSize)
	out = append(out, netMagic...)
	out = binary.LittleEndian.AppendUint32(out, netHidden)
	for f := range n.w1 {
		for _, v := range n.w1[f] {
			out = binary.LittleEndian.AppendUint16(out, uint16(v))
		}
	}
	for _, v := range n.b1 {
		out = binary.LittleEndian.AppendUint16(out, uint16(v))
	}
	for _, v := range n.w2 {
		out = binary.LittleEndian.AppendUint16(out, uint16(v))
	}
	return binary.LittleEndian.AppendUint32(out, uint32(n.b2)), nil
}

// netFeature is the input index of piece p on sq seen by colour view: the
// viewer's own pieces first, and Black sees the board flipped so that both
// views share one set of weights.
func netFeature(view board.Color, p board.Piece, sq board.Square) int {
	rel := 0
	if p.Color() != view {
		rel = 1
	}
	if view == board.Black {
		sq ^= 56
	}
	return rel*384 + int(p.Type())*64 + int(sq)
}

// refresh sums a from scratch for the position whose pieces are bb
// (netPieces).
func (n *Net) refresh(a *netAcc, bb *[12]board.Bitboard) {
	for v := range a.v {
		for i := range a.v[v] {
			a.v[v][i] = int32(n.b1[i])
		}
	}
	for p, set := range bb {
		for set != 0 {
			n.add(a, board.Piece(p), board.PopLSB(&set))
		}
	}
}

// netPieces is b's bitboard of each piece (indexed by board.Piece).
func netPieces(b *board.Board) [12]board.Bitboard {
	var bb [12]board.Bitboard
	for c := board.White; c <= board.Black; c++ {
		for t := board.Pawn; t <= board.King; t++ {
			bb[board.MakePiece(c, t)] = b.Pieces(c, t)
		}
	}
	return bb
}

// add puts piece p on sq into both views of a.
func (n *Net) add(a *netAcc, p board.Piece, sq board.Square) {
	w, b := &n.w1[netFeature(board.White, p, sq)], &n.w1[netFeature(board.Black, p, sq)]
	for i := range netHidden {
		a.v[board.White][i] += int32(w[i])
		a.v[board.Black][i] += int32(b[i])
	}
}

// output is the network's correction in centipawns for side stm to move.
func (n *Net) output(a *netAcc, stm board.Color) int {
	us, them := &a.v[stm], &a.v[stm^1]
	sum := n.b2
	for i := range netHidden {
		sum += min(max(us[i], 0), netQA)*int32(n.w2[i]) + min(max(them[i], 0), netQA)*int32(n.w2[netHidden+i])
	}
	return int(sum) * netScale / (netQA * netQB)
}

// Evaluate returns EvalPlus's score of b plus the network's correction, in
// centipawns for the side to move, summed from scratch (0 when neither
// side can mate, as Evaluate).
func (n *Net) Evaluate(b *board.Board) int {
	if b.InsufficientMaterial() {
		return 0
	}
	var a netAcc
	bb := netPieces(b)
	n.refresh(&a, &bb)
	return Evaluate(b, EvalPlus) + n.output(&a, b.SideToMove())
}

// netStack keeps one accumulator per ply of the search. A node's
// accumulator is derived from its parent's by the squares whose content
// differs (any move — castling, en passant, promotion, a null move — is
// just changed squares, found by comparing the pieces' bitboards), or from
// whatever the slot held when the parent's slot is empty; too many
// differences mean a refresh. The result never depends on which slot it
// started from, only the cost does.
type netStack struct {
	net   *Net
	slots [maxPly + 1]netSlot
}

type netSlot struct {
	bb  [12]board.Bitboard // the position the accumulator sums
	acc netAcc
	ok  bool
}

// eval returns EvalPlus's score of b, the position at ply, plus the
// network's correction.
func (st *netStack) eval(b *board.Board, ply int) int {
	if b.InsufficientMaterial() {
		return 0
	}
	bb := netPieces(b)
	dst := &st.slots[ply]
	src := dst
	if ply > 0 && st.slots[ply-1].ok {
		src = &st.slots[ply-1]
	}
	if !src.ok || !st.update(dst, src, &bb) {
		st.net.refresh(&dst.acc, &bb)
	}
	dst.bb, dst.ok = bb, true
	return Evaluate(b, EvalPlus) + st.net.output(&dst.acc, b.SideToMove())
}

// update derives dst's accumulator from src's for the position bb, or
// reports false when more than netMaxDiff pieces left or reached a square.
// A quiet move (one piece off a square, one on) and a capture (two off,
// one on) are summed in one pass per view with the copy from src;
// anything else (castling, en passant, a far position) by copy and one
// pass per change.
func (st *netStack) update(dst, src *netSlot, bb *[12]board.Bitboard) bool {
	var offP, onP [netMaxDiff]board.Piece
	var offS, onS [netMaxDiff]board.Square
	nOff, nOn := 0, 0
	for p := range bb {
		x := src.bb[p] ^ bb[p]
		if x == 0 {
			continue
		}
		if nOff+nOn+board.Count(x) > netMaxDiff {
			return false
		}
		for off := src.bb[p] & x; off != 0; nOff++ {
			offP[nOff], offS[nOff] = board.Piece(p), board.PopLSB(&off)
		}
		for on := bb[p] & x; on != 0; nOn++ {
			onP[nOn], onS[nOn] = board.Piece(p), board.PopLSB(&on)
		}
	}
	var off, on [netMaxDiff]int // input indices in the view being updated
	n := st.net
	for v := board.White; v <= board.Black; v++ {
		for k := range nOff {
			off[k] = netFeature(v, offP[k], offS[k])
		}
		for k := range nOn {
			on[k] = netFeature(v, onP[k], onS[k])
		}
		d, s := &dst.acc.v[v], &src.acc.v[v]
		switch {
		case nOff == 1 && nOn == 1:
			a, r := &n.w1[on[0]], &n.w1[off[0]]
			for i := range netHidden {
				d[i] = s[i] + int32(a[i]) - int32(r[i])
			}
		case nOff == 2 && nOn == 1:
			a, r1, r2 := &n.w1[on[0]], &n.w1[off[0]], &n.w1[off[1]]
			for i := range netHidden {
				d[i] = s[i] + int32(a[i]) - int32(r1[i]) - int32(r2[i])
			}
		default:
			*d = *s
			for k := range nOff {
				r := &n.w1[off[k]]
				for i := range netHidden {
					d[i] -= int32(r[i])
				}
			}
			for k := range nOn {
				a := &n.w1[on[k]]
				for i := range netHidden {
					d[i] += int32(a[i])
				}
			}
		}
	}
	return true
}
