package conformance_test

import (
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/gin-gonic/gin"

	"github.com/agui-go/agui"
	"github.com/agui-go/agui/core"
	"github.com/agui-go/agui/ginagui"
	"github.com/agui-go/agui/internal/nodetest"
)

// TestHeartbeatsIgnoredByOfficialClient serves an agent that goes quiet
// mid-message for longer than the heartbeat interval, so the stream
// carries ": ping" comments between events; the official client must run
// it without a warning and rebuild the message whole.
func TestHeartbeatsIgnoredByOfficialClient(t *testing.T) {
	node := nodetest.Node(t, ".")
	quiet := core.AgentFunc[core.NoState](func(ctx context.Context, rc *core.RunContext[core.NoState]) (agui.Outcome, error) {
		m, err := rc.Message()
		if err != nil {
			return agui.Outcome{}, err
		}
		if err := m.Delta("before "); err != nil {
			return agui.Outcome{}, err
		}
		// Thinking: fifty heartbeat intervals of silence, so that even a
		// loaded CI machine, whose timers fire late, sends a few pings.
		select {
		case <-time.After(time.Second):
		case <-ctx.Done():
			return agui.Outcome{}, ctx.Err()
		}
		if err := m.Delta("after"); err != nil {
			return agui.Outcome{}, err
		}
		return agui.Success(), m.End()
	})
	gin.SetMode(gin.ReleaseMode)
	r := gin.New()
	if err := ginagui.Register(r, "/quiet", quiet,
		core.WithHeartbeat(20*time.Millisecond),
		core.WithHandlerLogger(slog.New(slog.DiscardHandler)),
	); err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(r)
	defer srv.Close()
	defer srv.Client().CloseIdleConnections()

	// The raw stream does carry heartbeats.
	req, err := http.NewRequestWithContext(t.Context(), http.MethodPost, srv.URL+"/quiet",
		strings.NewReader(`{"threadId":"t","runId":"r","protocolVersion":"1.0","messages":[]}`))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	res, err := srv.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	raw, err := io.ReadAll(res.Body)
	res.Body.Close()
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(string(raw), agui.SSEHeartbeat); n < 2 {
		t.Fatalf("%d heartbeats in the stream, want several:\n%s", n, raw)
	}

	out, err := exec.CommandContext(t.Context(), node, "heartbeat.mjs", srv.URL+"/quiet").Output()
	if err != nil {
		t.Fatalf("node heartbeat.mjs: %v\n%s", err, out)
	}
	var got struct {
		Problem  *string
		Types    []string
		Messages []struct{ Role, Content string }
	}
	if err := json.Unmarshal(out, &got); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	if got.Problem != nil {
		t.Fatalf("the official client complained: %s", *got.Problem)
	}
	if n := len(got.Messages); n != 2 || got.Messages[1].Content != "before after" {
		t.Errorf("the client rebuilt %+v, want the user message and \"before after\"", got.Messages)
	}
	if got.Types[len(got.Types)-1] != "RUN_FINISHED" {
		t.Errorf("events %v", got.Types)
	}
}
