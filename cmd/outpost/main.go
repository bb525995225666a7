// Command outpost runs a Lichess BOT account and analyses chess games the way
// Lichess does. Each subcommand lives in its own cmd_*.go file; this file only
// dispatches.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"sort"
	"syscall"

	"github.com/rs/zerolog"

	"github.com/outpostchess/outpost/internal/logging"
)

// command is one subcommand: a one-line summary and the function that runs it.
type command struct {
	summary string
	run     func(ctx context.Context, env *Env, args []string) error
}

// commands is the subcommand table. Each entry's run function lives in
// cmd_<name>.go.
func commands() map[string]command {
	return map[string]command{
		// COMMANDS: one line per subcommand, kept sorted.
		"account":  {"show the Lichess account, or upgrade it to a BOT account", runAccount},
		"analyse":  {"analyse games the way Lichess does (judgements, accuracy, annotated PGN)", runAnalyse},
		"bench":    {"measure hard's nodes/s against Stockfish, or perft against notnil", runBench},
		"cluster":  {"run an embedded NATS JetStream server for analysis workers, or show the cluster's status", runCluster},
		"compare":  {"compare our analysis with Lichess's over a user's games, stored with the trend", runCompare},
		"config":   {"validate a config file or print the annotated example", runConfig},
		"engines":  {"build native Stockfish 15.1 / 18 (install sf15|sf18) or list the engines found", runEngines},
		"ewr":      {"expected winrate of each move for a human of a given rating (Maia × Stockfish)", runEWR},
		"ladder":   {"estimate an engine's Elo against Stockfish UCI_Elo rungs", runLadder},
		"match":    {"play two engines against each other from fixed openings", runMatch},
		"models":   {"install the ONNX Runtime library and Maia weights", runModels},
		"perft":    {"count the legal move tree of a position (move generator test)", runPerft},
		"predict":  {"print Maia move probabilities and WDL for a position", runPredict},
		"provider": {"serve our engines (native Stockfish, Maia) as Lichess external engines for the user's own analysis board", runProvider},
		"run":      {"run the bot daemon (or, with --sandbox, the offline demo)", runRun},
		"sandbox":  {"run a Lichess-compatible sandbox server on loopback", runSandbox},
		"serve":    {"serve the local web console: dashboard, game reports, expected winrate, knobs", runServe},
		"setup":    {"install Stockfish, its networks, ONNX Runtime and the Maia weights into the user's cache (no root needed)", runSetup},
		"uci":      {"speak UCI on stdin/stdout for one of our engines (for chess GUIs)", runUCI},
		"worker":   {"search analysis chunks from a NATS JetStream cluster", runWorker},
	}
}

// Env is what every subcommand gets: its standard streams and a logger
// factory honouring the global --log-level flag.
type Env struct {
	Stdin    io.Reader
	Stdout   io.Writer
	Stderr   io.Writer
	LogLevel string
	// LogLevelSet says --log-level was given: it then wins over [log]
	// level on the console.
	LogLevelSet bool
	// Log, when set (outpost run with [log] file), is the logger every
	// part of the command uses instead of a console-only one.
	Log *zerolog.Logger
}

// errUsage marks an error already explained by a usage message.
var errUsage = errors.New("usage")

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	// The first signal starts a graceful shutdown; restoring the default
	// handling then lets a second Ctrl-C end the process at once.
	go func() {
		<-ctx.Done()
		stop()
	}()
	code := run(ctx, os.Args[1:], &Env{Stdin: os.Stdin, Stdout: os.Stdout, Stderr: os.Stderr})
	stop()
	os.Exit(code)
}

// run parses the global flags and dispatches; it returns the exit code.
func run(ctx context.Context, args []string, env *Env) int {
	global := flag.NewFlagSet("outpost", flag.ContinueOnError)
	global.SetOutput(env.Stderr)
	global.StringVar(&env.LogLevel, "log-level", "info", "log level: trace, debug, info, warn, error")
	global.Usage = func() { usage(env.Stderr) }
	if err := global.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 2
	}
	global.Visit(func(f *flag.Flag) { env.LogLevelSet = env.LogLevelSet || f.Name == "log-level" })
	if _, err := logging.ParseLevel(env.LogLevel); err != nil {
		fmt.Fprintf(env.Stderr, "outpost: %v\n", err)
		return 2
	}
	rest := global.Args()
	if len(rest) == 0 || rest[0] == "help" || rest[0] == "-h" || rest[0] == "--help" {
		if len(rest) > 1 {
			if c, ok := commands()[rest[1]]; ok {
				// A command's help ends in flag.ErrHelp or nothing; a usage
				// error was explained by the usage printed.
				if err := c.run(ctx, env, []string{"--help"}); err != nil && !errors.Is(err, flag.ErrHelp) && !errors.Is(err, errUsage) {
					fmt.Fprintf(env.Stderr, "outpost %s: %v\n", rest[1], err)
					return 1
				}
				return 0
			}
		}
		usage(env.Stdout)
		return 0
	}
	c, ok := commands()[rest[0]]
	if !ok {
		fmt.Fprintf(env.Stderr, "outpost: unknown command %q (run 'outpost help')\n", rest[0])
		return 2
	}
	if err := c.run(ctx, env, rest[1:]); err != nil {
		switch {
		case errors.Is(err, flag.ErrHelp):
			return 0
		case errors.Is(err, errUsage):
			return 2
		}
		fmt.Fprintf(env.Stderr, "outpost %s: %v\n", rest[0], err)
		return 1
	}
	return 0
}

func usage(w io.Writer) {
	fmt.Fprintln(w, "usage: outpost [--log-level LEVEL] COMMAND [flags]")
	fmt.Fprintln(w, "\ncommands:")
	cmds := commands()
	names := make([]string, 0, len(cmds))
	for n := range cmds {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		fmt.Fprintf(w, "  %-10s %s\n", n, cmds[n].summary)
	}
	fmt.Fprintln(w, "\nRun 'outpost COMMAND --help' for a command's flags.")
}

// newFlags returns a flag set for a subcommand whose usage names it and its
// synopsis, writing to env.Stderr.
func newFlags(env *Env, name, synopsis string) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(env.Stderr)
	fs.Usage = func() {
		fmt.Fprintf(env.Stderr, "usage: outpost %s %s\n\nflags:\n", name, synopsis)
		fs.PrintDefaults()
	}
	return fs
}

// logger returns the logger for a subcommand, writing to stderr.
func (e *Env) logger() zerolog.Logger {
	if e.Log != nil {
		return *e.Log
	}
	return logging.New(e.Stderr, e.LogLevel)
}
