module github.com/outpostchess/outpost

go 1.26.0

require (
	github.com/mattn/go-isatty v0.0.24
	github.com/rs/zerolog v1.35.1
)

require (
	github.com/mattn/go-colorable v0.1.14 // indirect
	golang.org/x/sys v0.49.0 // indirect
)
