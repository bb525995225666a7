package config

import _ "embed"

// example is config.example.toml, which documents every option with its
// default and range. The repository root holds an identical copy.
//
//go:embed config.example.toml
var example []byte

// Example returns the annotated example configuration (every option at its
// default, with its range), as `outpost config example` prints it.
func Example() []byte { return append([]byte(nil), example...) }
