package config

import (
	"net/url"
	"strings"
	"time"
)

// ClusterConfig is the [cluster] section: where analysis work goes when it
// runs on a NATS JetStream cluster (`outpost worker` machines). Empty URL:
// everything runs in-process.
type ClusterConfig struct {
	URL       string        `toml:"url"`        // nats://host:4222[,nats://other:4222]; "" = no cluster
	CredsFile string        `toml:"creds_file"` // credentials: a .creds of outpost cluster init (nkey) or a NATS JWT .creds
	TLSCA     string        `toml:"tls_ca"`     // CA to verify the servers
	TLSCert   string        `toml:"tls_cert"`   // client certificate
	TLSKey    string        `toml:"tls_key"`    // its key
	AckWait   time.Duration `toml:"ack_wait"`   // chunk redelivered after this silence of its worker
	Replicas  int           `toml:"replicas"`   // servers keeping each stream (1; 3 on a three-node cluster)
}

// DefaultClusterAckWait is the default [cluster] ack_wait.
const DefaultClusterAckWait = 60 * time.Second

func (c *Config) checkCluster(ch *checker) {
	k := c.Cluster
	for _, u := range strings.Split(k.URL, ",") {
		u = strings.TrimSpace(u)
		if k.URL == "" {
			break
		}
		p, err := url.Parse(u)
		if err != nil || (p.Scheme != "nats" && p.Scheme != "tls") || p.Host == "" {
			ch.fail("cluster.url", k.URL, "not a NATS server URL", `nats://HOST:PORT (or tls://), several separated by commas; "" runs everything in-process`)
			break
		}
	}
	if (k.TLSCert == "") != (k.TLSKey == "") {
		ch.fail("cluster.tls_cert", k.TLSCert, "a client certificate needs both tls_cert and tls_key", "both files, or neither")
	}
	ch.durRange("cluster.ack_wait", k.AckWait, 5*time.Second, time.Hour)
	ch.intRange("cluster.replicas", k.Replicas, 1, 5, "servers")
}
