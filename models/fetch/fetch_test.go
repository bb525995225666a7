package fetch

import (
	"bytes"
	"context"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/outpostchess/outpost/internal/testkit"
)

func TestExtractLibrary(t *testing.T) {
	dst := filepath.Join(t.TempDir(), "lib", LibraryName)
	pkg := testkit.TarGz(t, map[string]string{
		"package/package.json":                           "{}",
		"package/bin/napi-v6/linux/arm64/" + LibraryName: "wrong arch",
		LibraryPath: "ELF library bytes",
	})
	if err := ExtractLibrary(bytes.NewReader(pkg), dst); err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile(dst)
	if err != nil || string(got) != "ELF library bytes" {
		t.Fatalf("extracted %q, %v", got, err)
	}
	if st, _ := os.Stat(dst); st.Mode().Perm() != 0o755 {
		t.Errorf("mode %v, want 0755", st.Mode())
	}
	err = ExtractLibrary(bytes.NewReader(testkit.TarGz(t, map[string]string{"package/README": "x"})), dst)
	if err == nil || !strings.Contains(err.Error(), LibraryPath) {
		t.Errorf("missing library: %v", err)
	}
	if err := ExtractLibrary(strings.NewReader("not gzip"), dst); err == nil {
		t.Error("non-gzip accepted")
	}
}

func FuzzExtractLibrary(f *testing.F) {
	f.Add(testkit.TarGz(f, map[string]string{LibraryPath: "lib"}))
	f.Add([]byte{0x1f, 0x8b, 0x08, 0x00})
	dir := f.TempDir()
	f.Fuzz(func(t *testing.T, b []byte) {
		_ = ExtractLibrary(bytes.NewReader(b), filepath.Join(dir, "lib.so"))
	})
}

func TestInstallWeights(t *testing.T) {
	ctx := context.Background()
	src := "../../../shared/models/maia1"
	if _, err := os.Stat(filepath.Join(src, "maia-1100.pb.gz")); err != nil {
		t.Skip("Maia-1 weights not available in ../shared")
	}
	dir := t.TempDir()
	// Copy from the source folder; the download server must not be asked.
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		t.Errorf("unexpected download %s", r.URL)
		http.NotFound(w, r)
	}))
	defer srv.Close()
	opts := WeightsOptions{Source: src, URL: srv.URL + "/maia-%d.pb.gz", Client: srv.Client()}
	if err := InstallWeights(ctx, dir, []int{1100, 1900}, opts); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(filepath.Join(dir, "maia-1900.pb.gz"))
	if err != nil || testkit.SHA256(b) != Weights[1900] {
		t.Fatalf("maia-1900 not installed correctly: %v", err)
	}
	// Download path: serve the real file for 1500, garbage for 1600.
	real1500, err := os.ReadFile(filepath.Join(src, "maia-1500.pb.gz"))
	if err != nil {
		t.Fatal(err)
	}
	dl := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/maia-1500.pb.gz":
			_, _ = w.Write(real1500)
		case "/maia-1600.pb.gz":
			_, _ = w.Write([]byte("tampered"))
		default:
			http.NotFound(w, r)
		}
	}))
	defer dl.Close()
	opts = WeightsOptions{URL: dl.URL + "/maia-%d.pb.gz", Client: dl.Client()}
	if err := InstallWeights(ctx, dir, []int{1500}, opts); err != nil {
		t.Fatal(err)
	}
	err = InstallWeights(ctx, dir, []int{1600}, opts)
	if err == nil || !strings.Contains(err.Error(), "SHA-256") {
		t.Errorf("tampered download: %v", err)
	}
	if _, err := os.Stat(filepath.Join(dir, "maia-1600.pb.gz")); err == nil {
		t.Error("tampered file was installed")
	}
	err = InstallWeights(ctx, dir, []int{1700}, opts)
	if err == nil || !strings.Contains(err.Error(), "404") {
		t.Errorf("missing download: %v", err)
	}
	// Unreachable host: the error explains the offline alternative.
	opts = WeightsOptions{URL: "http://127.0.0.1:1/maia-%d.pb.gz"}
	err = InstallWeights(ctx, dir, []int{1800}, opts)
	if err == nil || !strings.Contains(err.Error(), "OUTPOST_MAIA_SOURCE") {
		t.Errorf("unreachable: %v", err)
	}
	if err := InstallWeights(ctx, dir, []int{1234}, opts); err == nil {
		t.Error("unknown level accepted")
	}
}
