package redistest

import (
	"context"
	"os/exec"
	"strings"
	"testing"
	"time"
)

// Cluster is a Redis Cluster of real redis-server processes on loopback,
// every one a master holding a share of the 16,384 slots. Its methods
// are safe for concurrent use.
type Cluster struct {
	Servers []*Server
}

// StartCluster starts n (at least 3) cluster-enabled servers for t, joins
// them with redis-cli --cluster create (which returns once the cluster
// has formed) and stops them when t ends. It skips or fails t like Binary
// when redis-server or redis-cli is missing.
func StartCluster(t testing.TB, n int) *Cluster {
	t.Helper()
	if n < 3 {
		t.Fatalf("redistest: a cluster needs at least 3 masters, not %d", n)
	}
	Binary(t)
	cli, err := exec.LookPath("redis-cli")
	if err != nil {
		t.Fatal("redistest: redis-server is installed but redis-cli is not: it creates the cluster")
	}
	c := &Cluster{}
	args := []string{"create"}
	for range n {
		s := Start(t, func(c *config) {
			c.args = []string{"--cluster-enabled", "yes", "--cluster-config-file", "nodes.conf", "--cluster-node-timeout", "5000"}
		})
		c.Servers = append(c.Servers, s)
		args = append(args, s.Addr())
	}
	args = append([]string{"--cluster"}, append(args, "--cluster-replicas", "0", "--cluster-yes")...)
	if out, err := exec.CommandContext(t.Context(), cli, args...).CombinedOutput(); err != nil {
		t.Fatalf("redis-cli --cluster create: %v\n%s", err, out)
	}
	// Each node turns its cluster_state to ok on its own cron, shortly
	// after the join: ask every node until all say so. Redis offers no
	// way to wait for it, so this polls an external process's readiness,
	// as redis-cli does, within a bound.
	ctx, cancel := context.WithTimeout(t.Context(), 30*time.Second)
	defer cancel()
	tick := time.NewTicker(10 * time.Millisecond)
	defer tick.Stop()
	for _, s := range c.Servers {
		for !s.clusterOK() {
			select {
			case <-tick.C:
			case <-ctx.Done():
				t.Fatalf("redistest: %s never reported cluster_state:ok", s.Addr())
			}
		}
	}
	return c
}

// clusterOK reports whether the server says cluster_state:ok.
func (s *Server) clusterOK() bool {
	line, err := s.command("CLUSTER INFO")
	return err == nil && strings.TrimSpace(line) == "cluster_state:ok"
}

// Addrs returns the servers' host:port addresses.
func (c *Cluster) Addrs() []string {
	out := make([]string, len(c.Servers))
	for i, s := range c.Servers {
		out[i] = s.Addr()
	}
	return out
}
