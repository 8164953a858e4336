package resume_test

import (
	"bytes"
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/agui-go/agui"
	"github.com/agui-go/agui/core"
	"github.com/agui-go/agui/resume"
)

// memWriter is a ResponseWriter for handlers driven in a synctest bubble,
// where no real network is allowed.
type memWriter struct {
	mu     sync.Mutex
	header http.Header
	status int
	body   bytes.Buffer
}

func newMemWriter() *memWriter { return &memWriter{header: http.Header{}} }

func (w *memWriter) Header() http.Header { return w.header }
func (w *memWriter) WriteHeader(s int) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.status == 0 {
		w.status = s
	}
}
func (w *memWriter) Write(p []byte) (int, error) {
	w.WriteHeader(http.StatusOK)
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.body.Write(p)
}
func (w *memWriter) Flush() {}
func (w *memWriter) String() string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.body.String()
}

// serveIn calls serve on a goroutine with a request whose context the
// returned cancel ends; done is closed when serve has returned.
func serveIn(method, target, body string, serve func(http.ResponseWriter, *http.Request)) (w *memWriter, cancel context.CancelFunc, done chan struct{}) {
	ctx, cancel := context.WithCancel(context.Background())
	r := httptest.NewRequestWithContext(ctx, method, target, strings.NewReader(body))
	if body != "" {
		r.Header.Set("Content-Type", "application/json")
	}
	w = newMemWriter()
	done = make(chan struct{})
	go func() {
		defer close(done)
		serve(w, r)
	}()
	return w, cancel, done
}

func lastEvent(t *testing.T, lg resume.Log, run string) agui.Event {
	t.Helper()
	st, err := lg.Status(context.Background(), run)
	if err != nil {
		t.Fatal(err)
	}
	es, _, err := lg.Read(context.Background(), run, st.Last-1, 1, 0)
	if err != nil || len(es) != 1 {
		t.Fatalf("reading the last entry: %v", err)
	}
	ev, err := agui.DecodeEvent(es[0].Data)
	if err != nil {
		t.Fatal(err)
	}
	return ev
}

func newResumable(t *testing.T, a core.Agent[core.NoState], lg resume.Log, opts ...any) *resume.Handler[core.NoState] {
	t.Helper()
	hopts, ropts := splitOptions(opts)
	rh, err := resume.New(mustHandler(t, a, hopts...), lg, ropts...)
	if err != nil {
		t.Fatal(err)
	}
	return rh
}

func TestResumableGraceThenCancelAndForget(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		lg := mustMemoryLog(t, resume.WithMemoryRetention(time.Minute))
		rh := newResumable(t, blockAgent(nil), lg, resume.WithDetach(10*time.Second))
		_, cancel, done := serveIn(http.MethodPost, "/chat", runRequest("t", "r"), rh.ServeHTTP)
		synctest.Wait()
		cancel() // the client goes away and never comes back
		<-done
		time.Sleep(9 * time.Second)
		synctest.Wait()
		if st, _ := lg.Status(context.Background(), "r"); st.Sealed {
			t.Fatal("the run ended within its grace period")
		}
		// A rejoin within the grace period resets it.
		w, cancel2, done2 := serveIn(http.MethodGet, "/chat/runs/r?after=1", "", func(w http.ResponseWriter, r *http.Request) {
			rh.Rejoin(w, r, "r")
		})
		time.Sleep(time.Minute)
		synctest.Wait()
		if st, _ := lg.Status(context.Background(), "r"); st.Sealed || !strings.Contains(w.String(), "id: 2\n") {
			t.Fatalf("a watched run ended or the rejoin got nothing: %q", w.String())
		}
		cancel2()
		<-done2
		time.Sleep(10 * time.Second)
		synctest.Wait()
		re, ok := lastEvent(t, lg, "r").(*agui.RunError)
		if !ok || re.Code != string(agui.CodeDisconnected) {
			t.Fatalf("abandoned run ended with %#v", re)
		}
		// Nobody ever comes back: after the retention time nothing is left.
		time.Sleep(time.Minute)
		synctest.Wait()
		if s := lg.Stats(); s != (resume.MemoryStats{}) {
			t.Fatalf("memory still held: %+v", s)
		}
		if err := rh.Close(context.Background()); err != nil {
			t.Fatal(err)
		}
	})
}

