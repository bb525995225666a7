// Package ucitest provides a fake UCI engine for tests. The test binary
// re-executes itself as the engine: call Main at the top of TestMain, then
// use Config to get the path, arguments and environment that start the fake
// in a chosen Mode. The fake plays legal moves (it uses bots/board) and
// misbehaves on demand: it crashes, hangs, ignores commands or prints
// garbage.
package ucitest

import (
	"bufio"
	"fmt"
	"hash/fnv"
	"io"
	"os"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/outpostchess/outpost/bots/board"
)

// Mode selects the fake engine's behaviour.
type Mode string

// The fake engine's behaviours.
const (
	Normal        Mode = "normal"         // plays legal moves, honours stop and movetime
	CrashOnGo     Mode = "crash-go"       // exits with status 3 on "go"
	CrashOnce     Mode = "crash-once"     // crashes on the first "go" of the marker file's life, then normal
	Hang          Mode = "hang"           // never answers "go", ignores "stop" (answers quit)
	Deaf          Mode = "deaf"           // like Hang, and also ignores "quit"
	NoUCIOK       Mode = "no-uciok"       // never finishes the handshake
	NoReadyOK     Mode = "no-readyok"     // never answers "isready"
	ExitHandshake Mode = "exit-handshake" // exits as soon as it reads "uci"
	Garbage       Mode = "garbage"        // prints malformed lines around a normal answer
	Illegal       Mode = "illegal"        // answers a well-formed but illegal move
	NoMove        Mode = "none"           // answers "bestmove (none)"
	Slow          Mode = "slow"           // ignores limits, answers after the delay or on stop
)

// Environment variables that configure the fake.
const (
	EnvMode   = "OUTPOST_UCITEST_MODE"
	EnvMarker = "OUTPOST_UCITEST_MARKER" // file for CrashOnce
	EnvDelay  = "OUTPOST_UCITEST_DELAY"  // duration for Slow (default 2s)
	EnvSeed   = "OUTPOST_UCITEST_SEED"   // varies the fake's move choice
	// EnvLog names a file to which the fake appends every command it
	// reads, one per line, so that a test can check what was sent.
	EnvLog = "OUTPOST_UCITEST_LOG"
)

// Main runs the fake engine and exits when the process was started as one;
// otherwise it returns at once. Call it first in TestMain.
func Main() {
	mode := os.Getenv(EnvMode)
	if mode == "" {
		return
	}
	os.Exit(run(Mode(mode), os.Stdin, os.Stdout))
}

// Config returns the path, arguments and environment that start the fake
// engine in mode from the current test binary. extraEnv entries
// ("KEY=value") are added.
func Config(mode Mode, extraEnv ...string) (path string, args []string, env []string) {
	exe, err := os.Executable()
	if err != nil {
		exe = os.Args[0]
	}
	return exe, []string{"-test.run=^$"}, append([]string{EnvMode + "=" + string(mode)}, extraEnv...)
}

// fake is the engine's state.
type fake struct {
	mode    Mode
	out     io.Writer
	outMu   sync.Mutex
	pos     *board.Board
	multiPV int
	seed    string
	stop    chan struct{}
	done    chan struct{}
	hit     chan struct{} // closed by "ponderhit" while a "go ponder" runs
	options map[string]string
}

func (f *fake) say(format string, a ...any) {
	f.outMu.Lock()
	defer f.outMu.Unlock()
	fmt.Fprintf(f.out, format+"\n", a...)
}

