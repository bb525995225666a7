package installer

import (
	"fmt"
	"strings"
)

// Sources are the base URLs of every download. The defaults are the
// official ones; each is overridable (flag or environment variable) so that
// a mirror — or the tests' loopback server — serves the same files.
type Sources struct {
	// Stockfish is the base of the source archives: Base + "/" + tag +
	// ".tar.gz" (GitHub's tag archives of official-stockfish/Stockfish).
	Stockfish string
	// Nets is the base of the NNUE networks: Base + "/" + file name (the
	// official network server).
	Nets string
	// NPM is the npm registry: Base + "/NAME/-/NAME-VERSION.tgz".
	NPM string
	// Maia is the base of the Maia-1 weights: Base + "/maia-LEVEL.pb.gz"
	// (the maia-chess v1.0 release).
	Maia string
}

// The official sources, and the environment variables that override them.
const (
	DefaultStockfishURL = "https://github.com/official-stockfish/Stockfish/archive/refs/tags"
	DefaultNetsURL      = "https://tests.stockfishchess.org/api/nn"
	DefaultNPMRegistry  = "https://registry.npmjs.org"
	DefaultMaiaURL      = "https://github.com/CSSLab/maia-chess/releases/download/v1.0"

	EnvStockfishURL = "OUTPOST_STOCKFISH_URL"
	EnvNetsURL      = "OUTPOST_NETS_URL"
	EnvNPMRegistry  = "OUTPOST_NPM_REGISTRY"
	EnvMaiaURL      = "OUTPOST_MAIA_URL"
)

// DefaultSources are the official sources, each replaced by its
// environment variable when that is set (getenv reads the environment).
func DefaultSources(getenv func(string) string) Sources {
	pick := func(env, def string) string {
		if v := getenv(env); v != "" {
			return v
		}
		return def
	}
	return Sources{
		Stockfish: pick(EnvStockfishURL, DefaultStockfishURL),
		Nets:      pick(EnvNetsURL, DefaultNetsURL),
		NPM:       pick(EnvNPMRegistry, DefaultNPMRegistry),
		Maia:      pick(EnvMaiaURL, DefaultMaiaURL),
	}
}

func join(base, name string) string {
	return strings.TrimRight(base, "/") + "/" + name
}

// NPMTarball is one pinned npm package tarball.
type NPMTarball struct {
	// Name and Version of the package.
	Name, Version string
	// SHA256 of the tarball, pinned here; Integrity is the registry's
	// SHA-512 (`npm view NAME@VERSION dist.integrity`), for reference —
	// both were checked against the same bytes.
	SHA256, Integrity string
	// Size in bytes.
	Size int64
}

// File is the tarball's file name (what `npm pack` writes).
func (p NPMTarball) File() string { return p.Name + "-" + p.Version + ".tgz" }

// URL is the tarball's address in the registry base.
func (p NPMTarball) URL(registry string) string {
	return join(registry, p.Name+"/-/"+p.File())
}

// The npm tarballs setup downloads (checked 2026-11-29 against `npm view
// NAME@VERSION dist`: the SHA-512 integrity of the same bytes matches).
var (
	// ONNXRuntimeNode holds ONNX Runtime 1.24.1's shared library for
	// linux x64/arm64, darwin arm64 and win32 x64/arm64.
	ONNXRuntimeNode = NPMTarball{Name: "onnxruntime-node", Version: "1.24.1", Size: 85_811_498,
		SHA256:    "57181cf6e6e711b155c5b942d591fd63ded0b5de5c4922d51fd994e7f6ac2772",
		Integrity: "sha512-Ex/oUXKdhDoxvlNxBT3oYtW0MH88yYpPlXQeVQUXpcJQmN24usd/8RCoPLN5kCHwDsiZ+nqsnjciyFRl423dQw=="}
	// StockfishNPM16 holds Stockfish 16's network as a plain file.
	StockfishNPM16 = NPMTarball{Name: "stockfish", Version: "16.0.0", Size: 62_846_059,
		SHA256:    "033fd3c8b07b7d8906a081416b8683d1403dffa0e57958cfc744e0f3726aaa60",
		Integrity: "sha512-uu4AqsE2x0tD+SsYzZy4UtqeH4U9zDi1V8loDFDbMwCtvumGXF9j81Pg1ZmIkUgZhwQqPxQAv8IN5oy6hZa7Bw=="}
	// StockfishNPM171 holds Stockfish 17.1's networks in its WebAssembly build.
	StockfishNPM171 = NPMTarball{Name: "stockfish", Version: "17.1.0", Size: 146_853_307,
		SHA256:    "f6473919fcd9dc1a3e6a8f30fb5e3b7e6a57d966b36c8ad0959fce7aca7ec5fc",
		Integrity: "sha512-LvxdOzngaMjwdDKkZML4riABX9EWUkIE2ZJUsNvR2yFnM4WLiM6ggEXcBY8v53dK7uAfbxdJFcBiKTIQyGg6Zg=="}
	// StockfishNPM18 holds Stockfish 18's networks in its WebAssembly build.
	StockfishNPM18 = NPMTarball{Name: "stockfish", Version: "18.0.8", Size: 167_798_211,
		SHA256:    "bf7f06511204543b82bd77db2c6fa61c0de94678ee20c1a8d0962309095d2480",
		Integrity: "sha512-z+f2UMPXLylDBGjv9e9zU8QulY7hUl8MYHesLRrdddewlOXjJrUSmtNmbtID1/F72EPhq0CCkCNxgWS5MQVWtQ=="}
)

// StockfishRelease is where one Stockfish version's source and network
// fallback come from.
type StockfishRelease struct {
	// Tag is the official release tag (the archive is Tag + ".tar.gz").
	Tag string
	// NPM is the npm package its networks are recovered from when the
	// network server cannot be reached (nil: Stockfish 15.1, whose network
	// is exported from a Stockfish 15.1 binary instead).
	NPM *NPMTarball
}

// Releases maps engine names (package enginepath's canonical ones) to
// their official releases.
var Releases = map[string]StockfishRelease{
	"sf15":   {Tag: "sf_15.1"},
	"sf16":   {Tag: "sf_16", NPM: &StockfishNPM16},
	"sf17.1": {Tag: "sf_17.1", NPM: &StockfishNPM171},
	"sf18":   {Tag: "sf_18", NPM: &StockfishNPM18},
}

// SourceURL is the address of a release's source archive.
func (s Sources) SourceURL(r StockfishRelease) string {
	return join(s.Stockfish, r.Tag+".tar.gz")
}

// NetURL is the address of a network file.
func (s Sources) NetURL(name string) string { return join(s.Nets, name) }

// MaiaURL is the address of a Maia-1 weights file.
func (s Sources) MaiaURL(level int) string {
	return join(s.Maia, fmt.Sprintf("maia-%d.pb.gz", level))
}
