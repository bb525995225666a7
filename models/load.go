package models

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/outpostchess/outpost/models/lc0"
	"github.com/outpostchess/outpost/models/maia1"
	"github.com/outpostchess/outpost/models/maia2"
)

// Maia1Levels are the rating levels of the Maia-1 models.
var Maia1Levels = [...]int{1100, 1200, 1300, 1400, 1500, 1600, 1700, 1800, 1900}

// Maia1WeightsSHA256 returns the pinned SHA-256 (lower-case hex) of the
// official weights file maia-<level>.pb.gz of the maia-chess v1.0 release,
// and false for a level that is not one of Maia1Levels. The installer
// accepts a copy or download of the weights only with this digest.
func Maia1WeightsSHA256(level int) (string, bool) {
	switch level {
	case 1100:
		return "e1cf1cd0c96b8a4fa6a275f4b9fd54ed1ffebf9fe44641b9fceded310e9619c4", true
	case 1200:
		return "ead4ba953f233ae732999ebc1e2b675378148527ebcfad2f0acbc5e4c224d98e", true
	case 1300:
		return "36195f87bf4761834baa0bf87472b18509a7261a9d7d6f1a8443261369a733f2", true
	case 1400:
		return "d5353ea6766356dad2d28920c6692f37a5f30963767f1a3105d33b4d0af011e8", true
	case 1500:
		return "35ab6f20421d59e1df3b17c5a5016947af4c6761368ef84044a9a9c7619a9a00", true
	case 1600:
		return "d2c9e5948581acf4b9fc0b1e720c5dc0fe64ce80cfc4a239d3f8a42e1176c876", true
	case 1700:
		return "d277eacd792d340a30abb464dc65127254e65cac57abca17facc469889b96478", true
	case 1800:
		return "0031ad7c4256b1fd09fbebd28418d644d68b26cd2a45df4967ccf5c7ec9c4965", true
	case 1900:
		return "e2f565f42d7cd9f122557e6dc4eb84e5bbaedceda1d404dc485d3611c7c97a12", true
	}
	return "", false
}

// Maia2Name is the model name of the user-supplied Maia-2 file.
const Maia2Name = "maia2"

// NearestMaia1 returns the Maia-1 level closest to rating (ties go up);
// ratings outside 1100..1900 get the nearest end.
func NearestMaia1(rating int) int {
	best := Maia1Levels[0]
	for _, l := range Maia1Levels {
		if abs(rating-l) <= abs(rating-best) {
			best = l
		}
	}
	return best
}

// Maia1Name returns the model name of a Maia-1 level ("maia-1500").
func Maia1Name(level int) string { return fmt.Sprintf("maia-%d", level) }

// ParseModel parses a model name: "maia-1500" (any Maia-1 level) or "maia2".
// It returns the Maia-1 level, or 0 for Maia-2.
func ParseModel(name string) (int, error) {
	if name == Maia2Name {
		return 0, nil
	}
	if s, ok := strings.CutPrefix(name, "maia-"); ok {
		if n, err := strconv.Atoi(s); err == nil {
			for _, l := range Maia1Levels {
				if l == n {
					return n, nil
				}
			}
		}
	}
	return 0, fmt.Errorf("models: unknown model %q (want maia-1100 … maia-1900 or %s)", name, Maia2Name)
}

// Maia1Weights returns the weights file of a Maia-1 level.
func (c Config) Maia1Weights(level int) string {
	return filepath.Join(c.Maia1Dir, fmt.Sprintf("maia-%d.pb.gz", level))
}

// readMaia1 reads the lc0 weights file of a Maia-1 level.
func readMaia1(cfg Config, level int) ([]byte, error) {
	path := cfg.Maia1Weights(level)
	raw, err := os.ReadFile(path)
	if err != nil {
		if errors.Is(err, os.ErrNotExist) {
			return nil, missing(fmt.Sprintf("Maia-1 weights for level %d", level), path)
		}
		return nil, fmt.Errorf("models: read %s: %w", path, err)
	}
	return raw, nil
}

// Maia1Net reads and parses the lc0 network of a Maia-1 level (what the
// pure-Go runtime evaluates).
func Maia1Net(cfg Config, level int) (*lc0.Net, error) {
	raw, err := readMaia1(cfg, level)
	if err != nil {
		return nil, err
	}
	net, err := lc0.Read(bytes.NewReader(raw))
	if err != nil {
		return nil, fmt.Errorf("models: %s: %w", cfg.Maia1Weights(level), err)
	}
	return net, nil
}

