//go:build cgo

package models

import (
	"errors"
	"fmt"
	"os"
	"sync"

	ort "github.com/yalue/onnxruntime_go"
)

// HasONNXRuntime reports whether this build can run ONNX Runtime (it has
// cgo, which onnxruntime_go needs).
const HasONNXRuntime = true

// DefaultRuntime is the runtime of a Config that names none: ONNX Runtime,
// the faster one, in builds that have it.
const DefaultRuntime = RuntimeONNX

// ortProcess guards ONNX Runtime's process-global environment. The
// onnxruntime_go library keeps the loaded shared library and the ORT
// environment in package globals: it can be initialised once per process and
// is never torn down by Outpost (it lives until exit). This mutex and the
// library path it records are the only process-wide state of this package;
// they exist because the underlying C library is itself process-global.
var ortProcess struct {
	sync.Mutex
	library string
}

// Runtime is a handle on ONNX Runtime for building sessions. Create one per
// process (or several: every Runtime shares the process's single ORT
// environment, and all must name the same library file). The environment is
// initialised lazily, exactly once per Runtime (sync.Once), on the first
// session; it is never destroyed.
type Runtime struct {
	library string
	threads int
	spin    bool
	opt     ort.GraphOptimizationLevel

	once    sync.Once
	initErr error
}

// NewRuntime returns a Runtime for the library and thread count in cfg
// (which should be resolved). It fails with an install hint when the library
// file is missing.
func NewRuntime(cfg Config) (*Runtime, error) {
	cfg, err := cfg.Resolve()
	if err != nil {
		return nil, err
	}
	if _, err := os.Stat(cfg.Library); err != nil {
		if errors.Is(err, os.ErrNotExist) {
			return nil, missing("ONNX Runtime library", cfg.Library)
		}
		return nil, fmt.Errorf("models: ONNX Runtime library: %w", err)
	}
	return &Runtime{library: cfg.Library, threads: cfg.Threads, spin: cfg.Spin, opt: graphOptLevels[cfg.GraphOptimization]}, nil
}

// init loads the shared library and creates the ORT environment, once.
func (r *Runtime) init() error {
	r.once.Do(func() {
		ortProcess.Lock()
		defer ortProcess.Unlock()
		if ort.IsInitialized() {
			if ortProcess.library != r.library {
				r.initErr = fmt.Errorf("models: ONNX Runtime already loaded from %s in this process; cannot also load %s", ortProcess.library, r.library)
			}
			return
		}
		ort.SetSharedLibraryPath(r.library)
		if err := ort.InitializeEnvironment(ort.WithLogLevelError()); err != nil {
			r.initErr = fmt.Errorf("models: load ONNX Runtime from %s (reinstall with `%s`): %w", r.library, FetchCommand, err)
			return
		}
		ortProcess.library = r.library
	})
	return r.initErr
}

// Version returns the ONNX Runtime version string.
func (r *Runtime) Version() (string, error) {
	if err := r.init(); err != nil {
		return "", err
	}
	return ort.GetVersion(), nil
}

// modelIO returns the input and output names and types of an ONNX model.
func (r *Runtime) modelIO(onnx []byte) (ins, outs []tensorInfo, err error) {
	if err := r.init(); err != nil {
		return nil, nil, err
	}
	in, out, err := ort.GetInputOutputInfoWithONNXData(onnx)
	if err != nil {
		return nil, nil, fmt.Errorf("models: read model inputs/outputs: %w", err)
	}
	conv := func(list []ort.InputOutputInfo) []tensorInfo {
		res := make([]tensorInfo, len(list))
		for i, x := range list {
			res[i] = tensorInfo{Name: x.Name, Int64: x.DataType == ort.TensorElementDataTypeInt64, Dims: append([]int64(nil), x.Dimensions...)}
		}
		return res
	}
	return conv(in), conv(out), nil
}

// session is a loaded ONNX Runtime session with fixed input/output names.
type session struct {
	s       *ort.DynamicAdvancedSession
	inputs  []string
	outputs []string
}

// newSession loads a model from memory with the runtime's thread settings and
// full graph optimisation.
func (r *Runtime) newSession(onnx []byte, inputs, outputs []string) (evaluator, error) {
	if err := r.init(); err != nil {
		return nil, err
	}
	opts, err := ort.NewSessionOptions()
	if err != nil {
		return nil, fmt.Errorf("models: session options: %w", err)
	}
	defer opts.Destroy()
	for _, step := range []func() error{
		func() error { return opts.SetIntraOpNumThreads(r.threads) },
		func() error { return opts.SetInterOpNumThreads(1) },
		func() error { return opts.SetGraphOptimizationLevel(r.opt) },
		func() error { return opts.SetExecutionMode(ort.ExecutionModeSequential) },
		func() error { return opts.AddSessionConfigEntry("session.intra_op.allow_spinning", spin(r.spin)) },
	} {
		if err := step(); err != nil {
			return nil, fmt.Errorf("models: session options: %w", err)
		}
	}
	s, err := ort.NewDynamicAdvancedSessionWithONNXData(onnx, inputs, outputs, opts)
	if err != nil {
		return nil, fmt.Errorf("models: create session: %w", err)
	}
	return &session{s: s, inputs: inputs, outputs: outputs}, nil
}

// eval runs one batch of count positions through the session.
func (s *session) eval(ins, outs []port, inF [][]float32, inI [][]int64, out [][]float32, count int) error {
	values := make([]ort.Value, 0, len(ins)+len(outs))
	defer func() {
		for _, v := range values {
			_ = v.Destroy()
		}
	}()
	for k, p := range ins {
		shape := ort.NewShape(append([]int64{int64(count)}, p.shape...)...)
		var v ort.Value
		var err error
		if p.int64 {
			v, err = ort.NewTensor(shape, inI[k][:count*p.size()])
		} else {
			v, err = ort.NewTensor(shape, inF[k][:count*p.size()])
		}
		if err != nil {
			return fmt.Errorf("models: input %s: %w", p.name, err)
		}
		values = append(values, v)
	}
	for k, p := range outs {
		shape := ort.NewShape(append([]int64{int64(count)}, p.shape...)...)
		v, err := ort.NewTensor(shape, out[k][:count*p.size()])
		if err != nil {
			return fmt.Errorf("models: output %s: %w", p.name, err)
		}
		values = append(values, v)
	}
	if err := s.s.Run(values[:len(ins)], values[len(ins):]); err != nil {
		return fmt.Errorf("models: run batch of %d: %w", count, err)
	}
	return nil
}

// close releases the session.
func (s *session) close() error {
	if err := s.s.Destroy(); err != nil {
		return fmt.Errorf("models: destroy session: %w", err)
	}
	return nil
}

func spin(on bool) string {
	if on {
		return "1"
	}
	return "0"
}

// graphOptLevels maps Config.GraphOptimization to ONNX Runtime levels.
var graphOptLevels = map[string]ort.GraphOptimizationLevel{
	"all":      ort.GraphOptimizationLevelEnableAll,
	"extended": ort.GraphOptimizationLevelEnableExtended,
	"basic":    ort.GraphOptimizationLevelEnableBasic,
	"none":     ort.GraphOptimizationLevelDisableAll,
}
