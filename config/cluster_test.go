package config

import (
	"testing"
	"time"
)

func TestClusterValidation(t *testing.T) {
	bad := []refusal{
		{"scheme", "[cluster]\nurl = \"http://host:4222\"", "cluster.url", "nats://HOST:PORT"},
		{"no host", "[cluster]\nurl = \"nats://\"", "cluster.url", "nats://HOST:PORT"},
		{"second url", "[cluster]\nurl = \"nats://a:4222,ftp://b\"", "cluster.url", "NATS server URL"},
		{"cert without key", "[cluster]\nurl = \"tls://a:4222\"\ntls_cert = \"c.pem\"", "cluster.tls_cert", "both"},
		{"ack wait", "[cluster]\nack_wait = \"1s\"", "cluster.ack_wait", "5s..1h"},
		{"replicas", "[cluster]\nreplicas = 0", "cluster.replicas", "1..5"},
	}
	checkRefusals(t, bad, nil)
	cfg, err := Parse([]byte("[cluster]\nurl = \"nats://10.0.0.1:4222, tls://10.0.0.2:4222\"\ntls_cert = \"c\"\ntls_key = \"k\"\nack_wait = \"2m\""), "ok")
	if err != nil {
		t.Fatal(err)
	}
	if cfg.Cluster.AckWait != 2*time.Minute || cfg.Cluster.TLSKey != "k" {
		t.Errorf("decoded %+v", cfg.Cluster)
	}
	if d := Default().Cluster; d.URL != "" || d.AckWait != DefaultClusterAckWait {
		t.Errorf("default %+v: want no cluster, ack wait %s", d, DefaultClusterAckWait)
	}
}