// TestResumableRefusedRejoinKeepsGrace: a rejoin refused for its principal
// (403) or its credentials (401) does not count as a viewer coming back,
// so the detached run still ends when its grace period, counted from its
// owner's leaving, runs out.
func TestResumableRefusedRejoinKeepsGrace(t *testing.T) {
	for _, user := range []string{"bob", "bad"} {
		t.Run(user, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				lg := mustMemoryLog(t)
				rh, err := resume.New(mustHandler(t, blockAgent(nil), core.WithPrincipal(xUser)), lg, resume.WithDetach(10*time.Second))
				if err != nil {
					t.Fatal(err)
				}
				serveAs := func(method, target, body, user string, serve func(http.ResponseWriter, *http.Request)) (*memWriter, context.CancelFunc, chan struct{}) {
					return serveIn(method, target, body, func(w http.ResponseWriter, r *http.Request) {
						r.Header.Set("X-User", user)
						serve(w, r)
					})
				}
				_, cancel, done := serveAs(http.MethodPost, "/chat", runRequest("t", "r"), "alice", rh.ServeHTTP)
				synctest.Wait()
				cancel() // alice goes away
				<-done
				time.Sleep(9 * time.Second)
				synctest.Wait()
				w, _, rdone := serveAs(http.MethodGet, "/chat/runs/r?after=1", "", user, func(w http.ResponseWriter, r *http.Request) {
					rh.Rejoin(w, r, "r")
				})
				<-rdone
				if w.status != http.StatusForbidden && w.status != http.StatusUnauthorized {
					t.Fatalf("%s's rejoin: %d", user, w.status)
				}
				time.Sleep(time.Second + time.Millisecond)
				synctest.Wait()
				if st, _ := lg.Status(context.Background(), "r"); !st.Sealed {
					t.Fatal("the refused rejoin extended the grace period")
				}
				if re, ok := lastEvent(t, lg, "r").(*agui.RunError); !ok || re.Code != string(agui.CodeDisconnected) {
					t.Fatalf("abandoned run ended with %#v", re)
				}
				if err := rh.Close(context.Background()); err != nil {
					t.Fatal(err)
				}
			})
		})
	}
}

func TestResumableStopFromAnotherReplica(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		lg := mustMemoryLog(t)
		opts := []any{resume.WithDetach(time.Minute), resume.WithLeaseTTL(3 * time.Second)}
		a := newResumable(t, blockAgent(nil), lg, append(opts, resume.WithReplicaID("a"))...)
		b := newResumable(t, blockAgent(nil), lg, append(opts, resume.WithReplicaID("b"))...)
		w, _, done := serveIn(http.MethodPost, "/chat", runRequest("t", "r"), a.ServeHTTP)
		synctest.Wait()
		start := time.Now()
		sw, _, sdone := serveIn(http.MethodDelete, "/chat/runs/r", "", func(w http.ResponseWriter, r *http.Request) {
			b.Stop(w, r, "r")
		})
		<-sdone
		if sw.status != http.StatusAccepted {
			t.Fatalf("DELETE on the other replica: %d", sw.status)
		}
		<-done // the owner learns the stop at its next renewal
		if d := time.Since(start); d > time.Second {
			t.Errorf("stopped after %v, want within a third of the lease", d)
		}
		if !strings.Contains(w.String(), `"code":"CANCELLED"`) {
			t.Fatalf("stream does not end cancelled: %q", w.String())
		}
		for _, h := range []*resume.Handler[core.NoState]{a, b} {
			if err := h.Close(context.Background()); err != nil {
				t.Fatal(err)
			}
		}
	})
}

func TestResumableOwnerDeath(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		ctx := context.Background()
		lg := mustMemoryLog(t)
		// A replica began a run, stored two events and died.
		dead, _, err := lg.Begin(ctx, resume.RunMeta{RunID: "r", ThreadID: "t", Owner: "dead"}, 2*time.Second)
		if err != nil {
			t.Fatal(err)
		}
		started := []byte(`{"type":"RUN_STARTED","threadId":"t","runId":"r"}`)
		msg := []byte(`{"type":"TEXT_MESSAGE_START","messageId":"m","role":"assistant"}`)
		if err := lg.Append(ctx, dead, []resume.Entry{{Seq: 1, Data: started}, {Seq: 2, Data: msg}}); err != nil {
			t.Fatal(err)
		}
		b := newResumable(t, blockAgent(nil), lg, resume.WithReplicaID("b"), resume.WithLeaseTTL(2*time.Second))
		start := time.Now()
		w, _, done := serveIn(http.MethodGet, "/chat/runs/r?after=1", "", func(w http.ResponseWriter, r *http.Request) {
			b.Rejoin(w, r, "r")
		})
		<-done
		if d := time.Since(start); d > 4*time.Second {
			t.Errorf("the lost run ended after %v", d)
		}
		if !strings.Contains(w.String(), "id: 3\ndata: {\"type\":\"RUN_ERROR\"") || !strings.Contains(w.String(), `"RUN_LOST"`) {
			t.Fatalf("rejoin of a lost run: %q", w.String())
		}
		if err := lg.Append(ctx, dead, []resume.Entry{{Seq: 4, Data: msg}}); err == nil {
			t.Fatal("the dead owner could still append")
		}
		if err := b.Close(ctx); err != nil {
			t.Fatal(err)
		}
	})
}
