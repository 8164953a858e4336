package core

import (
	"bytes"
	"context"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/agui-go/agui"
)

// BenchmarkHandlerDeltas measures the transport's cost per
// TEXT_MESSAGE_CONTENT emitted through a MessageHandle: verify, queue, hand
// over to the handler's goroutine, encode, write. The ResponseWriter keeps
// only the last bytes it was given, so the network is not measured.
func BenchmarkHandlerDeltas(b *testing.B) {
	n := b.N
	agent := AgentFunc[NoState](func(ctx context.Context, rc *RunContext[NoState]) (agui.Outcome, error) {
		m, err := rc.Message()
		if err != nil {
			return agui.Outcome{}, err
		}
		for range n {
			if err := m.Delta("token "); err != nil {
				return agui.Outcome{}, err
			}
		}
		return agui.Success(), m.End()
	})
	h, err := NewHandler(agent, WithHandlerLogger(slog.New(slog.DiscardHandler)))
	if err != nil {
		b.Fatal(err)
	}
	req := httptest.NewRequest(http.MethodPost, "/", strings.NewReader(`{"threadId":"t","runId":"r","messages":[]}`))
	req.Header.Set("Content-Type", "application/json")
	w := &tailWriter{header: http.Header{}}
	b.ReportAllocs()
	b.ResetTimer()
	h.ServeHTTP(w, req)
	b.StopTimer()
	if !bytes.Contains(w.tail, []byte(`"RUN_FINISHED"`)) {
		b.Fatalf("the stream ends %q, not with RUN_FINISHED", w.tail)
	}
}

// tailWriter is a flushing ResponseWriter that keeps the last Write only.
type tailWriter struct {
	header http.Header
	tail   []byte
}

func (w *tailWriter) Header() http.Header { return w.header }
func (w *tailWriter) WriteHeader(int)     {}
func (w *tailWriter) Flush()              {}
func (w *tailWriter) Write(p []byte) (int, error) {
	w.tail = append(w.tail[:0], p...)
	return len(p), nil
}
