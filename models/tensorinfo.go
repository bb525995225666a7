package models

// tensorInfo describes one graph input or output.
type tensorInfo struct {
	Name  string
	Int64 bool    // element type int64 (else float32)
	Dims  []int64 // dimensions; -1 for symbolic ones
}
