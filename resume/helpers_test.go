package resume_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/agui-go/agui/core"
	"github.com/agui-go/agui/resume"
)

func newServer(t *testing.T, h http.Handler) *httptest.Server {
	t.Helper()
	srv := httptest.NewServer(h)
	t.Cleanup(func() {
		srv.Close()
		http.DefaultClient.CloseIdleConnections()
	})
	return srv
}

func mustHandler[S any](t *testing.T, a core.Agent[S], opts ...core.HandlerOption) *core.Handler[S] {
	t.Helper()
	h, err := core.NewHandler(a, opts...)
	if err != nil {
		t.Fatal(err)
	}
	return h
}

// newPost returns a run request for a handler called directly.
func newPost(body string) *http.Request {
	req := httptest.NewRequest(http.MethodPost, "/agents/x", strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "text/event-stream")
	return req
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

// splitOptions splits a test's list of handler and resume options.
func splitOptions(opts []any) (hopts []core.HandlerOption, ropts []resume.Option) {
	for _, o := range opts {
		switch o := o.(type) {
		case core.HandlerOption:
			hopts = append(hopts, o)
		case resume.Option:
			ropts = append(ropts, o)
		default:
			panic("resume_test: not an option")
		}
	}
	return hopts, ropts
}

// refusals collects what a refusal hook receives.
type refusals struct {
	mu   sync.Mutex
	list []core.Refusal
}

func (r *refusals) hook(_ context.Context, rf core.Refusal) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.list = append(r.list, rf)
}

func (r *refusals) all() []core.Refusal {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]core.Refusal(nil), r.list...)
}
