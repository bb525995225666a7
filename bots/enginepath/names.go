package enginepath

import "strings"

// Canonical engine names.
const (
	// Stockfish15 is Stockfish 15.1: the native build when there is one,
	// else Debian's; also "stockfish", "stockfish15", "stockfish-15".
	Stockfish15 = "sf15"
	// Stockfish18 is the native build of Stockfish 18 (the engine of
	// Lichess's analysis from fishnet 2.13.0); also "stockfish18",
	// "stockfish-18".
	Stockfish18 = "sf18"
	// Stockfish16 is the native build of Stockfish 16 (the engine of
	// Lichess's analysis from fishnet 2.7.0, 2023-07-01); also
	// "stockfish16", "stockfish-16".
	Stockfish16 = "sf16"
	// Stockfish171 is the native build of Stockfish 17.1 (the engine of
	// Lichess's analysis from fishnet 2.9.5, 2025-03-30); also "sf171",
	// "stockfish17.1", "stockfish-17.1".
	Stockfish171 = "sf17.1"
	// Stockfish19 is Stockfish 19 from the npm package stockfish@19.0.0,
	// WebAssembly run with node; also "stockfish19", "stockfish-19".
	Stockfish19 = "sf19"
	// Auto is Stockfish 19 when it is installed, else Stockfish 15.1 (with a
	// notice saying so).
	Auto = "auto"
)

// aliases maps every accepted spelling (lower case) to its canonical name.
func aliases() map[string]string {
	return map[string]string{
		"sf15": Stockfish15, "stockfish": Stockfish15, "stockfish15": Stockfish15, "stockfish-15": Stockfish15,
		"stockfish-15.1": Stockfish15, "sf15.1": Stockfish15,
		"sf16": Stockfish16, "stockfish16": Stockfish16, "stockfish-16": Stockfish16,
		"sf17.1": Stockfish171, "sf171": Stockfish171, "stockfish17.1": Stockfish171, "stockfish-17.1": Stockfish171,
		"sf18": Stockfish18, "stockfish18": Stockfish18, "stockfish-18": Stockfish18,
		"sf19": Stockfish19, "stockfish19": Stockfish19, "stockfish-19": Stockfish19,
		"auto": Auto,
	}
}

// Names returns the canonical engine names.
func Names() []string {
	return []string{Stockfish15, Stockfish16, Stockfish171, Stockfish18, Stockfish19, Auto}
}

// NativeNames returns the names of the native builds, oldest first.
func NativeNames() []string { return []string{Stockfish15, Stockfish16, Stockfish171, Stockfish18} }

// nativeVersion is the Stockfish version of a native build's name ("" for
// a name without one).
func nativeVersion(name string) string {
	return map[string]string{Stockfish15: "15.1", Stockfish16: "16", Stockfish171: "17.1", Stockfish18: "18"}[name]
}

// Canonical returns the canonical name of an engine name in any accepted
// spelling ("Stockfish-19" → "sf19"), or "" when word names no engine.
func Canonical(word string) string {
	return aliases()[strings.ToLower(strings.TrimSpace(word))]
}

// Name returns the canonical engine name of a one-word command line, or ""
// when cmdline is an ordinary command (a path, or a program with
// arguments).
func Name(cmdline []string) string {
	if len(cmdline) != 1 {
		return ""
	}
	return Canonical(cmdline[0])
}

// Describe is a human-readable name of a canonical engine name.
func Describe(name string) string {
	switch name {
	case Stockfish15:
		return "Stockfish 15.1"
	case Stockfish16, Stockfish171, Stockfish18:
		return "Stockfish " + nativeVersion(name)
	case Stockfish19:
		return "Stockfish 19"
	case Auto:
		return "Stockfish 19 when installed, else Stockfish 15.1"
	}
	return name
}