func run(mode Mode, in io.Reader, out io.Writer) int {
	f := &fake{mode: mode, out: out, pos: board.New(),
		multiPV: 1, seed: os.Getenv(EnvSeed), options: map[string]string{}}
	logf, err := openCommandLog()
	if err != nil {
		fmt.Fprintln(os.Stderr, "fake: command log:", err)
		return 5
	}
	if logf != nil {
		defer logf.Close()
	}
	sc := bufio.NewScanner(in)
	for sc.Scan() {
		if logf != nil {
			_, _ = logf.WriteString(sc.Text() + "\n")
		}
		fields := strings.Fields(sc.Text())
		if len(fields) == 0 {
			continue
		}
		switch fields[0] {
		case "uci":
			if mode == ExitHandshake {
				return 4
			}
			f.say("id name Fake Engine 1.0")
			f.say("id author Outpost tests")
			for _, o := range []string{
				"option name Hash type spin default 16 min 1 max 1024",
				"option name Threads type spin default 1 min 1 max 8",
				"option name MultiPV type spin default 1 min 1 max 10",
				"option name Skill Level type spin default 20 min 0 max 20",
				"option name Move Overhead type spin default 10 min 0 max 5000",
				"option name UCI_LimitStrength type check default false",
				"option name UCI_Elo type spin default 1350 min 1350 max 2850",
				"option name Style type combo default Normal var Solid var Normal var Risky",
				"option name Clear Hash type button",
				"option name Debug Log File type string default <empty>",
				"option name broken type sideways",
			} {
				f.say("%s", o)
			}
			if mode != NoUCIOK {
				f.say("uciok")
			}
		case "isready":
			if mode != NoReadyOK {
				f.say("readyok")
			}
		case "setoption":
			f.setOption(fields)
		case "ucinewgame":
		case "position":
			if err := f.position(fields); err != nil {
				f.say("info string error %v", err)
			}
		case "go":
			f.goCmd(fields)
		case "ponderhit":
			f.ponderHit()
		case "stop":
			if f.stop != nil && mode != Hang && mode != Deaf {
				close(f.stop)
				f.stop = nil
			}
		case "quit":
			if mode != Deaf {
				return 0
			}
		}
	}
	if mode == Deaf {
		time.Sleep(time.Hour) // ignore even the end of input: only a kill ends us
	}
	if f.done != nil && mode != Hang {
		<-f.done
	}
	return 0
}

// openCommandLog opens the file named by EnvLog for appending (nil when
// the variable is unset).
func openCommandLog() (*os.File, error) {
	name := os.Getenv(EnvLog)
	if name == "" {
		return nil, nil
	}
	return os.OpenFile(name, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o600)
}

// ponderHit turns a "go ponder" search into an ordinary one.
func (f *fake) ponderHit() {
	if f.hit != nil {
		close(f.hit)
		f.hit = nil
	}
}

func (f *fake) setOption(fields []string) {
	line := strings.Join(fields, " ")
	name, value, _ := strings.Cut(strings.TrimPrefix(line, "setoption name "), " value ")
	f.options[name] = value
	if name == "MultiPV" {
		if n, err := strconv.Atoi(value); err == nil {
			f.multiPV = n
		}
	}
}

func (f *fake) position(fields []string) error {
	fen := board.StartFEN
	i := 1
	switch {
	case len(fields) > 1 && fields[1] == "startpos":
		i = 2
	case len(fields) > 1 && fields[1] == "fen":
		j := 2
		for j < len(fields) && fields[j] != "moves" {
			j++
		}
		fen = strings.Join(fields[2:j], " ")
		i = j
	default:
		return fmt.Errorf("bad position command")
	}
	p, err := board.FromFENVariant(fen, f.options["UCI_Chess960"] == "true")
	if err != nil {
		return err
	}
	if i < len(fields) && fields[i] == "moves" {
		for _, m := range fields[i+1:] {
			mv, ok := p.FindUCI(m)
			if !ok {
				return fmt.Errorf("illegal move %s", m)
			}
			p.Make(mv)
		}
	}
	f.pos = p
	return nil
}

// legal returns the legal moves in UCI, sorted, rotated by a hash of the
// position so that the fake varies its play.
func (f *fake) legal() []string {
	var ms []string
	for _, m := range f.pos.LegalMoves() {
		ms = append(ms, m.String())
	}
	sort.Strings(ms)
	if len(ms) == 0 {
		return nil
	}
	h := fnv.New32a()
	_, _ = io.WriteString(h, f.pos.FEN()+f.seed)
	k := int(h.Sum32() % uint32(len(ms)))
	return append(ms[k:], ms[:k]...)
}

