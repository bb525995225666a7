//go:build !cgo || !linux

package syzygy

import "errors"

const tbMaxMoves = 193

// Available reports whether this build can load libfathom: it needs cgo
// on Linux, and this build is either CGO_ENABLED=0 or not for Linux.
const Available = false

// fathom is unavailable without cgo on Linux: Open reports it.
type fathom struct{}

func loadFathom(lib string) (*fathom, error) {
	return nil, errors.New("loading " + lib + ": Syzygy tablebases need a Linux build of outpost with cgo (CGO_ENABLED=1), which libfathom needs; this build has none, so remove the syzygy tables from the config or use such a build")
}

func (*fathom) init(string) bool                        { return false }
func (*fathom) largest() int                            { return 0 }
func (*fathom) wdl(*input) uint32                       { return tbResultFailed }
func (*fathom) root(*input, *[tbMaxMoves]uint32) uint32 { return tbResultFailed }
