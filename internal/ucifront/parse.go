// Package ucifront speaks the Universal Chess Interface on a reader/writer
// pair (stdin/stdout) for any engine.Engine, so that Outpost's engines run
// in chess GUIs and under other bot clients.
package ucifront

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/outpostchess/outpost/bots/board"

	"github.com/outpostchess/outpost/bots/engine"
	"github.com/outpostchess/outpost/bots/uci"
)

// Command is one parsed GUI-to-engine command.
type Command struct {
	// Name is the command: uci, debug, isready, setoption, register,
	// ucinewgame, position, go, stop, ponderhit or quit.
	Name string

	Position engine.Position // for "position"

	Limits      engine.Limits // for "go"
	Ponder      bool          // "go ponder"
	SearchMoves []string      // "go searchmoves …"

	OptionName  string // for "setoption"
	OptionValue string // for "setoption" (empty for buttons)
}

// commands are the names ParseCommand recognises.
var commands = map[string]bool{
	"uci": true, "debug": true, "isready": true, "setoption": true, "register": true,
	"ucinewgame": true, "position": true, "go": true, "stop": true, "ponderhit": true, "quit": true,
}

// ParseCommand parses one input line. As the UCI specification asks,
// unknown tokens before the command are skipped ("joho debug on" is
// "debug on"). A line without any command, or a command with malformed
// arguments, is an error that says what was wrong.
func ParseCommand(line string) (Command, error) { return parseCommand(line, false) }

// parseCommand is ParseCommand with the front-end's UCI_Chess960 setting:
// when chess960 is set, positions take X-FEN and Shredder-FEN castling
// rights and are marked Chess960.
func parseCommand(line string, chess960 bool) (Command, error) {
	toks := strings.Fields(line)
	for len(toks) > 0 && !commands[toks[0]] {
		toks = toks[1:]
	}
	if len(toks) == 0 {
		return Command{}, fmt.Errorf("ucifront: no command in %q", clip(line))
	}
	c := Command{Name: toks[0]}
	args := toks[1:]
	var err error
	switch c.Name {
	case "position":
		c.Position, err = parsePosition(args, chess960)
	case "go":
		err = parseGo(&c, args)
	case "setoption":
		c.OptionName, c.OptionValue, err = parseSetOption(args)
	}
	if err != nil {
		return Command{}, err
	}
	return c, nil
}

// parsePosition parses "startpos [moves …]" or "fen F1 … F6 [moves …]".
func parsePosition(args []string, chess960 bool) (engine.Position, error) {
	pos := engine.Position{Chess960: chess960}
	if len(args) == 0 {
		return pos, fmt.Errorf("ucifront: position: want startpos or fen")
	}
	i := 0
	switch args[0] {
	case "startpos":
		i = 1
	case "fen":
		j := 1
		for j < len(args) && args[j] != "moves" {
			j++
		}
		if n := j - 1; n < 4 || n > 6 {
			return pos, fmt.Errorf("ucifront: position fen: %d fields, want 4 to 6", n)
		}
		fields := args[1:j]
		if len(fields) == 4 {
			fields = append(fields, "0", "1")
		} else if len(fields) == 5 {
			fields = append(fields, "1")
		}
		pos.StartFEN = strings.Join(fields, " ")
		if err := board.Validate(pos.StartFEN, chess960); err != nil {
			return pos, fmt.Errorf("ucifront: position: %w", err)
		}
		i = j
	default:
		return pos, fmt.Errorf("ucifront: position: want startpos or fen, got %q", clip(args[0]))
	}
	if i < len(args) {
		if args[i] != "moves" {
			return pos, fmt.Errorf("ucifront: position: unexpected %q", clip(args[i]))
		}
		for _, m := range args[i+1:] {
			if !uci.IsMove(m) {
				return pos, fmt.Errorf("ucifront: position: move %q is not in UCI notation", clip(m))
			}
			pos.Moves = append(pos.Moves, m)
		}
	}
	return pos, nil
}

// parseGo parses the arguments of "go".
func parseGo(c *Command, args []string) error {
	for i := 0; i < len(args); i++ {
		key := args[i]
		switch key {
		case "infinite":
			c.Limits.Infinite = true
			continue
		case "ponder":
			c.Ponder = true
			continue
		case "searchmoves":
			for i+1 < len(args) && uci.IsMove(args[i+1]) {
				c.SearchMoves = append(c.SearchMoves, args[i+1])
				i++
			}
			continue
		case "wtime", "btime", "winc", "binc", "movetime", "movestogo", "depth", "nodes", "mate":
		default:
			continue // unknown token: ignore it, as the specification asks
		}
		if i+1 >= len(args) {
			return fmt.Errorf("ucifront: go %s: missing value", key)
		}
		n, err := strconv.ParseInt(args[i+1], 10, 64)
		if err != nil {
			return fmt.Errorf("ucifront: go %s: %q is not an integer", key, clip(args[i+1]))
		}
		i++
		ms := func(v int64) time.Duration {
			// GUIs send negative clocks once flagged; keep a token 1 ms.
			return time.Duration(min(max(v, 1), int64(1<<40))) * time.Millisecond
		}
		switch key {
		case "wtime":
			c.Limits.WTime = ms(n)
		case "btime":
			c.Limits.BTime = ms(n)
		case "winc":
			if n > 0 {
				c.Limits.WInc = ms(n)
			}
		case "binc":
			if n > 0 {
				c.Limits.BInc = ms(n)
			}
		case "movetime":
			c.Limits.MoveTime = ms(n)
		case "movestogo":
			c.Limits.MovesToGo = int(min(max(n, 0), 1000))
		case "depth":
			c.Limits.Depth = int(min(max(n, 1), 1000))
		case "nodes":
			c.Limits.Nodes = max(n, 1)
		case "mate":
			// "Search for a mate in n moves": a depth bound of 2n plies.
			c.Limits.Depth = int(min(max(2*n, 1), 1000))
		}
	}
	return nil
}

// parseSetOption parses "name N… [value V…]"; both may contain spaces.
func parseSetOption(args []string) (string, string, error) {
	if len(args) < 2 || args[0] != "name" {
		return "", "", fmt.Errorf("ucifront: setoption: want \"name NAME [value VALUE]\"")
	}
	vi := len(args)
	for i := 1; i < len(args); i++ {
		if args[i] == "value" {
			vi = i
			break
		}
	}
	name := strings.Join(args[1:vi], " ")
	if name == "" {
		return "", "", fmt.Errorf("ucifront: setoption: empty option name")
	}
	value := ""
	if vi < len(args) {
		value = strings.Join(args[vi+1:], " ")
	}
	return name, value, nil
}

func clip(s string) string {
	if len(s) <= 60 {
		return s
	}
	return s[:60] + "…"
}