func (f *fake) goCmd(fields []string) {
	switch f.mode {
	case CrashOnGo:
		fmt.Fprintln(os.Stderr, "fake: crashing on go")
		os.Exit(3)
	case CrashOnce:
		marker := os.Getenv(EnvMarker)
		if _, err := os.Stat(marker); err != nil {
			_ = os.WriteFile(marker, []byte("crashed"), 0o600)
			fmt.Fprintln(os.Stderr, "fake: crashing once")
			os.Exit(3)
		}
	case Hang, Deaf:
		f.stop = make(chan struct{})
		return
	}
	var wait time.Duration
	infinite, ponder := false, false
	for i := 1; i < len(fields); i++ {
		switch fields[i] {
		case "ponder":
			ponder = true
		case "movetime":
			if i+1 < len(fields) {
				ms, _ := strconv.Atoi(fields[i+1])
				wait = time.Duration(ms) * time.Millisecond / 4
			}
		case "infinite":
			infinite = true
		}
	}
	if f.mode == Slow {
		wait = 2 * time.Second
		if d, err := time.ParseDuration(os.Getenv(EnvDelay)); err == nil {
			wait = d
		}
		infinite = false
	}
	stop := make(chan struct{})
	done := make(chan struct{})
	f.stop, f.done = stop, done
	var hit chan struct{}
	if ponder {
		// Pondering: no answer before "ponderhit" or "stop" (as the UCI
		// protocol requires), then the ordinary limits apply.
		hit = make(chan struct{})
		f.hit = hit
	}
	moves := f.legal()
	reply := f.reply(moves)
	go func() {
		defer close(done)
		f.search(moves)
		if hit != nil {
			select {
			case <-hit:
			case <-stop:
				f.answer(moves, reply)
				return
			}
		}
		if infinite {
			<-stop
		} else if wait > 0 {
			t := time.NewTimer(wait)
			select {
			case <-stop:
			case <-t.C:
			}
			t.Stop()
		}
		f.answer(moves, reply)
	}()
}

// reply is the reply the fake expects to its first move: the first legal
// one in UCI order ("" when there is none).
func (f *fake) reply(moves []string) string {
	if len(moves) == 0 {
		return ""
	}
	b := f.pos.Clone()
	m, ok := b.FindUCI(moves[0])
	if !ok {
		return ""
	}
	b.Make(m)
	var rs []string
	for _, r := range b.LegalMoves() {
		rs = append(rs, r.String())
	}
	sort.Strings(rs)
	if len(rs) == 0 {
		return ""
	}
	return rs[0]
}

func (f *fake) search(moves []string) {
	if f.mode == Garbage {
		f.say("\x00\x01 binary noise \xff")
		f.say("info depth x score cp 1")
		f.say("info score")
		f.say("info multipv 0 pv e2e4")
		f.say("bestmovement e2e4")
		f.say("Stockfish says hello")
	}
	f.say("info string fake engine thinking")
	for d := 1; d <= 3; d++ {
		for k := 1; k <= f.multiPV && k <= len(moves); k++ {
			f.say("info depth %d seldepth %d multipv %d score cp %d wdl 400 400 200 nodes %d nps 1000 hashfull 1 tbhits 0 time %d pv %s",
				d, d+2, k, 30-10*k+d, d*100, d, moves[k-1])
		}
		f.say("info depth %d currmove %s currmovenumber 1", d, firstOr(moves, "e2e4"))
	}
}

func (f *fake) answer(moves []string, reply string) {
	switch {
	case f.mode == NoMove || len(moves) == 0:
		f.say("bestmove (none)")
	case f.mode == Illegal:
		f.say("bestmove %s", f.illegal())
	case reply != "":
		f.say("bestmove %s ponder %s", moves[0], reply)
	default:
		f.say("bestmove %s", moves[0])
	}
}

// illegal returns a well-formed move that is not legal in the position.
func (f *fake) illegal() string {
	legal := map[string]bool{}
	for _, m := range f.legal() {
		legal[m] = true
	}
	for _, c := range []string{"a1a8", "h8h1", "e1e8", "a8h1", "b1b8"} {
		if !legal[c] {
			return c
		}
	}
	return "a2a5"
}

func firstOr(ms []string, def string) string {
	if len(ms) > 0 {
		return ms[0]
	}
	return def
}
