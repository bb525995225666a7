package app

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"

	"github.com/outpostchess/outpost/bots/enginepath"
	"github.com/outpostchess/outpost/config"
)

// CheckConfigs validates each configuration file (`outpost config
// check`), writing "ok" or every problem as FILE:LINE: message to w, plus
// warnings about the environment (EnvironmentWarnings) that do not fail the
// check. It fails when a file is invalid or cannot be read.
func CheckConfigs(w io.Writer, files []string) error {
	failed := 0
	for _, file := range files {
		cfg, err := config.Load(file)
		var verrs config.ValidationErrors
		switch {
		case errors.As(err, &verrs):
			failed++
			for _, fe := range verrs {
				if fe.Line > 0 {
					fmt.Fprintf(w, "%s:%d: %s\n", file, fe.Line, fe.Message())
				} else {
					fmt.Fprintf(w, "%s: %s\n", file, fe.Message())
				}
			}
			continue
		case err != nil:
			return err
		}
		for _, warning := range EnvironmentWarnings(cfg) {
			fmt.Fprintf(w, "%s: warning: %s\n", file, warning)
		}
		if errs := EnvironmentErrors(cfg); len(errs) > 0 {
			failed++
			for _, e := range errs {
				fmt.Fprintf(w, "%s: %s\n", file, e)
			}
			continue
		}
		if len(files) == 1 {
			fmt.Fprintln(w, "ok")
		} else {
			fmt.Fprintf(w, "%s: ok\n", file)
		}
	}
	if failed > 0 {
		return fmt.Errorf("%d of %d file(s) invalid", failed, len(files))
	}
	return nil
}

// EnvironmentWarnings reports what a valid config refers to but this
// machine lacks: a missing or group-readable Lichess token file, engines
// that cannot be found, a missing cluster credentials file, a missing
// console access-token file. They are warnings: the config may be meant
// for another machine.
func EnvironmentWarnings(cfg *config.Config) []string {
	var out []string
	if f := cfg.Lichess.TokenFile; f != "" {
		switch st, err := os.Stat(f); {
		case err != nil:
			out = append(out, fmt.Sprintf("lichess.token_file %q: %v", f, errors.Unwrap(err)))
		case st.Mode().Perm()&0o077 != 0:
			out = append(out, fmt.Sprintf("lichess.token_file %q is readable by group or others (mode %04o); the client will refuse it: chmod 600 %s",
				f, st.Mode().Perm(), f))
		}
	}
	program := func(key, p string) {
		if p == "" {
			return
		}
		if _, err := exec.LookPath(p); err != nil {
			out = append(out, fmt.Sprintf("%s: %q not found or not executable", key, p))
		}
	}
	// Analysis engines may be names (sf15, sf19, auto): resolve them first.
	analysisEngine := func(key string, cmdline []string) {
		if len(cmdline) == 0 {
			return
		}
		r, err := enginepath.Resolve(cmdline)
		switch {
		case err != nil:
			out = append(out, fmt.Sprintf("%s: %v", key, err))
		case r.Notice != "":
			out = append(out, key+": "+r.Notice)
		default:
			program(key, r.Command[0])
		}
	}
	analysisEngine("analysis.engine", cfg.Analysis.Engine)
	analysisEngine("summary.engine", cfg.Summary.Engine)
	analysisEngine("compare.engine", cfg.Compare.Engine)
	for _, name := range cfg.EngineNames() {
		if def, ok := cfg.Engines.Defs[name]; ok && def.Type == config.EngineUCI {
			analysisEngine("engines."+name+".path", []string{def.Path})
		}
	}
	if err := clusterCredsProblem(cfg.Cluster.CredsFile); errors.Is(err, fs.ErrNotExist) {
		out = append(out, fmt.Sprintf("cluster.creds_file %q: %v", cfg.Cluster.CredsFile, unwrapPath(err)))
	}
	if cfg.Web.AccessTokenFile != "" {
		if _, err := os.Stat(filepath.Clean(cfg.Web.AccessTokenFile)); err != nil {
			out = append(out, fmt.Sprintf("web.access_token_file %q: %v", cfg.Web.AccessTokenFile, errors.Unwrap(err)))
		}
	}
	return out
}
