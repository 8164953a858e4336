package e2e_test

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/agui-go/agui"
	"github.com/agui-go/agui/bench/e2e"
	"github.com/agui-go/agui/internal/threadfixture"
)

// TestThreadSweepShort is the short mode of the thread-length sweep: every
// server answers threads of 10 and 1,000 messages with complete streams.
func TestThreadSweepShort(t *testing.T) {
	for _, servers := range [][]string{{e2e.ServerGin, e2e.ServerNetHTTP, e2e.ServerCommunity}, {e2e.ServerNode}} {
		t.Run(strings.Join(servers, ","), func(t *testing.T) {
			if servers[0] == e2e.ServerNode {
				needNode(t)
			}
			var rows []e2e.Row
			for _, n := range []int{10, 1000} {
				got, err := e2e.Compare{Servers: servers, Duration: 30 * time.Millisecond, Launch: launcher(1),
					Path: e2e.PathThread, Events: e2e.ThreadEvents, Messages: n}.Run(t.Context())
				if err != nil {
					t.Fatal(err)
				}
				rows = append(rows, got...)
			}
			for _, r := range rows {
				if r.Streams == 0 || r.Failures != 0 || r.Events != int64(r.Streams)*e2e.ThreadEvents {
					t.Errorf("%s, %d messages: %d streams, %d failures %q, %d events", r.Server, r.Messages, r.Streams, r.Failures, r.Errors, r.Events)
				}
			}
			var md bytes.Buffer
			e2e.WriteThreads(&md, rows)
			for _, s := range servers {
				if !strings.Contains(md.String(), "| 1,000 | 1 | "+s+" | ") {
					t.Errorf("no 1,000-message row for %s in\n%s", s, md.String())
				}
			}
		})
	}
}

// TestThreadMessagesDecode checks the sweep's thread (threadfixture.Messages): n messages our
// decoder reads, in the four roles, about 300 bytes each.
func TestThreadMessagesDecode(t *testing.T) {
	raw := threadfixture.Messages(100)
	var msgs []json.RawMessage
	if err := json.Unmarshal(raw, &msgs); err != nil {
		t.Fatal(err)
	}
	if len(msgs) != 100 {
		t.Fatalf("%d messages", len(msgs))
	}
	roles := map[string]int{}
	for _, m := range msgs {
		d, err := agui.DecodeMessage(m)
		if err != nil {
			t.Fatal(err)
		}
		roles[string(d.Role())]++
	}
	if roles["user"] != 25 || roles["assistant"] != 50 || roles["tool"] != 25 {
		t.Errorf("roles %v", roles)
	}
	if per := len(raw) / 100; per < 250 || per > 350 {
		t.Errorf("%d bytes per message", per)
	}
}
