package config

import "strings"

// RecordsConfig is the [records] section: our own record of every game
// played, as PGN with our engine's evaluations.
type RecordsConfig struct {
	Dir string `toml:"dir"` // directory of the PGN records; "" = none
	Per string `toml:"per"` // game (one file per game) | day (one file per UTC day)
}

// RecordsPer lists the values of records.per.
func RecordsPer() []string { return []string{"game", "day"} }

// Log file limits (the rotation of [log] file).
const (
	maxLogSizeMB = 10240 // 10 GiB per file
	maxLogFiles  = 1000  // rotated files kept
)

func (c *Config) checkRecords(ch *checker) {
	ch.oneOf("records.per", c.Records.Per, RecordsPer())
	if c.Records.Dir != "" && strings.TrimSpace(c.Records.Dir) == "" {
		ch.fail("records.dir", c.Records.Dir, "only blanks", `a directory such as "records", or "" for no records`)
	}
}

// checkLogFile checks the [log] file keys: the rotation applies only when a
// file is set, but its limits are checked always.
func (c *Config) checkLogFile(ch *checker) {
	l := c.Log
	if l.File != "" && strings.TrimSpace(l.File) == "" {
		ch.fail("log.file", l.File, "only blanks", `a file name such as "outpost.log", or "" for the console only`)
	}
	if strings.HasSuffix(l.File, "/") {
		ch.fail("log.file", l.File, "names a directory", `a file name such as "logs/outpost.log"`)
	}
	ch.intRange("log.max_size_mb", l.MaxSizeMB, 1, maxLogSizeMB, "MiB")
	ch.intRange("log.max_files", l.MaxFiles, 1, maxLogFiles, "files")
}
