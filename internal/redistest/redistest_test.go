package redistest

import (
	"strings"
	"testing"
)

// do sends one inline command and returns the first line of the reply.
func do(t *testing.T, s *Server, cmd string) (string, error) {
	t.Helper()
	line, err := s.command(cmd)
	return strings.TrimSpace(line), err
}

func TestStartStop(t *testing.T) {
	s := Start(t)
	if s.Pid() == 0 || !strings.HasPrefix(s.URL(), "redis://127.0.0.1:") {
		t.Fatalf("pid %d url %s", s.Pid(), s.URL())
	}
	if got, err := do(t, s, "SET k v"); err != nil || got != "+OK" {
		t.Fatalf("SET: %q %v", got, err)
	}
	s.Stop()
	if s.Pid() != 0 {
		t.Fatal("pid after stop")
	}
	if _, err := do(t, s, "PING"); err == nil {
		t.Fatal("stopped server answers")
	}
	s.Stop() // twice is fine
}

// Without persistence a restart loses everything; with the append-only
// file (appendfsync always) even SIGKILL loses nothing acknowledged.
func TestRestartPersistence(t *testing.T) {
	for _, aof := range []bool{false, true} {
		var opts []Option
		if aof {
			opts = append(opts, AppendOnly())
		}
		s := Start(t, opts...)
		if got, err := do(t, s, "SET k v"); err != nil || got != "+OK" {
			t.Fatalf("SET: %q %v", got, err)
		}
		s.Kill()
		s.Restart()
		got, err := do(t, s, "GET k")
		if err != nil {
			t.Fatal(err)
		}
		if want := map[bool]string{false: "$-1", true: "v"}[aof]; got != want {
			t.Fatalf("appendonly %v: GET after SIGKILL and restart = %q, want %q", aof, got, want)
		}
	}
}

func TestCluster(t *testing.T) {
	c := StartCluster(t, 3)
	if len(c.Addrs()) != 3 {
		t.Fatalf("addrs %v", c.Addrs())
	}
	got, err := do(t, c.Servers[0], "CLUSTER INFO")
	if err != nil || !strings.Contains(got, "cluster_state:ok") {
		t.Fatalf("CLUSTER INFO: %q %v", got, err)
	}
}
