package web

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"io"
	"math/big"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// selfSigned writes a certificate for 127.0.0.1 and its key into dir.
func selfSigned(t *testing.T, dir string) (certFile, keyFile string, pool *x509.CertPool) {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "outpost test"},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(24 * time.Hour),
		IPAddresses: []net.IP{net.IPv4(127, 0, 0, 1)}, KeyUsage: x509.KeyUsageDigitalSignature, ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth}}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	kder, err := x509.MarshalECPrivateKey(key)
	if err != nil {
		t.Fatal(err)
	}
	certFile, keyFile = filepath.Join(dir, "cert.pem"), filepath.Join(dir, "key.pem")
	if err := os.WriteFile(certFile, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(keyFile, pem.EncodeToMemory(&pem.Block{Type: "EC PRIVATE KEY", Bytes: kder}), 0o600); err != nil {
		t.Fatal(err)
	}
	c, _ := x509.ParseCertificate(der)
	pool = x509.NewCertPool()
	pool.AddCert(c)
	return certFile, keyFile, pool
}

// TestPlainHTTPRefusedOffLoopback: a console on a non-loopback address
// without TLS is refused, naming the flags and keys, unless PlainHTTP says
// so (before, it served plain HTTP with the token as a cookie); a
// certificate without its key, or one that does not load, is refused too.
func TestPlainHTTPRefusedOffLoopback(t *testing.T) {
	st := seedStore(t)
	const tok = "s3cret-console-token"
	_, err := New(Options{Store: st, AccessToken: tok, Addr: "0.0.0.0:8090"})
	if err == nil || !strings.Contains(err.Error(), "--tls-cert") || !strings.Contains(err.Error(), "web.tls_cert_file") || !strings.Contains(err.Error(), "--plain-http") {
		t.Errorf("plain HTTP off loopback: %v", err)
	}
	s, err := New(Options{Store: st, AccessToken: tok})
	if err != nil {
		t.Fatal(err)
	}
	if err := s.ListenAndServe(context.Background(), "0.0.0.0:0"); err == nil || !strings.Contains(err.Error(), "--tls-cert") {
		t.Errorf("ListenAndServe off loopback without TLS: %v", err)
	}
	if _, err := New(Options{Store: st, AccessToken: tok, Addr: "0.0.0.0:8090", PlainHTTP: true}); err != nil {
		t.Errorf("PlainHTTP: %v", err)
	}
	if _, err := New(Options{Store: st, Addr: "127.0.0.1:8090"}); err != nil {
		t.Errorf("loopback: %v", err)
	}
	dir := t.TempDir()
	cert, key, _ := selfSigned(t, dir)
	if _, err := New(Options{Store: st, AccessToken: tok, Addr: "0.0.0.0:8090", TLSCert: cert}); err == nil || !strings.Contains(err.Error(), "both") {
		t.Errorf("certificate without key: %v", err)
	}
	if _, err := New(Options{Store: st, AccessToken: tok, Addr: "0.0.0.0:8090", TLSCert: key, TLSKey: cert}); err == nil || !strings.Contains(err.Error(), "TLS certificate") {
		t.Errorf("swapped files: %v", err)
	}
	if _, err := New(Options{Store: st, AccessToken: tok, Addr: "0.0.0.0:8090", TLSCert: cert, TLSKey: key}); err != nil {
		t.Errorf("TLS: %v", err)
	}
}

// TestSessionCookieOverTLS: served over TLS on loopback, the console's
// ?access_token= login sets a Secure, HttpOnly cookie whose value is not
// the token (before, the cookie was the raw token, without Secure); that
// cookie opens the console, the token as a cookie does not.
func TestSessionCookieOverTLS(t *testing.T) {
	const tok = "s3cret-console-token"
	cert, key, pool := selfSigned(t, t.TempDir())
	s, err := New(Options{Store: seedStore(t), AccessToken: tok, TLSCert: cert, TLSKey: key})
	if err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- s.Serve(ctx, ln) }()
	defer func() { cancel(); <-done }()
	base := "https://" + ln.Addr().String()
	tr := &http.Transport{TLSClientConfig: &tls.Config{RootCAs: pool}}
	defer tr.CloseIdleConnections()
	client := &http.Client{Transport: tr, CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	get := func(path string, c *http.Cookie) *http.Response {
		req, _ := http.NewRequest(http.MethodGet, base+path, nil)
		if c != nil {
			req.AddCookie(c)
		}
		resp, err := client.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		return resp
	}
	r := get("/?access_token="+tok, nil)
	if r.StatusCode != http.StatusSeeOther {
		t.Fatalf("login: %d", r.StatusCode)
	}
	var cookie *http.Cookie
	for _, c := range r.Cookies() {
		if c.Name == accessCookie {
			cookie = c
		}
	}
	if cookie == nil || !cookie.Secure || !cookie.HttpOnly || cookie.Value == tok || strings.Contains(cookie.Value, tok) || len(cookie.Value) < 32 {
		t.Fatalf("cookie %+v", cookie)
	}
	if r := get("/", cookie); r.StatusCode != 200 {
		t.Errorf("session cookie: %d", r.StatusCode)
	}
	if r := get("/", &http.Cookie{Name: accessCookie, Value: tok}); r.StatusCode != http.StatusUnauthorized {
		t.Errorf("the token as a cookie: %d, want 401", r.StatusCode)
	}
	if s.Scheme() != "https" {
		t.Errorf("scheme %s", s.Scheme())
	}
}
