//go:build !cgo || !linux

package syzygy

import "errors"

const tbMaxMoves = 193

// fathom is unavailable without cgo on Linux: Open reports it.
type fathom struct{}

func loadFathom(lib string) (*fathom, error) {
	return nil, errors.New("loading " + lib + ": this build has no cgo on Linux, which libfathom needs")
}

func (*fathom) init(string) bool                        { return false }
func (*fathom) largest() int                            { return 0 }
func (*fathom) wdl(*input) uint32                       { return tbResultFailed }
func (*fathom) root(*input, *[tbMaxMoves]uint32) uint32 { return tbResultFailed }
