package loop

import (
	"bytes"
	"context"
	"fmt"
	"iter"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/agui-go/agui/core"
)

// BenchmarkExecuteParallelTools measures one run of two turns: ten
// parallel tool calls, then an answer, with events discarded.
func BenchmarkExecuteParallelTools(b *testing.B) {
	ids := make([]string, 10)
	for i := range ids {
		ids[i] = fmt.Sprintf("c%d", i)
	}
	a, err := New(Script(Turn{Text: "working on it", Calls: echoCalls(ids...)}, Turn{Text: "done"}), WithTools(echoTool(b)), WithToolConcurrency(4))
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		res, err := a.Execute(b.Context(), user("go"))
		if err != nil || res.FinishReason != FinishStop {
			b.Fatal(res.FinishReason, err)
		}
	}
}

// BenchmarkTurnDeltas measures the loop's cost per text delta of a model
// turn served by core's handler: the provider's goroutine hands each
// delta to the loop, which emits it; the transport verifies, queues,
// encodes and writes it. core's BenchmarkHandlerDeltas is the same path
// without the loop, the floor of this one. The ResponseWriter keeps only
// the last bytes it was given, so the network is not measured.
func BenchmarkTurnDeltas(b *testing.B) {
	n := b.N
	p := ProviderFunc(func(ctx context.Context, req ModelRequest) iter.Seq2[Delta, error] {
		return func(yield func(Delta, error) bool) {
			for range n {
				if !yield(Delta{Text: "token "}, nil) {
					return
				}
			}
		}
	})
	a, err := New(p)
	if err != nil {
		b.Fatal(err)
	}
	h, err := core.NewHandler(a, core.WithHandlerLogger(slog.New(slog.DiscardHandler)))
	if err != nil {
		b.Fatal(err)
	}
	req := httptest.NewRequest(http.MethodPost, "/", strings.NewReader(`{"threadId":"t","runId":"r","messages":[{"id":"u","role":"user","content":"go"}]}`))
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
