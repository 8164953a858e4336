// Package faults_test puts the HTTP transport (core.Handler served by
// ginagui) through the faults a production server meets: clients that
// disconnect at random points, a client that never reads, a panicking
// agent, and malformed, oversized, wrongly typed and truncated requests.
// The decoders and the verifier are fuzzed in package agui, the request
// surface in test/inputfuzz (a package without Gin, for fast fuzzing).
package faults_test

import (
	"bytes"
	"log/slog"
	"net/http"
	"testing"

	"github.com/gin-gonic/gin"

	"github.com/agui-go/agui/core"
)

func init() { gin.SetMode(gin.ReleaseMode) }

// quiet keeps the per-run log lines out of the test output.
func quiet(opts ...core.HandlerOption) []core.HandlerOption {
	return append([]core.HandlerOption{core.WithHandlerLogger(slog.New(slog.DiscardHandler))}, opts...)
}

// runBody is a valid 1.0 RunAgentInput for run id id.
func runBody(id string) []byte {
	return []byte(`{"threadId":"t-` + id + `","runId":"` + id + `","protocolVersion":"1.0","state":{},` +
		`"messages":[{"id":"u1","role":"user","content":"hello"}],"tools":[],"context":[],"forwardedProps":{}}`)
}

func post(t *testing.T, c *http.Client, url string, body []byte) *http.Response {
	t.Helper()
	req, err := http.NewRequestWithContext(t.Context(), http.MethodPost, url, bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "text/event-stream")
	res, err := c.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	return res
}
