package uci

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"sync"
	"time"

	"github.com/rs/zerolog"
)

// maxLine bounds one line of engine output; a longer line is treated as a
// broken engine.
const maxLine = 1 << 20

// process is one running engine: its stdin, a channel of its stdout lines
// (closed at end of output) and the tail of its stderr.
type process struct {
	path   string
	cmd    *exec.Cmd
	stdin  io.WriteCloser
	lines  chan string
	exited chan struct{} // closed once the process has been waited for
	gone   chan struct{} // closed when we kill or abandon the process
	stderr *tailBuffer
	log    zerolog.Logger

	writeMu  sync.Mutex
	killOnce sync.Once
	waitErr  error // valid after exited is closed
	readErr  error // valid after lines is closed
}

// startProcess launches the engine and its reader goroutine.
func startProcess(cfg Config) (*process, error) {
	if cfg.Path == "" {
		return nil, errors.New("uci: no engine path")
	}
	cmd := exec.Command(cfg.Path, cfg.Args...)
	cmd.Dir = cfg.Dir
	if len(cfg.Env) > 0 {
		cmd.Env = append(os.Environ(), cfg.Env...)
	}
	p := &process{
		path:   cfg.Path,
		cmd:    cmd,
		lines:  make(chan string, 256),
		exited: make(chan struct{}),
		gone:   make(chan struct{}),
		stderr: &tailBuffer{max: 4096},
		log:    cfg.Logger,
	}
	cmd.Stderr = p.stderr
	cmd.WaitDelay = time.Second
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return nil, fmt.Errorf("uci: start %s: %w", cfg.Path, err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, fmt.Errorf("uci: start %s: %w", cfg.Path, err)
	}
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("uci: start %s: %w", cfg.Path, err)
	}
	p.stdin = stdin
	go p.read(stdout)
	return p, nil
}

// read forwards stdout lines until end of output, then reaps the process.
func (p *process) read(stdout io.Reader) {
	sc := bufio.NewScanner(stdout)
	sc.Buffer(make([]byte, 0, 64*1024), maxLine)
loop:
	for sc.Scan() {
		line := sc.Text()
		p.log.Trace().Str("engine", p.path).Str("recv", line).Msg("uci")
		select {
		case p.lines <- line:
		case <-p.gone:
			break loop
		}
	}
	if err := sc.Err(); err != nil {
		p.readErr = fmt.Errorf("reading output: %w", err)
		p.kill()
	}
	close(p.lines)
	// Drain what is left so that Wait can finish, unless we gave up.
	go func() { _, _ = io.Copy(io.Discard, stdout) }()
	p.waitErr = p.cmd.Wait()
	close(p.exited)
}

// send writes one command line.
func (p *process) send(line string) error {
	p.writeMu.Lock()
	defer p.writeMu.Unlock()
	p.log.Trace().Str("engine", p.path).Str("send", line).Msg("uci")
	if _, err := io.WriteString(p.stdin, line+"\n"); err != nil {
		return fmt.Errorf("writing %q: %w", clip(line), err)
	}
	return nil
}

// alive reports whether the process can still be talked to.
func (p *process) alive() bool {
	select {
	case <-p.exited:
		return false
	case <-p.gone:
		return false
	default:
		return true
	}
}

// kill ends the process and releases the reader. It is idempotent.
func (p *process) kill() {
	p.killOnce.Do(func() {
		close(p.gone)
		if p.cmd.Process != nil {
			_ = p.cmd.Process.Kill()
		}
		_ = p.stdin.Close()
	})
}

// quit asks the engine to exit, then kills it after timeout, and waits for
// the reader to finish.
func (p *process) quit(timeout time.Duration) {
	if p.alive() {
		_ = p.send("quit")
		p.writeMu.Lock()
		_ = p.stdin.Close()
		p.writeMu.Unlock()
		t := time.NewTimer(timeout)
		select {
		case <-p.exited:
		case <-t.C:
		}
		t.Stop()
	}
	p.kill()
	<-p.exited
}

// crash builds the CrashError for stage, waiting briefly for the exit status.
func (p *process) crash(stage string, cause error) error {
	t := time.NewTimer(500 * time.Millisecond)
	defer t.Stop()
	select {
	case <-p.exited:
		if cause == nil {
			cause = p.readErr
		}
		if cause == nil && p.waitErr != nil {
			cause = p.waitErr
		}
		if cause == nil {
			cause = errors.New("process exited")
		}
	case <-t.C:
	}
	p.kill()
	return &CrashError{Path: p.path, Stage: stage, Cause: cause, Stderr: p.stderr.String()}
}

// next returns the next output line, failing on process end, context end,
// timeout or close.
func (p *process) next(ctx context.Context, timeout <-chan time.Time, closing <-chan struct{}, stage string) (string, error) {
	select {
	case line, ok := <-p.lines:
		if !ok {
			return "", p.crash(stage, nil)
		}
		return line, nil
	case <-ctx.Done():
		return "", ctx.Err()
	case <-timeout:
		return "", fmt.Errorf("uci: %s: %s: %w", p.path, stage, ErrTimeout)
	case <-closing:
		return "", ErrClosed
	}
}

// tailBuffer keeps the last max bytes written to it.
type tailBuffer struct {
	mu  sync.Mutex
	max int
	buf []byte
}

// Write implements io.Writer.
func (t *tailBuffer) Write(b []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.buf = append(t.buf, b...)
	if len(t.buf) > t.max {
		t.buf = append([]byte(nil), t.buf[len(t.buf)-t.max:]...)
	}
	return len(b), nil
}

// String returns the retained output.
func (t *tailBuffer) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return string(t.buf)
}
