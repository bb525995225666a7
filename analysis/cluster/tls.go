package cluster

import (
	"bytes"
	"crypto/tls"
	"crypto/x509"
	"encoding/pem"
	"errors"
	"fmt"
	"os"
)

// serverTLS is a server's TLS configuration from its certificate and key;
// with ca (the routes between nodes) the peer must show a certificate
// signed by ca, and the server checks the peer's the same way when it
// dials.
func serverTLS(certFile, keyFile, ca string) (*tls.Config, error) {
	if certFile == "" || keyFile == "" {
		return nil, fmt.Errorf("cluster: serve: TLS needs both --tls-cert and --tls-key")
	}
	cert, err := tls.LoadX509KeyPair(certFile, keyFile)
	if err != nil {
		return nil, fmt.Errorf("cluster: serve: --tls-cert %s / --tls-key %s: %w", certFile, keyFile, err)
	}
	c := &tls.Config{Certificates: []tls.Certificate{cert}, MinVersion: tls.VersionTLS12}
	if ca != "" {
		pool, err := loadCA(ca)
		if err != nil {
			return nil, err
		}
		c.RootCAs, c.ClientCAs, c.ClientAuth = pool, pool, tls.RequireAndVerifyClientCert
	}
	return c, nil
}

// loadCA reads a PEM file of CA certificates.
func loadCA(path string) (*x509.CertPool, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("cluster: --tls-ca: %w", err)
	}
	pool := x509.NewCertPool()
	if !pool.AppendCertsFromPEM(b) {
		return nil, fmt.Errorf("cluster: --tls-ca %s: no PEM certificate in it", path)
	}
	return pool, nil
}

// pinnedTLS is a client TLS configuration that accepts exactly the
// certificate in certFile (the server's own connection to itself, whose
// certificate may name no host it can dial).
func pinnedTLS(certFile string) (*tls.Config, error) {
	b, err := os.ReadFile(certFile)
	if err != nil {
		return nil, fmt.Errorf("cluster: --tls-cert: %w", err)
	}
	leaf := firstCert(b)
	if leaf == nil {
		return nil, fmt.Errorf("cluster: --tls-cert %s: no certificate in it", certFile)
	}
	return &tls.Config{
		MinVersion: tls.VersionTLS12,
		// the chain is not checked against CAs: the certificate itself is
		// compared, byte for byte, below
		InsecureSkipVerify: true,
		VerifyPeerCertificate: func(raw [][]byte, _ [][]*x509.Certificate) error {
			if len(raw) == 0 || !bytes.Equal(raw[0], leaf) {
				return errors.New("cluster: not the server's own certificate")
			}
			return nil
		},
	}, nil
}

// firstCert is the DER of the first certificate in a PEM file.
func firstCert(b []byte) []byte {
	for {
		var blk *pem.Block
		blk, b = pem.Decode(b)
		if blk == nil {
			return nil
		}
		if blk.Type == "CERTIFICATE" {
			return blk.Bytes
		}
	}
}
