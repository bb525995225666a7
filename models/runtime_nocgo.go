//go:build !cgo

package models

import "fmt"

// HasONNXRuntime reports whether this build can run ONNX Runtime: it needs
// cgo, and this build has none.
const HasONNXRuntime = false

// DefaultRuntime is the runtime of a Config that names none: the pure-Go
// forward pass, the only one a build without cgo has.
const DefaultRuntime = RuntimeGo

// Runtime stands for ONNX Runtime, which a build without cgo cannot load:
// NewRuntime always fails, saying so.
type Runtime struct{}

// errNoCgo is the error of every ONNX Runtime entry point without cgo.
var errNoCgo = fmt.Errorf("models: ONNX Runtime needs a cgo build of outpost (this one was built with CGO_ENABLED=0); use runtime %q for Maia-1", RuntimeGo)

// NewRuntime fails: ONNX Runtime needs cgo.
func NewRuntime(Config) (*Runtime, error) { return nil, errNoCgo }

// Version fails: ONNX Runtime needs cgo.
func (*Runtime) Version() (string, error) { return "", errNoCgo }

func (*Runtime) modelIO([]byte) (ins, outs []tensorInfo, err error) { return nil, nil, errNoCgo }

func (*Runtime) newSession([]byte, []string, []string) (evaluator, error) { return nil, errNoCgo }
