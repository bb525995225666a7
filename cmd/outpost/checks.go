package main

import (
	"flag"
	"fmt"
	"net/url"
	"sort"
	"strings"
)

// Checks of command lines shared by several commands: flags that would be
// silently ignored, and URLs that cannot work (docs/operations.md,
// "Bounds").

// refuseUnused refuses the flags of names that were given although
// because (another flag, e.g. "--lichess-evals") means they would not be
// used: a run must not look as if they had applied.
func refuseUnused(fs *flag.FlagSet, because, why string, names ...string) error {
	set := setFlags(fs)
	var given []string
	for _, n := range names {
		if set[n] {
			given = append(given, "--"+n)
		}
	}
	if len(given) == 0 {
		return nil
	}
	sort.Strings(given)
	return fmt.Errorf("%s with %s: %s, so %s would be ignored", strings.Join(given, ", "), because, why, strings.Join(given, ", "))
}

// checkServerURL accepts a Lichess server given by flag: an http(s) base
// URL with a host, without user:password (which would then show in error
// messages) or query. "" is the default.
func checkServerURL(flagName, server string) error {
	if server == "" {
		return nil
	}
	u, err := url.Parse(server)
	switch {
	case err != nil:
		return fmt.Errorf("%s %q: not a URL: %w", flagName, server, err)
	case u.Scheme != "http" && u.Scheme != "https" || u.Host == "":
		return fmt.Errorf("%s %q: want an http(s) base URL such as https://lichess.org", flagName, server)
	case u.User != nil:
		return fmt.Errorf("%s: no user name or password in the URL (the token comes from LICHESS_TOKEN or lichess.token_file)", flagName)
	case u.RawQuery != "" || u.Fragment != "":
		return fmt.Errorf("%s %q: a base URL has no query or fragment", flagName, server)
	}
	return nil
}

// checkClusterCreds refuses --creds and --tls-ca when no cluster is named
// (neither --cluster nor the config's cluster.url): they would be ignored
// and the work done in-process.
func checkClusterCreds(fs *flag.FlagSet, cl *clusterFlags, configURL string) error {
	if *cl.url != "" || configURL != "" {
		return nil
	}
	return refuseUnused(fs, "no cluster (neither --cluster nor [cluster] url)", "the work runs in this process", "creds", "tls-ca")
}

// Bounds of the other commands' numbers (docs/operations.md, "Bounds").
const (
	// maxRating bounds a Maia rating given by flag: Maia's levels are
	// 1100..1900 and a rating outside is played at the nearest level, but
	// one no player has (above 3500, or not positive) is a typo.
	maxRating = 3500
	// minRungElo and maxRungElo are the UCI_Elo range of Stockfish 16 and
	// later (15.1: 1350..2850); Stockfish ignores a value outside its range
	// without a word, so a rung outside would play at full strength.
	minRungElo, maxRungElo = 1320, 3190
	// maxReplicas is JetStream's largest stream replication.
	maxReplicas = 5
	// maxWorkerName bounds a worker id, a NATS subject token.
	maxWorkerName = 64
)

// checkRating refuses a rating flag that is given and not in 1..maxRating.
func checkRating(fs *flag.FlagSet, names ...string) error {
	set := setFlags(fs)
	for _, n := range names {
		if !set[n] {
			continue
		}
		v := fs.Lookup(n).Value.(flag.Getter).Get().(int)
		if v < 1 || v > maxRating {
			return fmt.Errorf("--%s %d: want a rating 1..%d (Maia plays 1100..1900; others use the nearest level)", n, v, maxRating)
		}
	}
	return nil
}

// checkWorkerName accepts a worker id that can be a NATS subject token:
// no space, control character, '.', '*' or '>' (heartbeats on
// outpost.status.ID failed later on "a b.c>"), at most maxWorkerName
// bytes. "" takes the default.
func checkWorkerName(name string) error {
	if name == "" {
		return nil
	}
	if len(name) > maxWorkerName || strings.ContainsFunc(name, func(r rune) bool { return r <= ' ' || r == 0x7f || r == '.' || r == '*' || r == '>' }) {
		return fmt.Errorf("--name %q: want at most %d characters without spaces, control characters, '.', '*' or '>' (it is a NATS subject token)", name, maxWorkerName)
	}
	return nil
}

// checkReplicas refuses more stream replicas than the cluster can have:
// one node without --cluster-addr, JetStream's maxReplicas with it.
func checkReplicas(replicas int, clusterAddr string) error {
	switch {
	case replicas < 0 || replicas > maxReplicas:
		return fmt.Errorf("--replicas %d: want 1..%d (JetStream's limit)", replicas, maxReplicas)
	case replicas > 1 && clusterAddr == "":
		return fmt.Errorf("--replicas %d on one node: a stream has at most as many replicas as the cluster has nodes; give --cluster-addr and --routes for a cluster, or --replicas 1", replicas)
	}
	return nil
}
