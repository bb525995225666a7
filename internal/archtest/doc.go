// Package archtest holds the test that keeps the layers of the module
// pointing the right way (see docs/architecture.md): the libraries
// (lichess, bots, analysis, models) import neither config nor internal/,
// and only cmd/ and internal/ read the config. It has no code of its own.
package archtest
