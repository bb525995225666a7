package provider

import (
	"crypto/rand"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// Secrets keeps one provider secret per registration name in a JSON file
// of mode 0600 (the secret is the credential that lets anyone serve, and
// so read, the user's analysis requests). A missing file is created; one
// that others may read is refused, naming the chmod that fixes it.
type Secrets struct {
	path string
	m    map[string]string
}

// maxSecretsFile bounds the file read (a few names and secrets).
const maxSecretsFile = 1 << 20

// LoadSecrets reads path (a missing file is an empty set).
func LoadSecrets(path string) (*Secrets, error) {
	s := &Secrets{path: path, m: map[string]string{}}
	fi, err := os.Stat(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return s, nil
	case err != nil:
		return nil, fmt.Errorf("provider: secrets file: %w", err)
	case !fi.Mode().IsRegular():
		return nil, fmt.Errorf("provider: secrets file %s is not a regular file", path)
	case fi.Mode().Perm()&0o077 != 0:
		return nil, fmt.Errorf("provider: secrets file %s has mode %04o: others may read it; run chmod 600 %s", path, fi.Mode().Perm(), path)
	case fi.Size() > maxSecretsFile:
		return nil, fmt.Errorf("provider: secrets file %s is %d bytes, more than %d", path, fi.Size(), maxSecretsFile)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("provider: secrets file: %w", err)
	}
	if err := json.Unmarshal(data, &s.m); err != nil {
		return nil, fmt.Errorf("provider: secrets file %s: %w", path, err)
	}
	return s, nil
}

// For returns name's secret, making (and saving) a new random one the
// first time.
func (s *Secrets) For(name string) (string, error) {
	if sec, ok := s.m[name]; ok && len(sec) >= 16 {
		return sec, nil
	}
	raw := make([]byte, 32)
	if _, err := rand.Read(raw); err != nil {
		return "", fmt.Errorf("provider: secret: %w", err)
	}
	s.m[name] = base64.RawURLEncoding.EncodeToString(raw)
	return s.m[name], s.save()
}

// save writes the file atomically with mode 0600.
func (s *Secrets) save() error {
	data, err := json.MarshalIndent(s.m, "", "  ")
	if err != nil {
		return err
	}
	dir := filepath.Dir(s.path)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return fmt.Errorf("provider: secrets file: %w", err)
	}
	tmp, err := os.CreateTemp(dir, ".provider-secrets-*")
	if err != nil {
		return fmt.Errorf("provider: secrets file: %w", err)
	}
	defer os.Remove(tmp.Name())
	if err := tmp.Chmod(0o600); err != nil {
		tmp.Close()
		return fmt.Errorf("provider: secrets file: %w", err)
	}
	if _, err := tmp.Write(append(data, '\n')); err != nil {
		tmp.Close()
		return fmt.Errorf("provider: secrets file: %w", err)
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("provider: secrets file: %w", err)
	}
	if err := os.Rename(tmp.Name(), s.path); err != nil {
		return fmt.Errorf("provider: secrets file: %w", err)
	}
	return nil
}
