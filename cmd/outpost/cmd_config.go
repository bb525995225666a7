package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"github.com/outpostchess/outpost/bots/enginepath"
	"io"
	"os"
	"os/exec"
	"path/filepath"

	"github.com/outpostchess/outpost/config"
)

// runConfig implements `outpost config check FILE...` and
// `outpost config example`.
func runConfig(_ context.Context, env *Env, args []string) error {
	usage := func(w io.Writer) {
		fmt.Fprintln(w, "usage: outpost config check FILE...   validate config files (every problem at once; exit 1 on error)")
		fmt.Fprintln(w, "       outpost config example          print the annotated example config (every option, its default and range)")
	}
	if len(args) == 0 {
		usage(env.Stderr)
		return errUsage
	}
	switch args[0] {
	case "-h", "-help", "--help", "help":
		usage(env.Stderr)
		return flag.ErrHelp
	case "check":
		fs := newFlags(env, "config check", "FILE...")
		if err := parseFlags(fs, args[1:]); err != nil {
			return err
		}
		if fs.NArg() == 0 {
			fs.Usage()
			return errUsage
		}
		return configCheck(env, fs.Args())
	case "example":
		fs := newFlags(env, "config example", "")
		if err := parseFlags(fs, args[1:]); err != nil {
			return err
		}
		if fs.NArg() != 0 {
			fs.Usage()
			return errUsage
		}
		_, err := env.Stdout.Write(config.Example())
		return err
	}
	fmt.Fprintf(env.Stderr, "outpost config: unknown subcommand %q\n", args[0])
	usage(env.Stderr)
	return errUsage
}

// configCheck validates each file, printing "ok" or every problem as
// FILE:LINE: message, plus warnings about the environment (missing engine
// executables, a token file others can read) that do not fail the check.
func configCheck(env *Env, files []string) error {
	failed := 0
	for _, file := range files {
		cfg, err := config.Load(file)
		var verrs config.ValidationErrors
		switch {
		case errors.As(err, &verrs):
			failed++
			for _, fe := range verrs {
				if fe.Line > 0 {
					fmt.Fprintf(env.Stdout, "%s:%d: %s\n", file, fe.Line, fe.Message())
				} else {
					fmt.Fprintf(env.Stdout, "%s: %s\n", file, fe.Message())
				}
			}
			continue
		case err != nil:
			return err
		}
		for _, w := range environmentWarnings(cfg) {
			fmt.Fprintf(env.Stdout, "%s: warning: %s\n", file, w)
		}
		if len(files) == 1 {
			fmt.Fprintln(env.Stdout, "ok")
		} else {
			fmt.Fprintf(env.Stdout, "%s: ok\n", file)
		}
	}
	if failed > 0 {
		return fmt.Errorf("%d of %d file(s) invalid", failed, len(files))
	}
	return nil
}

// environmentWarnings reports what a valid config refers to but this
// machine lacks. They are warnings: the config may be meant for another
// machine.
func environmentWarnings(cfg *config.Config) []string {
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
	if cfg.Web.AccessTokenFile != "" {
		if _, err := os.Stat(filepath.Clean(cfg.Web.AccessTokenFile)); err != nil {
			out = append(out, fmt.Sprintf("web.access_token_file %q: %v", cfg.Web.AccessTokenFile, errors.Unwrap(err)))
		}
	}
	return out
}
