// Package sfbuild builds Stockfish natively for the CPU it runs on, from a
// source archive, with its networks supplied offline, and checks the build's
// identity by its bench node count.
//
// A Recipe names a version (Stockfish15, Stockfish18): its source archive
// and SHA-256, its networks and the bench whose node count identifies it.
// ChooseArch picks the Makefile's ARCH from /proc/cpuinfo. Builder.Build
// extracts the archive, puts the networks into src/, runs `make
// profile-build` (the profile-guided build; `make build` when it fails),
// runs the bench and installs the executable with a build.json beside it
// (written last, so that only a checked build counts; package enginepath
// finds it there). A build identical to the installed one (same source,
// networks, ARCH, compiler and target, executable unchanged) is skipped.
//
// Networks: Stockfish 15.1's is exported from Debian's binary (its
// export_net command, ExportNet); Stockfish 18's two are recovered from the
// npm package stockfish@18.0.8 (NetsFromNPM, package wasmnet). Stockfish's
// own Makefile downloads them when online; that path is not used here.
package sfbuild
