package client_test

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/agui-go/agui"
	"github.com/agui-go/agui/client"
)

// BenchmarkRun measures the client's cost per event: a run of 1,000 text
// deltas read over a local HTTP connection, decoded, checked for unknown
// keys, verified and reduced.
func BenchmarkRun(b *testing.B) {
	const deltas = 1000
	var body strings.Builder
	body.WriteString("data: {\"type\":\"RUN_STARTED\",\"threadId\":\"t\",\"runId\":\"r\"}\n\n")
	body.WriteString("data: {\"type\":\"TEXT_MESSAGE_START\",\"messageId\":\"m\",\"role\":\"assistant\"}\n\n")
	for i := range deltas {
		fmt.Fprintf(&body, "data: {\"type\":\"TEXT_MESSAGE_CONTENT\",\"messageId\":\"m\",\"delta\":\"word %d \"}\n\n", i)
	}
	body.WriteString("data: {\"type\":\"TEXT_MESSAGE_END\",\"messageId\":\"m\"}\n\n")
	body.WriteString("data: {\"type\":\"RUN_FINISHED\",\"threadId\":\"t\",\"runId\":\"r\"}\n\n")
	frames := body.String()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", agui.SSEContentType)
		_, _ = w.Write([]byte(frames))
	}))
	defer srv.Close()
	agent, err := client.New(srv.URL)
	if err != nil {
		b.Fatal(err)
	}
	in := agui.NewInput("t", "r")
	b.ReportAllocs()
	for b.Loop() {
		if _, err := agent.Run(b.Context(), in); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*(deltas+4)), "ns/event")
}
