package main

import (
	"context"
	"flag"
	"fmt"
	"io"

	"github.com/outpostchess/outpost/config"
	"github.com/outpostchess/outpost/internal/app"
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
		return app.CheckConfigs(env.Stdout, fs.Args())
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
