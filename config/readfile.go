package config

import (
	"fmt"
	"io"
	"os"
)

// ReadFile reads the configuration file at path, refusing it as soon as it
// grows past MaxFileSize: the limit is checked while reading, so a device
// such as /dev/zero or an endless pipe is refused after MaxFileSize+1 bytes
// instead of being read into memory. The error names the limit.
func ReadFile(path string) ([]byte, error) {
	return readBounded(path, MaxFileSize, "configuration file")
}

// readBounded reads at most limit bytes of path; a longer file is an error
// naming what and the limit.
func readBounded(path string, limit int64, what string) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, limit+1))
	if err != nil {
		return nil, fmt.Errorf("reading %s: %w", path, err)
	}
	if int64(len(data)) > limit {
		return nil, &TooLargeError{Path: path, What: what, Limit: limit}
	}
	return data, nil
}

// TooLargeError is a file past its size limit.
type TooLargeError struct {
	Path  string
	What  string
	Limit int64
}

// Error names the file and the limit.
func (e *TooLargeError) Error() string {
	return fmt.Sprintf("%s %s is larger than the limit of %d KiB (%d bytes)", e.What, e.Path, e.Limit>>10, e.Limit)
}
