package lichess

import (
	"errors"
	"fmt"
	"io"
	"os"
	"runtime"
	"strings"
)

// TokenEnv is the environment variable a token is read from.
const TokenEnv = "LICHESS_TOKEN"

// redactedText replaces the token wherever it would otherwise be shown.
const redactedText = "[REDACTED]"

// Token is a Lichess API access token. Its String, GoString, MarshalJSON
// and MarshalText methods never reveal it, so printing or logging a Token
// (or a struct holding one) by mistake shows "[REDACTED]". Only the client
// reads the real value, to put it in the Authorization header.
type Token string

// String returns "[REDACTED]" (or "" for an empty token).
func (t Token) String() string {
	if t == "" {
		return ""
	}
	return redactedText
}

// GoString returns a redacted Go representation.
func (t Token) GoString() string { return `lichess.Token("` + t.String() + `")` }

// MarshalJSON encodes the redacted form.
func (t Token) MarshalJSON() ([]byte, error) { return []byte(`"` + t.String() + `"`), nil }

// MarshalText encodes the redacted form.
func (t Token) MarshalText() ([]byte, error) { return []byte(t.String()), nil }

// ErrNoToken means neither LICHESS_TOKEN nor a token file gave a token.
var ErrNoToken = errors.New("lichess: no API token: set " + TokenEnv + " or token_file")

// LoadToken returns the token from the LICHESS_TOKEN environment variable
// (looked up with getenv; nil means os.Getenv) or, when that is empty, from
// tokenFile. A token file must not be accessible by group or others: the
// error then says why and gives the chmod that fixes it. Surrounding
// whitespace is trimmed; a token containing whitespace or control characters
// is refused. Errors never contain the token.
func LoadToken(getenv func(string) string, tokenFile string) (Token, error) {
	if getenv == nil {
		getenv = os.Getenv
	}
	if v := strings.TrimSpace(getenv(TokenEnv)); v != "" {
		if err := validateToken(v); err != nil {
			return "", fmt.Errorf("lichess: %s: %w", TokenEnv, err)
		}
		return Token(v), nil
	}
	if tokenFile == "" {
		return "", ErrNoToken
	}
	return ReadTokenFile(tokenFile)
}

// ReadTokenFile reads a token from path, refusing a file that group or
// others can access (on systems with Unix permissions).
func ReadTokenFile(path string) (Token, error) {
	info, err := os.Stat(path)
	if err != nil {
		return "", fmt.Errorf("lichess: token file: %w", err)
	}
	if !info.Mode().IsRegular() {
		return "", fmt.Errorf("lichess: token file %s is not a regular file", path)
	}
	if runtime.GOOS != "windows" {
		if perm := info.Mode().Perm(); perm&0o077 != 0 {
			return "", fmt.Errorf("lichess: token file %s has mode %04o: it must not be readable by group or others, "+
				"because anyone who can read it can play as your account; fix it with: chmod 600 %s", path, perm, path)
		}
	}
	raw, err := readTokenFile(path)
	if err != nil {
		return "", fmt.Errorf("lichess: token file: %w", err)
	}
	v := strings.TrimSpace(string(raw))
	if v == "" {
		return "", fmt.Errorf("lichess: token file %s is empty", path)
	}
	if err := validateToken(v); err != nil {
		return "", fmt.Errorf("lichess: token file %s: %w", path, err)
	}
	return Token(v), nil
}

// validateToken rejects tokens that cannot be sent in an HTTP header. The
// error does not contain the token.
func validateToken(v string) error {
	for i, r := range v {
		if r <= ' ' || r == 0x7f || r > 0x7e {
			return fmt.Errorf("token has an invalid character at byte %d (tokens are printable ASCII without spaces)", i)
		}
	}
	return nil
}

// redactor removes a token from text.
type redactor struct{ token string }

// redact replaces every occurrence of the token in s.
func (r redactor) redact(s string) string {
	if len(r.token) < 4 || !strings.Contains(s, r.token) {
		return s
	}
	return strings.ReplaceAll(s, r.token, redactedText)
}

// err wraps err so that its message cannot reveal the token. Errors that are
// already redacted are returned as they are.
func (r redactor) err(err error) error {
	if err == nil {
		return nil
	}
	var re *redactedError
	if errors.As(err, &re) && re.token == r.token {
		return err
	}
	return &redactedError{err: err, token: r.token}
}

// redactedError hides the token in its wrapped error's message while keeping
// errors.Is and errors.As working.
type redactedError struct {
	err   error
	token string
}

// Error returns the wrapped message with the token replaced.
func (e *redactedError) Error() string { return redactor{e.token}.redact(e.err.Error()) }

// Unwrap returns the wrapped error.
func (e *redactedError) Unwrap() error { return e.err }

// maxTokenFile bounds a token file: a Lichess token is about 24 bytes, a
// file past 4 KiB is not one.
const maxTokenFile = 4 << 10

// readTokenFile reads at most maxTokenFile bytes of path; a longer file is
// an error naming the limit (its content is never echoed).
func readTokenFile(path string) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	raw, err := io.ReadAll(io.LimitReader(f, maxTokenFile+1))
	if err != nil {
		return nil, err
	}
	if len(raw) > maxTokenFile {
		return nil, fmt.Errorf("%s is larger than the limit of %d bytes for a token file", path, maxTokenFile)
	}
	return raw, nil
}
