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

func TestSyncBuffer(t *testing.T) {
	var b SyncBuffer
	done := make(chan struct{})
	for range 4 {
		go func() {
			defer func() { done <- struct{}{} }()
			for range 100 {
				_, _ = b.Write([]byte("ab"))
			}
		}()
	}
	for range 4 {
		<-done
	}
	if b.Len() != 800 || len(b.String()) != 800 {
		t.Errorf("%d bytes, want 800", b.Len())
	}
	b.Reset()
	if b.String() != "" {
		t.Errorf("after Reset: %q", b.String())
	}
}