// Maia1ONNX returns the ONNX model of a Maia-1 level, converting the lc0
// weights on first use. The conversion is cached next to the weights as
// maia-<level>-<sha256 prefix>.onnx, keyed by the weights' SHA-256; when the
// directory is not writable the model is converted in memory each time.
func Maia1ONNX(cfg Config, level int) ([]byte, error) {
	raw, err := readMaia1(cfg, level)
	if err != nil {
		return nil, err
	}
	path := cfg.Maia1Weights(level)
	sum := sha256.Sum256(raw)
	cache := filepath.Join(cfg.Maia1Dir, fmt.Sprintf("maia-%d-%s.onnx", level, hex.EncodeToString(sum[:8])))
	if b, err := os.ReadFile(cache); err == nil && len(b) > 0 {
		return b, nil
	}
	net, err := lc0.Read(bytes.NewReader(raw))
	if err != nil {
		return nil, fmt.Errorf("models: %s: %w", path, err)
	}
	onnx, err := maia1.BuildONNX(net, Maia1Name(level))
	if err != nil {
		return nil, err
	}
	writeAtomic(cache, onnx) // best effort: a read-only dir just means no cache
	return onnx, nil
}

// writeAtomic writes data to path through a temporary file and a rename.
func writeAtomic(path string, data []byte) {
	tmp, err := os.CreateTemp(filepath.Dir(path), ".tmp-*.onnx")
	if err != nil {
		return
	}
	_, werr := tmp.Write(data)
	cerr := tmp.Close()
	if werr != nil || cerr != nil || os.Rename(tmp.Name(), path) != nil {
		_ = os.Remove(tmp.Name())
	}
}

// maia2Names are the tensor names found in a Maia-2 model.
type maia2Names struct {
	boards, eloSelf, eloOppo string
}

// maia2Ports inspects a Maia-2 ONNX model and returns its input/output ports.
func (r *Runtime) maia2Ports(onnx []byte) (ins, outs []port, err error) {
	mi, mo, err := r.modelIO(onnx)
	if err != nil {
		return nil, nil, err
	}
	var n maia2Names
	for _, in := range mi {
		low := strings.ToLower(in.Name)
		switch {
		case !in.Int64 && n.boards == "":
			n.boards = in.Name
		case in.Int64 && strings.Contains(low, "self"):
			n.eloSelf = in.Name
		case in.Int64 && strings.Contains(low, "oppo"):
			n.eloOppo = in.Name
		}
	}
	if n.boards == "" || n.eloSelf == "" || n.eloOppo == "" || len(mi) != 3 {
		names := make([]string, len(mi))
		for i, x := range mi {
			names[i] = x.Name
		}
		return nil, nil, fmt.Errorf("models: Maia-2 model inputs %v: want a float32 boards input and int64 elo_self/elo_oppo (or elos_self/elos_oppo)", names)
	}
	for _, in := range mi {
		if in.Name == n.boards && !dimsMatch(in.Dims, maia2.Planes, 8, 8) {
			return nil, nil, fmt.Errorf("models: Maia-2 input %s has shape %v, want [batch,18,8,8]", in.Name, in.Dims)
		}
	}
	outDims := map[string][]int64{}
	for _, o := range mo {
		outDims[o.Name] = o.Dims
	}
	pol, okP := outDims[maia2.PolicyName]
	val, okV := outDims[maia2.ValueName]
	if !okP || !okV {
		return nil, nil, fmt.Errorf("models: Maia-2 model lacks outputs %s and %s", maia2.PolicyName, maia2.ValueName)
	}
	if !dimsMatch(pol, maia2.VocabSize) {
		return nil, nil, fmt.Errorf("models: Maia-2 output %s has shape %v, want [batch,%d]", maia2.PolicyName, pol, maia2.VocabSize)
	}
	var valShape []int64 // [batch] in the reference export; [batch,1] accepted
	switch {
	case dimsMatch(val):
	case dimsMatch(val, 1):
		valShape = []int64{1}
	default:
		return nil, nil, fmt.Errorf("models: Maia-2 output %s has shape %v, want [batch]", maia2.ValueName, val)
	}
	ins = []port{
		{name: n.boards, shape: []int64{maia2.Planes, 8, 8}},
		{name: n.eloSelf, int64: true},
		{name: n.eloOppo, int64: true},
	}
	outs = []port{
		{name: maia2.PolicyName, shape: []int64{maia2.VocabSize}},
		{name: maia2.ValueName, shape: valShape},
	}
	return ins, outs, nil
}

// dimsMatch reports whether dims is [batch, want...], where symbolic
// dimensions (-1) match anything.
func dimsMatch(dims []int64, want ...int64) bool {
	if len(dims) != len(want)+1 {
		return false
	}
	for i, w := range want {
		if d := dims[i+1]; d != -1 && d != w {
			return false
		}
	}
	return true
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}
