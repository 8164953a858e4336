package core

import (
	"bytes"
	"context"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/agui-go/agui"
	"github.com/agui-go/agui/internal/threadfixture"
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

// BenchmarkHandlerShortRun measures a short run, the most common request:
// a 10-message thread of about 300 bytes a message in, RUN_STARTED, a text
// message of three deltas and RUN_FINISHED out, through ServeHTTP. Its
// allocations per run are the handler's fixed cost (the decoded input's
// included); the network is not measured.
func BenchmarkHandlerShortRun(b *testing.B) {
	agent := AgentFunc[NoState](func(ctx context.Context, rc *RunContext[NoState]) (agui.Outcome, error) {
		m, err := rc.Message()
		if err != nil {
			return agui.Outcome{}, err
		}
		for _, d := range [...]string{"Here is ", "the answer ", "you asked for."} {
			if err := m.Delta(d); err != nil {
				return agui.Outcome{}, err
			}
		}
		return agui.Success(), m.End()
	})
	h, err := NewHandler(agent, WithHandlerLogger(slog.New(slog.DiscardHandler)))
	if err != nil {
		b.Fatal(err)
	}
	body := []byte(`{"threadId":"t","runId":"r","protocolVersion":"1.0","state":{},"messages":` +
		string(threadfixture.Messages(10)) + `,"tools":[],"context":[],"forwardedProps":{}}`)
	rd := bytes.NewReader(body)
	req := httptest.NewRequest(http.MethodPost, "/", rd)
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "text/event-stream")
	w := &deadlineWriter{tailWriter{header: http.Header{}}}
	b.ReportAllocs()
	for b.Loop() {
		rd.Reset(body)
		h.ServeHTTP(w, req)
	}
	if !bytes.Contains(w.tail, []byte(`"RUN_FINISHED"`)) {
		b.Fatalf("the stream ends %q, not with RUN_FINISHED", w.tail)
	}
}

// deadlineWriter is a tailWriter that takes deadlines, as net/http's
// ResponseWriter does: without them every deadline the handler sets
// would cost an error's allocation that a server never sees.
type deadlineWriter struct{ tailWriter }

func (*deadlineWriter) SetReadDeadline(time.Time) error  { return nil }
func (*deadlineWriter) SetWriteDeadline(time.Time) error { return nil }
