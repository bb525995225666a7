package config

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// SyzygyConfig is an engine's [engines.NAME.syzygy] table: local Syzygy
// endgame tablebases. Our engines (easy, medium, hard, knobs, maia) play
// covered positions from the tables (move source "syzygy") and medium,
// hard and knobs also probe WDL inside their search; a uci engine gets
// SyzygyPath (and SyzygyProbeLimit, SyzygyProbeDepth when set) instead.
type SyzygyConfig struct {
	Enabled    bool     `toml:"enabled"`     // use the tables
	Path       []string `toml:"path"`        // directories holding .rtbw/.rtbz files
	MaxPieces  int      `toml:"max_pieces"`  // probe positions with at most this many pieces; 0 = all the tables cover
	ProbeDepth int      `toml:"probe_depth"` // in-search probing from this remaining depth on; 0 = 1
}

// Syzygy limits, checked by config check.
const (
	// SyzygyMinPieces..SyzygyMaxPieces is the max_pieces range: Syzygy
	// tables exist for 3 to 7 pieces (kings included).
	SyzygyMinPieces = 3
	SyzygyMaxPieces = 7
	// SyzygyMaxProbeDepth bounds probe_depth: our engines search at most
	// 64 plies deep (Stockfish accepts up to 100).
	SyzygyMaxProbeDepth = 64
)

// SyzygyOn reports whether the definition asks for tablebases.
func (e EngineConfig) SyzygyOn() bool { return e.Syzygy != nil && e.Syzygy.Enabled }

// SyzygyPathOption is the value of a UCI engine's SyzygyPath option for
// the directories: joined with ':' as Stockfish expects on Unix.
func (s SyzygyConfig) SyzygyPathOption() string { return strings.Join(s.Path, ":") }

// checkEngineSyzygy validates an engine's [engines.NAME.syzygy] table.
func checkEngineSyzygy(ch *checker, key string, e EngineConfig) {
	if e.Syzygy == nil {
		return
	}
	s := *e.Syzygy
	key += ".syzygy"
	ch.intRangeOrZero(key+".max_pieces", s.MaxPieces, SyzygyMinPieces, SyzygyMaxPieces, "pieces, kings included", "all the tables cover")
	ch.intRange(key+".probe_depth", s.ProbeDepth, 0, SyzygyMaxProbeDepth, "plies of remaining depth (0 = 1)")
	if !s.Enabled {
		return
	}
	if len(s.Path) == 0 {
		ch.fail(key+".path", nil, "missing: enabled tables need at least one directory", `a list such as ["/var/lib/syzygy"]`)
	}
	for i, d := range s.Path {
		if problem := syzygyDirProblem(d); problem != "" {
			ch.fail(key+".path["+strconv.Itoa(i)+"]", d, problem, "a directory holding Syzygy .rtbw/.rtbz files")
		}
	}
	if e.Type == EngineUCI {
		for o := range e.Options {
			if strings.EqualFold(o, "SyzygyPath") {
				ch.fail(joinKey(key[:len(key)-len(".syzygy")]+".options", o), nil, "conflicts with the syzygy table", "SyzygyPath in options or [syzygy] path, not both")
			}
		}
	}
}

// syzygyDirProblem says what is wrong with a table directory, or "".
func syzygyDirProblem(d string) string {
	if strings.Contains(d, ":") {
		return "contains ':', the path separator of SyzygyPath"
	}
	fi, err := os.Stat(d)
	switch {
	case err != nil:
		return "cannot be read: " + err.Error()
	case !fi.IsDir():
		return "not a directory"
	}
	m, err := filepath.Glob(filepath.Join(filepath.Clean(d), "*.rtbw"))
	if err != nil || len(m) == 0 {
		return "holds no Syzygy WDL table (*.rtbw)"
	}
	return ""
}

// checkSyzygyShared checks that the engines Outpost probes tables for
// itself (every type but uci, which probes in its own process) name the
// same directories: libfathom serves one set per process.
func (c *Config) checkSyzygyShared(ch *checker, sortedNames []string) {
	first, firstPath := "", ""
	for _, name := range sortedNames {
		e := c.Engines.Defs[name]
		if !e.SyzygyOn() || e.Type == EngineUCI {
			continue
		}
		p := canonicalDirs(e.Syzygy.Path)
		switch {
		case first == "":
			first, firstPath = name, p
		case p != firstPath:
			ch.fail(joinKey("engines", name)+".syzygy.path", e.Syzygy.Path,
				"differs from engines."+first+".syzygy.path",
				"the same directories, in the same order, for every non-uci engine (libfathom serves one set per process)")
		}
	}
}

// canonicalDirs joins dirs as absolute paths without symbolic links (as
// written when that fails), so that two spellings of one set compare equal.
func canonicalDirs(dirs []string) string {
	out := make([]string, len(dirs))
	for i, d := range dirs {
		out[i] = d
		if abs, err := filepath.Abs(d); err == nil {
			out[i] = abs
			if r, err := filepath.EvalSymlinks(abs); err == nil {
				out[i] = r
			}
		}
	}
	return strings.Join(out, ":")
}
