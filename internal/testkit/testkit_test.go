package testkit

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"io"
	"testing"
)

func TestTarGz(t *testing.T) {
	files := map[string]string{"a/b.txt": "hello", "c": ""}
	zr, err := gzip.NewReader(bytes.NewReader(TarGz(t, files)))
	if err != nil {
		t.Fatal(err)
	}
	tr := tar.NewReader(zr)
	got := map[string]string{}
	for {
		h, err := tr.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(tr)
		got[h.Name] = string(b)
	}
	if len(got) != 2 || got["a/b.txt"] != "hello" || got["c"] != "" {
		t.Errorf("archive holds %v", got)
	}
	if s := SHA256([]byte("abc")); s != "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad" {
		t.Errorf("SHA256(abc) = %s", s)
	}
}
