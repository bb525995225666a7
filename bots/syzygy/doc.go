// Package syzygy probes local Syzygy endgame tablebases (WDL .rtbw and DTZ
// .rtbz files) and offers them as a move source ("syzygy") and as a WDL
// oracle for search.
//
// Probing goes through Debian's libfathom1 (Fathom, the reference Syzygy
// prober as a C library), loaded at run time with dlopen from a small cgo
// shim: the module builds and runs without it, and Open reports a clear
// error when it is missing. Fathom keeps its tables in global C variables,
// so a process has one set of table directories at a time: every Tables
// over the same directories shares the loaded library (any number at once),
// and Open refuses other directories while tables are open. Writing a Go
// reader of the Syzygy format was the alternative; the library is the
// reference implementation, packaged and small (47 kB), so it won.
package syzygy
