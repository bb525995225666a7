package cluster

import (
	"context"
	"errors"
	"fmt"
	"regexp"
)

// DeniedError is a permissions violation the server reported while an
// operation of a role ran on a connection: the credentials lack the role.
type DeniedError struct {
	// Role is the role the operation needs.
	Role Role
	// Have is the role written in the credentials file ("" when it does
	// not say, e.g. an operator's JWT credentials).
	Have Role
	// File is the credentials file.
	File string
	// Violation is the server's report.
	Violation error
}

func (e *DeniedError) Error() string {
	hint := fmt.Sprintf("the credentials in %s lack the %s role's permissions", e.File, e.Role)
	if e.Have != "" && e.Have != e.Role {
		hint = fmt.Sprintf("the credentials in %s are of role %s, not the %s role", e.File, e.Have, e.Role)
	}
	return fmt.Sprintf("cluster: the server refused an operation of the %s role: %v: %s (use %s of outpost cluster init)", e.Role, e.Violation, hint, credsFor(e.Role))
}

func (e *DeniedError) Unwrap() error { return e.Violation }

// credsFor names the credentials files of outpost cluster init that have
// role.
func credsFor(role Role) string {
	switch role {
	case RoleWorker:
		return "worker.creds or worker-N.creds"
	case RoleClient:
		return "client.creds"
	}
	return string(role) + ".creds"
}

// credsRole finds the role outpost cluster init wrote in a credentials
// file's first comment ("… credentials: role worker (worker-2).").
var credsRole = regexp.MustCompile(`(?m)^# Outpost analysis cluster credentials: role ([a-z]+) `)

// violationWatch is one operation watching its connection for
// permissions violations.
type violationWatch struct {
	role   Role
	cancel context.CancelCauseFunc
}

// guard returns ctx, ended with a *DeniedError as its cause at the first
// permissions violation the server reports on c while it runs (the
// denied request itself would only time out), and the function that ends
// the watch. Without credentials it is ctx itself: an open server denies
// nothing.
func (c *Conn) guard(ctx context.Context, role Role) (context.Context, func()) {
	if c.Identity == "" {
		return ctx, func() {}
	}
	gctx, cancel := context.WithCancelCause(ctx)
	w := &violationWatch{role: role, cancel: cancel}
	c.mu.Lock()
	if c.watches == nil {
		c.watches = map[*violationWatch]struct{}{}
	}
	c.watches[w] = struct{}{}
	c.mu.Unlock()
	return gctx, func() {
		c.mu.Lock()
		delete(c.watches, w)
		c.mu.Unlock()
		cancel(nil)
	}
}

// notify ends every watching operation with the violation.
func (c *Conn) notify(v error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for w := range c.watches {
		w.cancel(&DeniedError{Role: w.role, Have: c.credsRole, File: c.credsFile, Violation: v})
	}
}

// denied is the *DeniedError that ended ctx, or nil.
func denied(ctx context.Context) error {
	var d *DeniedError
	if errors.As(context.Cause(ctx), &d) {
		return d
	}
	return nil
}
