package main

import (
	"errors"
	"flag"
)

// parseFlags parses args into fs with flags anywhere on the line: `outpost
// analyse game.pgn --format json` sets --format and leaves game.pgn as an
// argument. A lone "--" ends the flags: everything after it is an
// argument, even when it starts with a dash. Afterwards fs.Args() holds the
// arguments in their order. It maps -h to flag.ErrHelp and other parse
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
	return fs.Parse(append([]string{"--"}, pos...))
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
