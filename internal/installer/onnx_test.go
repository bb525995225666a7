package installer

import (
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/outpostchess/outpost/internal/testkit"
)

// ortMember is the library's path in the fixtures below (linux/amd64's).
const ortMember = "package/bin/napi-v6/linux/x64/libonnxruntime.so.1"

// extractInto writes tgz to a file and extracts member into a fresh
// directory; it returns the destination and extractMember's error.
func extractInto(t *testing.T, tgz []byte, member, sha string) (string, error) {
	t.Helper()
	dir := t.TempDir()
	src := filepath.Join(dir, "pkg.tgz")
	if err := os.WriteFile(src, tgz, 0o644); err != nil {
		t.Fatal(err)
	}
	dst := filepath.Join(dir, "lib", "libonnxruntime.so.1")
	return dst, extractMember(src, member, dst, sha)
}

// noFile fails the test when path exists.
func noFile(t *testing.T, path string) {
	t.Helper()
	if _, err := os.Stat(path); !os.IsNotExist(err) {
		t.Errorf("%s exists (%v), want none", filepath.Base(path), err)
	}
}

// TestExtractMember: the wanted member is picked out of a tarball holding
// other platforms' libraries and installed with mode 0755; a missing or
// empty member, a wrong SHA-256, a cut or non-gzip file are errors that
// leave neither the file nor its .tmp behind.
func TestExtractMember(t *testing.T) {
	const lib = "ELF library bytes"
	pkg := testkit.TarGz(t, map[string]string{
		"package/package.json":                                "{}",
		"package/bin/napi-v6/linux/arm64/libonnxruntime.so.1": "wrong arch",
		ortMember: lib,
	})
	cases := []struct {
		name    string
		tgz     []byte
		sha     string
		wantErr string
	}{
		{name: "member among others", tgz: pkg, sha: testkit.SHA256([]byte(lib))},
		{name: "wrong SHA-256", tgz: pkg, sha: testkit.SHA256([]byte("other")), wantErr: "want the pinned"},
		{name: "missing member", tgz: testkit.TarGz(t, map[string]string{"package/README": "x"}), sha: testkit.SHA256([]byte(lib)), wantErr: "no " + ortMember},
		{name: "empty member", tgz: testkit.TarGz(t, map[string]string{ortMember: ""}), sha: testkit.SHA256(nil), wantErr: "implausible size 0"},
		// Cut 6 bytes into the deflate stream: too short to hold even the
		// first tar header (its name alone is 50 bytes).
		{name: "cut tarball", tgz: testkit.TarGz(t, map[string]string{ortMember: lib})[:16], sha: testkit.SHA256([]byte(lib)), wantErr: "unexpected EOF"},
		{name: "not gzip", tgz: []byte("not gzip"), sha: testkit.SHA256([]byte(lib)), wantErr: "gzip"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dst, err := extractInto(t, c.tgz, ortMember, c.sha)
			if c.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), c.wantErr) {
					t.Fatalf("err %v, want %q", err, c.wantErr)
				}
				noFile(t, dst)
				noFile(t, dst+".tmp")
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got, err := os.ReadFile(dst); err != nil || string(got) != lib {
				t.Fatalf("extracted %q, %v; want %q", got, err, lib)
			}
			if st, err := os.Stat(dst); runtime.GOOS != "windows" && (err != nil || st.Mode().Perm() != 0o755) {
				t.Errorf("mode %v (%v), want 0755", st.Mode(), err)
			}
			noFile(t, dst+".tmp")
		})
	}
}

// FuzzExtractMember: extractMember never panics on any bytes; when it
// returns nil the installed file has the wanted SHA-256, and when it
// fails neither the file nor its .tmp is left.
func FuzzExtractMember(f *testing.F) {
	const lib = "lib"
	want := testkit.SHA256([]byte(lib))
	f.Add(testkit.TarGz(f, map[string]string{"package/README": "x", ortMember: lib}))
	f.Add([]byte{0x1f, 0x8b, 0x08, 0x00}) // a gzip header cut short
	f.Fuzz(func(t *testing.T, b []byte) {
		dst, err := extractInto(t, b, ortMember, want)
		if err != nil {
			noFile(t, dst)
			noFile(t, dst+".tmp")
			return
		}
		if sum, err := FileSHA256(dst); err != nil || sum != want {
			t.Fatalf("returned nil but %s has SHA-256 %q (%v), want %s", dst, sum, err, want)
		}
	})
}
