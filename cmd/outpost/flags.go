package main

import (
	"errors"
	"flag"
	"fmt"
	"maps"
	"os"
	"slices"
	"strings"
	"time"

	"github.com/outpostchess/outpost/config"
)

// parseFlags parses args into fs with flags anywhere on the line: `outpost
// analyse game.pgn --format json` sets --format and leaves game.pgn as an
// argument. A lone "--" ends the flags: everything after it is an
// argument, even when it starts with a dash. Afterwards fs.Args() holds the
// arguments in their order. A negative duration flag is an error naming the
// flag. It maps -h to flag.ErrHelp and other parse
// errors to errUsage (the flag package already printed them).
func parseFlags(fs *flag.FlagSet, args []string) error {
	pos, err := interleaved(fs, args)
	if err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return flag.ErrHelp
		}
		return errUsage
	}
	// Parsing "--" and the arguments sets no flag and makes them fs.Args().
	if err := fs.Parse(append([]string{"--"}, pos...)); err != nil {
		return errUsage
	}
	return checkDurations(fs)
}

// parseOnlyFlags is parseFlags for a command that takes no positional
// argument: one is a usage error (noExtraArgs).
func parseOnlyFlags(fs *flag.FlagSet, args []string) error {
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	return noExtraArgs(fs)
}

// noExtraArgs refuses positional arguments to a command that takes none.
func noExtraArgs(fs *flag.FlagSet) error {
	if fs.NArg() > 0 {
		fmt.Fprintf(fs.Output(), "outpost %s: unexpected arguments %q (this command takes only flags)\n", fs.Name(), fs.Args())
		fs.Usage()
		return fmt.Errorf("unexpected arguments %q: %w", fs.Args(), errUsage)
	}
	return nil
}

// configFlag defines the --config flag (the TOML configuration file),
// defaulting to $OUTPOST_CONFIG; usage says what the command reads from it.
func configFlag(fs *flag.FlagSet, usage string) *string {
	return fs.String("config", os.Getenv("OUTPOST_CONFIG"), usage)
}

// loadConfig loads the configuration file at path, or returns the built-in
// defaults when path is empty.
func loadConfig(path string) (*config.Config, error) {
	if path == "" {
		return config.Default(), nil
	}
	return config.Load(path)
}

// interleaved parses the flags among args and returns the other arguments.
// flag.FlagSet.Parse stops at the first argument that is not a flag; this
// takes that argument aside and parses on from the next one.
func interleaved(fs *flag.FlagSet, args []string) ([]string, error) {
	var pos []string
	for {
		if err := fs.Parse(args); err != nil {
			return nil, err
		}
		rest := fs.Args()
		if used := len(args) - len(rest); used > 0 && args[used-1] == "--" {
			// Parse stopped after "--": the rest are arguments.
			return append(pos, rest...), nil
		}
		if len(rest) == 0 {
			return pos, nil
		}
		pos = append(pos, rest[0])
		args = rest[1:]
	}
}

// checkDurations rejects a negative value of any duration flag set on the
// line, naming the flag: no command gives a negative duration a meaning.
func checkDurations(fs *flag.FlagSet) error {
	var err error
	fs.Visit(func(f *flag.Flag) {
		g, ok := f.Value.(flag.Getter)
		if !ok || err != nil {
			return
		}
		if d, ok := g.Get().(time.Duration); ok && d < 0 {
			err = fmt.Errorf("--%s %s: negative duration not allowed", f.Name, f.Value)
		}
	})
	return err
}

// checkMin rejects an integer flag set on the line below min, naming the
// flag. Flags left at their default are not checked: a default of 0 may
// mean "automatic", but 0 given explicitly is then an error.
func checkMin(fs *flag.FlagSet, min int64, names ...string) error {
	set := setFlags(fs)
	for _, name := range names {
		f := fs.Lookup(name)
		if f == nil {
			return fmt.Errorf("checkMin: no flag --%s", name)
		}
		if !set[name] {
			continue
		}
		var v int64
		switch x := f.Value.(flag.Getter).Get().(type) {
		case int:
			v = int64(x)
		case int64:
			v = x
		default:
			return fmt.Errorf("checkMin: --%s is not an integer flag", name)
		}
		if v < min {
			return fmt.Errorf("--%s %d: want at least %d", name, v, min)
		}
	}
	return nil
}

// checkMax rejects an integer flag set on the line above its bound in max,
// naming the flag.
func checkMax(fs *flag.FlagSet, max map[string]int64) error {
	set := setFlags(fs)
	for _, name := range slices.Sorted(maps.Keys(max)) {
		if !set[name] {
			continue
		}
		var v int64
		switch x := fs.Lookup(name).Value.(flag.Getter).Get().(type) {
		case int:
			v = int64(x)
		case int64:
			v = x
		default:
			return fmt.Errorf("checkMax: --%s is not an integer flag", name)
		}
		if v > max[name] {
			return fmt.Errorf("--%s %d: want at most %d", name, v, max[name])
		}
	}
	return nil
}

// runSubcommand runs the subcommand args[0] of the command name from subs
// with the arguments after it. Without a subcommand it prints usage to
// stderr and is a usage error; -h or --help prints usage and succeeds; an
// unknown subcommand is named with the known ones.
func runSubcommand(env *Env, name, usage string, args []string, subs map[string]func([]string) error) error {
	if len(args) == 0 || args[0] == "-h" || args[0] == "--help" {
		fmt.Fprintln(env.Stderr, usage)
		if len(args) == 0 {
			return errUsage
		}
		return nil
	}
	if run, ok := subs[args[0]]; ok {
		return run(args[1:])
	}
	fmt.Fprintf(env.Stderr, "outpost %s: unknown subcommand %q (want %s)\n", name, args[0], strings.Join(slices.Sorted(maps.Keys(subs)), " or "))
	return errUsage
}

// setFlags returns the names of the flags set on the line.
func setFlags(fs *flag.FlagSet) map[string]bool {
	set := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
	return set
}

// flagSet reports whether the flag name was set on the line.
func flagSet(fs *flag.FlagSet, name string) bool { return setFlags(fs)[name] }

// closeOnReturn, deferred, closes what its caller opened and keeps the
// caller's error, else the error closing it (naming what).
func closeOnReturn(err *error, what string, close func() error) {
	if cerr := close(); cerr != nil && *err == nil {
		*err = fmt.Errorf("closing %s: %w", what, cerr)
	}
}
