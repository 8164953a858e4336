package ginagui_test

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/gin-gonic/gin"

	"github.com/agui-go/agui"
	"github.com/agui-go/agui/aguitest"
	"github.com/agui-go/agui/core"
	"github.com/agui-go/agui/ginagui"
)

// BenchmarkServeFixture serves the standard fixture (1,018 events) over
// loopback to an http.Client reading the whole body, through Gin and
// ginagui ("gin"), and through a bare net/http handler that encodes the
// same events with json.Marshal and writes and flushes each ("bare", the
// floor), or flushes once at the end ("bare-oneflush": no streaming, the
// lowest possible cost). events/s gives the transport's ratio to each;
// cpu-ns/event (client and server together) is steadier on a shared
// machine.
func BenchmarkServeFixture(b *testing.B) {
	fixture := aguitest.StandardFixture()
	body := `{"threadId":"` + aguitest.FixtureThreadID + `","runId":"` + aguitest.FixtureRunID +
		`","protocolVersion":"1.0","messages":[]}`

	// The agent emits everything between the runner's own RUN_STARTED and
	// RUN_FINISHED. Iterations run one after another, so sharing the
	// events between runs is safe.
	agent := core.AgentFunc[core.NoState](func(ctx context.Context, rc *core.RunContext[core.NoState]) (agui.Outcome, error) {
		for _, ev := range fixture[1 : len(fixture)-1] {
			if err := rc.Emit(ev); err != nil {
				return agui.Outcome{}, err
			}
		}
		return agui.Success(), nil
	})
	r := gin.New()
	if err := ginagui.Register(r, "/agent", agent,
		core.WithHandlerLogger(discardLogger())); err != nil {
		b.Fatal(err)
	}

	floor := floorEvents(fixture)
	bare := func(flushEach bool) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
			var in struct{ ThreadID, RunID string }
			if err := json.NewDecoder(req.Body).Decode(&in); err != nil {
				http.Error(w, err.Error(), http.StatusBadRequest)
				return
			}
			w.Header().Set("Content-Type", "text/event-stream")
			w.Header().Set("Cache-Control", "no-cache")
			flusher := w.(http.Flusher)
			buf := make([]byte, 0, 16<<10)
			for _, ev := range floor {
				data, err := json.Marshal(ev)
				if err != nil {
					return
				}
				buf = append(append(append(buf[:0], "data: "...), data...), '\n', '\n')
				if _, err := w.Write(buf); err != nil {
					return
				}
				if flushEach {
					flusher.Flush()
				}
			}
			flusher.Flush()
		})
	}

	for _, bc := range []struct {
		name string
		h    http.Handler
		path string
	}{{"gin", r, "/agent"}, {"bare", bare(true), "/"}, {"bare-oneflush", bare(false), "/"}} {
		b.Run(bc.name, func(b *testing.B) {
			srv := httptest.NewServer(bc.h)
			defer srv.Close()
			client := srv.Client()
			defer client.CloseIdleConnections()
			var n int64
			cpu := cpuTime()
			for b.Loop() {
				req, _ := http.NewRequest(http.MethodPost, srv.URL+bc.path, strings.NewReader(body))
				req.Header.Set("Content-Type", "application/json")
				resp, err := client.Do(req)
				if err != nil {
					b.Fatal(err)
				}
				n, err = io.Copy(io.Discard, resp.Body)
				resp.Body.Close()
				if err != nil || resp.StatusCode != http.StatusOK {
					b.Fatalf("status %d, %v", resp.StatusCode, err)
				}
			}
			b.SetBytes(n)
			events := float64(b.N) * aguitest.FixtureEvents
			b.ReportMetric(events/b.Elapsed().Seconds(), "events/s")
			// Client and server share the process, in every variant.
			b.ReportMetric(float64(cpuTime()-cpu)/events, "cpu-ns/event")
		})
	}
}

// floorEvent is a plain struct covering every field of the fixture, as a
// handler using encoding/json directly would write it.
type floorEvent struct {
	Type         string         `json:"type"`
	Timestamp    int64          `json:"timestamp,omitempty"`
	ThreadID     string         `json:"threadId,omitempty"`
	RunID        string         `json:"runId,omitempty"`
	MessageID    string         `json:"messageId,omitempty"`
	Role         string         `json:"role,omitempty"`
	Delta        string         `json:"delta,omitempty"`
	ToolCallID   string         `json:"toolCallId,omitempty"`
	ToolCallName string         `json:"toolCallName,omitempty"`
	Content      string         `json:"content,omitempty"`
	Snapshot     any            `json:"snapshot,omitempty"`
	Outcome      map[string]any `json:"outcome,omitempty"`
}

func floorEvents(fixture []agui.Event) []floorEvent {
	out := make([]floorEvent, len(fixture))
	for i, ev := range fixture {
		f := floorEvent{Type: string(ev.Type()), Timestamp: agui.BaseOf(ev).Timestamp}
		switch e := ev.(type) {
		case *agui.RunStarted:
			f.ThreadID, f.RunID = e.ThreadID, e.RunID
		case *agui.RunFinished:
			f.ThreadID, f.RunID, f.Outcome = e.ThreadID, e.RunID, map[string]any{"type": "success"}
		case *agui.TextMessageStart:
			f.MessageID, f.Role = e.MessageID, string(e.Role)
		case *agui.TextMessageContent:
			f.MessageID, f.Delta = e.MessageID, e.Delta
		case *agui.TextMessageEnd:
			f.MessageID = e.MessageID
		case *agui.ToolCallStart:
			f.ToolCallID, f.ToolCallName = e.ToolCallID, e.ToolCallName
		case *agui.ToolCallArgs:
			f.ToolCallID, f.Delta = e.ToolCallID, e.Delta
		case *agui.ToolCallEnd:
			f.ToolCallID = e.ToolCallID
		case *agui.ToolCallResult:
			f.MessageID, f.ToolCallID, f.Content, f.Role = e.MessageID, e.ToolCallID, e.Content.Text, string(e.Role)
		case *agui.StateSnapshot:
			f.Snapshot = e.Snapshot
		}
		out[i] = f
	}
	return out
}
