package game

import "sort"

// MoveProb is a legal move in standard UCI (e1g1 for castling) and the
// probability a model gives it.
type MoveProb struct {
	UCI string  `json:"uci"`
	P   float64 `json:"p"`
}

// SortMoves orders moves by decreasing probability, ties by UCI.
func SortMoves(ms []MoveProb) {
	sort.Slice(ms, func(i, j int) bool {
		if ms[i].P != ms[j].P {
			return ms[i].P > ms[j].P
		}
		return ms[i].UCI < ms[j].UCI
	})
}
