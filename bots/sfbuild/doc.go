// Package sfbuild builds Stockfish natively for the CPU it runs on, from a
// source archive, with its networks supplied offline, and checks the build's
// identity by its bench node count.
//
// A Recipe names a version (Stockfish15, Stockfish16, Stockfish171,
// Stockfish18; Recipes lists them, RecipeFor finds one by engine name): its source archive
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
// export_net command, ExportNet); the others come from npm packages
// (Recipe.NPM, NetsFromNPM): Stockfish 16's is a plain file of
// stockfish@16.0.0, 17.1's and 18's are recovered from the WebAssembly
// builds of stockfish@17.1.0 (six parts) and stockfish@18.0.8 (package
// wasmnet). Stockfish's own Makefile downloads them when online; that path
// is not used here.
package sfbuild
