package app

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/outpostchess/outpost/config"
)

// TestEnvironmentWarnings: what a valid configuration names but the machine
// lacks is each one warning naming its key; a machine with everything gets
// none of those.
func TestEnvironmentWarnings(t *testing.T) {
	dir := t.TempDir()
	open := filepath.Join(dir, "token-open")
	require.NoError(t, os.WriteFile(open, []byte("lip_x"), 0o600))
	require.NoError(t, os.Chmod(open, 0o644))
	private := filepath.Join(dir, "token")
	require.NoError(t, os.WriteFile(private, []byte("lip_x"), 0o600))
	missing := filepath.Join(dir, "missing")

	cfg := config.Default()
	cfg.Lichess.TokenFile = open
	cfg.Analysis.Engine = []string{missing}
	cfg.Web.AccessTokenFile = missing
	warnings := strings.Join(EnvironmentWarnings(cfg), "\n")
	assert.Contains(t, warnings, "lichess.token_file \""+open+"\" is readable by group or others (mode 0644)")
	assert.Contains(t, warnings, "analysis.engine: \""+missing+"\" not found or not executable")
	assert.Contains(t, warnings, "web.access_token_file \""+missing+"\": no such file or directory")

	cfg.Lichess.TokenFile = missing
	assert.Contains(t, strings.Join(EnvironmentWarnings(cfg), "\n"), "lichess.token_file \""+missing+"\": no such file or directory")

	cfg = config.Default()
	cfg.Lichess.TokenFile = private
	cfg.Analysis.Engine = []string{"/bin/sh"}
	for _, w := range EnvironmentWarnings(cfg) {
		assert.NotContains(t, w, "lichess.token_file")
		assert.NotContains(t, w, "analysis.engine")
		assert.NotContains(t, w, "web.access_token_file")
	}
}

// TestCheckConfigs: "ok" for one good file, FILE: ok for several, every
// problem of a bad file with its line, and an error counting the bad files.
func TestCheckConfigs(t *testing.T) {
	dir := t.TempDir()
	good := filepath.Join(dir, "good.toml")
	require.NoError(t, os.WriteFile(good, []byte("[challenge]\nmax_games = 2\n"), 0o600))
	bad := filepath.Join(dir, "bad.toml")
	require.NoError(t, os.WriteFile(bad, []byte("[challenge]\nmax_games = 0\n"), 0o600))

	var out bytes.Buffer
	require.NoError(t, CheckConfigs(&out, []string{good}))
	assert.True(t, strings.HasSuffix(out.String(), "ok\n"), out.String())

	out.Reset()
	err := CheckConfigs(&out, []string{good, bad})
	assert.EqualError(t, err, "1 of 2 file(s) invalid")
	assert.Contains(t, out.String(), good+": ok\n")
	assert.Contains(t, out.String(), bad+":2: challenge.max_games: out of range (got 0)")

	assert.ErrorContains(t, CheckConfigs(&out, []string{filepath.Join(dir, "none.toml")}), "none.toml")
}

// TestEnvironmentErrors: a store in a missing directory, a [log] file that
// cannot be written and Syzygy files that are not tables fail config check,
// each naming its key (it said "ok"); the defaults pass.
func TestEnvironmentErrors(t *testing.T) {
	dir := t.TempDir()
	garbage := filepath.Join(dir, "tables")
	require.NoError(t, os.Mkdir(garbage, 0o700))
	require.NoError(t, os.WriteFile(filepath.Join(garbage, "KQvK.rtbw"), []byte("not a table"), 0o600))
	require.NoError(t, os.WriteFile(filepath.Join(garbage, "KQvK.rtbz"), []byte("not a table"), 0o600))
	file := filepath.Join(dir, "cfg.toml")
	toml := "[store]\npath = \"" + filepath.Join(dir, "missing", "outpost.db") + "\"\n" +
		"[log]\nfile = \"" + dir + "\"\n" +
		"[engines.tb]\ntype = \"hard\"\n[engines.tb.syzygy]\nenabled = true\npath = [\"" + garbage + "\"]\n"
	require.NoError(t, os.WriteFile(file, []byte(toml), 0o600))
	var out bytes.Buffer
	err := CheckConfigs(&out, []string{file})
	assert.EqualError(t, err, "1 of 1 file(s) invalid")
	assert.NotContains(t, out.String(), "ok\n")
	assert.Contains(t, out.String(), "store.path \""+filepath.Join(dir, "missing", "outpost.db")+"\": directory "+filepath.Join(dir, "missing")+": no such file or directory")
	assert.Contains(t, out.String(), "log.file \""+dir+"\": is a directory")
	assert.Contains(t, out.String(), "engines.tb.syzygy.path: syzygy:")

	cfg := config.Default()
	cfg.Log.File = filepath.Join(dir, "missing", "outpost.log")
	assert.Contains(t, strings.Join(EnvironmentErrors(cfg), "\n"), "log.file \""+cfg.Log.File+"\": directory "+filepath.Join(dir, "missing"))
	cfg.Store.Path, cfg.Log.File = filepath.Join(dir, "outpost.db"), filepath.Join(dir, "outpost.log")
	assert.Empty(t, EnvironmentErrors(cfg), "a writable store directory and log file")
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		assert.False(t, strings.HasPrefix(e.Name(), ".outpost-config-check"), "the probe file was left: %s", e.Name())
	}
}
