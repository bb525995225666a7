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
	// `outpost run` creates a missing log directory (logging.OpenRotator
	// makes it), so the check passes it (manual trial, session 10: it
	// refused a file that run then wrote) ...
	cfg.Store.Path = filepath.Join(dir, "outpost.db")
	cfg.Log.File = filepath.Join(dir, "missing", "deeper", "outpost.log")
	assert.Empty(t, EnvironmentErrors(cfg), "a log file in directories run creates")
	// ... but not one whose directory cannot be made: under a regular file.
	cfg.Log.File = filepath.Join(garbage, "KQvK.rtbw", "logs", "outpost.log")
	assert.Contains(t, strings.Join(EnvironmentErrors(cfg), "\n"), "log.file \""+cfg.Log.File+"\": "+filepath.Join(garbage, "KQvK.rtbw")+" is not a directory")
	cfg.Store.Path, cfg.Log.File = filepath.Join(dir, "outpost.db"), filepath.Join(dir, "outpost.log")
	assert.Empty(t, EnvironmentErrors(cfg), "a writable store directory and log file")
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		assert.False(t, strings.HasPrefix(e.Name(), ".outpost-config-check"), "the probe file was left: %s", e.Name())
	}
}

// TestEnvironmentErrorsTokenAndDirs: config check fails, naming the key,
// on a token file that is empty or holds a space, and on [store] pgn_dir
// or [records] dir under (or being) a regular file; it said "ok" to each.
// The token is never shown.
func TestEnvironmentErrorsTokenAndDirs(t *testing.T) {
	dir := t.TempDir()
	regular := filepath.Join(dir, "file")
	require.NoError(t, os.WriteFile(regular, []byte("x"), 0o600))
	cfg := config.Default()
	cfg.Store.Path = filepath.Join(dir, "outpost.db")
	cfg.Store.PGNDir = filepath.Join(regular, "pgn", "deeper")
	cfg.Records.Dir = regular
	tok := filepath.Join(dir, "token")
	for content, want := range map[string]string{
		"\n":              "the file is empty",
		"lip_abc def\n":   "the token holds a space",
		"lip_abc\tdef\n":  "the token holds a space",
		"  lip_secret1\n": "",
	} {
		require.NoError(t, os.WriteFile(tok, []byte(content), 0o600))
		cfg.Lichess.TokenFile = tok
		got := strings.Join(EnvironmentErrors(cfg), "\n")
		assert.Contains(t, got, "store.pgn_dir \""+cfg.Store.PGNDir+"\": "+regular+" is not a directory, so nothing can be created under it")
		assert.Contains(t, got, "records.dir \""+regular+"\": "+regular+" is not a directory")
		if want == "" {
			assert.NotContains(t, got, "lichess.token_file", "a good token")
		} else {
			assert.Contains(t, got, "lichess.token_file \""+tok+"\": "+want, "token %q", content)
		}
		assert.NotContains(t, got, "lip_", "the token is shown")
	}
	// The map's order is random: the file holds whichever token came last.
	require.NoError(t, os.WriteFile(tok, []byte("lip_secret1\n"), 0o600))
	cfg.Store.PGNDir, cfg.Records.Dir = filepath.Join(dir, "new", "pgn"), ""
	assert.Empty(t, EnvironmentErrors(cfg), "a directory still to be made under a directory")
}

// TestCheckConfigsClusterCreds: config check fails on a [cluster]
// creds_file that group or others may read, with the error the cluster
// gives when it refuses the file (it said "ok", and the worker or the
// daemon's analysis then failed); a missing one is a warning (the config
// may be meant for another machine), a private one passes.
func TestCheckConfigsClusterCreds(t *testing.T) {
	dir := t.TempDir()
	creds := filepath.Join(dir, "client.creds")
	require.NoError(t, os.WriteFile(creds, []byte("seed"), 0o600))
	file := filepath.Join(dir, "cfg.toml")
	write := func(path string) {
		t.Helper()
		toml := "[cluster]\nurl = \"tls://127.0.0.1:4222\"\ncreds_file = \"" + path + "\"\n"
		require.NoError(t, os.WriteFile(file, []byte(toml), 0o600))
	}
	write(creds)
	var out bytes.Buffer
	require.NoError(t, CheckConfigs(&out, []string{file}), out.String())
	assert.Equal(t, "ok\n", out.String())

	require.NoError(t, os.Chmod(creds, 0o644))
	out.Reset()
	assert.EqualError(t, CheckConfigs(&out, []string{file}), "1 of 1 file(s) invalid")
	assert.Contains(t, out.String(), file+": cluster.creds_file \""+creds+"\": cluster: credentials file "+creds+
		" has mode 0644: it must not be readable by group or others")
	assert.Contains(t, out.String(), "chmod 600 "+creds)

	missing := filepath.Join(dir, "missing.creds")
	write(missing)
	out.Reset()
	require.NoError(t, CheckConfigs(&out, []string{file}), out.String())
	assert.Contains(t, out.String(), file+": warning: cluster.creds_file \""+missing+"\": no such file or directory")
	assert.True(t, strings.HasSuffix(out.String(), "ok\n"), out.String())
}
