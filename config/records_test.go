package config

import (
	"testing"
)

// TestPonderRecordsLogValidation: the ponder, [records] and [log] file keys
// are refused with the key, the value and what is allowed.
func TestPonderRecordsLogValidation(t *testing.T) {
	cases := []refusal{
		{"ponder maia", "[engines.m]\ntype = \"maia\"\nrating = 1500\nponder = true", "engines.m.ponder", "uci, medium, hard"},
		{"ponder easy", "[engines.e]\ntype = \"easy\"\nponder = true", "engines.e.ponder", "does not search"},
		{"ponder knobs", "[engines.k]\ntype = \"knobs\"\nponder = true", "engines.k.ponder", "type knobs"},
		{"records per", "[records]\nper = \"week\"", "records.per", "game, day"},
		{"records dir blank", "[records]\ndir = \"  \"", "records.dir", "only blanks"},
		{"log file dir", "[log]\nfile = \"logs/\"", "log.file", "names a directory"},
		{"log size", "[log]\nmax_size_mb = 0", "log.max_size_mb", "1..10240"},
		{"log files", "[log]\nmax_files = 1001", "log.max_files", "1..1000"},
	}
	checkRefusals(t, cases, nil)
	for _, src := range []string{
		"[engines.sf]\ntype = \"uci\"\npath = \"/usr/games/stockfish\"\nponder = true",
		"[engines.h]\ntype = \"hard\"\nponder = true\n[engines.m]\ntype = \"medium\"\nponder = true",
		"[records]\ndir = \"records\"\nper = \"day\"\n[log]\nfile = \"outpost.log\"\nmax_size_mb = 1\nmax_files = 1",
	} {
		if _, err := Parse([]byte(src), "valid"); err != nil {
			t.Errorf("%q refused: %v", src, err)
		}
	}
}
