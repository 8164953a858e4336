package resume_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/agui-go/agui"
	"github.com/agui-go/agui/aguitest"
	"github.com/agui-go/agui/core"
	"github.com/agui-go/agui/resume"
)

// countAgent streams n deltas "d1 " … "dn ", pausing a little between
// them so that cuts land on a live run, and counts its executions.
func countAgent(n int, runs *atomic.Int32) core.Agent[core.NoState] {
	return core.AgentFunc[core.NoState](func(ctx context.Context, rc *core.RunContext[core.NoState]) (agui.Outcome, error) {
		if runs != nil {
			runs.Add(1)
		}
		m, err := rc.Message()
		if err != nil {
			return agui.Outcome{}, err
		}
		for i := 1; i <= n; i++ {
			if i%8 == 0 {
				time.Sleep(50 * time.Microsecond) // the agent's own pace, not a synchronisation
			}
			if err := m.Delta("d" + strconv.Itoa(i) + " "); err != nil {
				return agui.Outcome{}, err
			}
		}
		return agui.Success(), m.End()
	})
}

// blockAgent starts a message and waits until its run is cancelled.
func blockAgent(started chan<- string) core.Agent[core.NoState] {
	return core.AgentFunc[core.NoState](func(ctx context.Context, rc *core.RunContext[core.NoState]) (agui.Outcome, error) {
		if err := rc.Say("working"); err != nil {
			return agui.Outcome{}, err
		}
		if started != nil {
			started <- rc.Input().RunID
		}
		<-ctx.Done()
		return agui.Outcome{}, context.Cause(ctx)
	})
}

// mountResumable serves rh on a ServeMux under /chat.
func mountResumable(mux *http.ServeMux, rh http.Handler) {
	mux.Handle("POST /chat", rh)
	mux.Handle("GET /chat/runs/{runId}", rh)
	mux.Handle("DELETE /chat/runs/{runId}", rh)
	mux.Handle("GET /chat/threads/{threadId}/run", rh)
}

type resumableServer struct {
	url string
	log *resume.MemoryLog
	rh  *resume.Handler[core.NoState]
}

func newResumableServer(t *testing.T, a core.Agent[core.NoState], opts ...any) *resumableServer {
	t.Helper()
	lg := mustMemoryLog(t)
	hopts, ropts := splitOptions(opts)
	rh, err := resume.New(mustHandler(t, a, hopts...), lg, ropts...)
	if err != nil {
		t.Fatal(err)
	}
	mux := http.NewServeMux()
	mountResumable(mux, rh)
	srv := newServer(t, mux)
	t.Cleanup(func() {
		if err := rh.Close(context.Background()); err != nil {
			t.Error(err)
		}
	})
	return &resumableServer{url: srv.URL, log: lg, rh: rh}
}

func runRequest(thread, run string) string {
	return `{"threadId":"` + thread + `","runId":"` + run + `","protocolVersion":"1.0","messages":[{"id":"u1","role":"user","content":"hi"}]}`
}

// frames reads a resumable stream's frames with aguitest.ReadFrames
// (limit 0: all), failing on a frame without an id: every event a
// resumable route sends has one.
func frames(t *testing.T, body io.Reader, limit int) []aguitest.Frame {
	t.Helper()
	fs := aguitest.ReadFrames(t, body, limit)
	for _, f := range fs {
		if f.ID == 0 {
			t.Fatalf("frame without id: %s", f.Data)
		}
	}
	return fs
}

// waitLogged blocks on the log until the run's first entry is stored: an
// agent runs beside the run's writer, so its "started" can come before
// RUN_STARTED is in the log, where a cursor of 1 would be ahead of it.
func waitLogged(t *testing.T, lg resume.Log, run string) {
	t.Helper()
	es, _, err := lg.Read(context.Background(), run, 0, 1, time.Minute)
	if err != nil || len(es) == 0 {
		t.Fatalf("run %s's first entry: %v (%d entries)", run, err, len(es))
	}
}

// waitTerminal blocks on the log until the run's terminal entry is stored.
func waitTerminal(t *testing.T, lg resume.Log, run string) {
	t.Helper()
	var after uint64
	for {
		es, _, err := lg.Read(context.Background(), run, after, 100, time.Minute)
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range es {
			after = e.Seq
			if e.Terminal {
				return
			}
		}
	}
}

func request(ctx context.Context, t *testing.T, method, url, body string, hdr map[string]string) *http.Response {
	t.Helper()
	req, err := http.NewRequestWithContext(ctx, method, url, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	for k, v := range hdr {
		req.Header.Set(k, v)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	return resp
}

// decodeFrames decodes frames and checks them with the verifier.
func decodeFrames(t *testing.T, fs []aguitest.Frame) []agui.Event {
	t.Helper()
	v := agui.NewVerifier()
	out := make([]agui.Event, len(fs))
	for i, f := range fs {
		ev, err := agui.DecodeEvent([]byte(f.Data))
		if err != nil {
			t.Fatalf("frame %d: %v", f.ID, err)
		}
		if err := v.Observe(ev); err != nil {
			t.Fatalf("verifier rejects frame %d (%s): %v", f.ID, ev.Type(), err)
		}
		out[i] = ev
	}
	return out
}

// shape is what two runs of countAgent have in common: the types and the
// deltas, not the generated message ids.
func shape(evs []agui.Event) string {
	var b strings.Builder
	for _, ev := range evs {
		b.WriteString(string(ev.Type()))
		if d, ok := ev.(*agui.TextMessageContent); ok {
			b.WriteString("(" + d.Delta + ")")
		}
		b.WriteByte(' ')
	}
	return b.String()
}

func TestResumableCutStreamsRejoin(t *testing.T) {
	const n = 60
	var runs atomic.Int32
	s := newResumableServer(t, countAgent(n, &runs), resume.WithDetach(time.Minute))
	ctx := context.Background()

	// The undisturbed run.
	resp := request(ctx, t, http.MethodPost, s.url+"/chat", runRequest("t0", "r0"), nil)
	want := frames(t, resp.Body, 0)
	resp.Body.Close()
	wantShape := shape(decodeFrames(t, want))
	if !strings.HasSuffix(wantShape, "RUN_FINISHED ") || len(want) != n+4 {
		t.Fatalf("undisturbed run: %d frames, %s", len(want), wantShape)
	}

	const streams = 100
	var wg sync.WaitGroup
	sem := make(chan struct{}, 16)
	for i := range streams {
		wg.Go(func() {
			sem <- struct{}{}
			defer func() { <-sem }()
			rng := rand.New(rand.NewPCG(uint64(i), 17))
			run := "r" + strconv.Itoa(i+1)
			var got []aguitest.Frame
			cut := func(resp *http.Response) {
				// Read a random number of frames, then drop the connection.
				k := 1 + rng.IntN(n+3)
				fs := frames(t, resp.Body, k)
				resp.Body.Close()
				got = append(got, fs...)
			}
			cctx, cancel := context.WithCancel(ctx)
			resp := request(cctx, t, http.MethodPost, s.url+"/chat", runRequest("t"+run, run), nil)
			cut(resp)
			cancel()
			for attempt := 0; attempt < 3 && (len(got) == 0 || !strings.Contains(got[len(got)-1].Data, `"RUN_FINISHED"`)); attempt++ {
				cctx, cancel := context.WithCancel(ctx)
				var resp *http.Response
				last := strconv.FormatUint(got[len(got)-1].ID, 10)
				if attempt == 1 {
					// A retried POST of the same run joins it.
					resp = request(cctx, t, http.MethodPost, s.url+"/chat", runRequest("t"+run, run), map[string]string{"Last-Event-ID": last})
				} else {
					resp = request(cctx, t, http.MethodGet, s.url+"/chat/runs/"+run, "", map[string]string{"Last-Event-ID": last})
				}
				if resp.StatusCode != http.StatusOK {
					t.Errorf("%s: rejoin answered %d", run, resp.StatusCode)
					cancel()
					return
				}
				if attempt < 2 {
					cut(resp)
				} else {
					got = append(got, frames(t, resp.Body, 0)...)
					resp.Body.Close()
				}
				cancel()
			}
			for j, f := range got {
				if f.ID != uint64(j+1) {
					t.Errorf("%s: frame %d has id %d: events lost or repeated", run, j, f.ID)
					return
				}
			}
			if sh := shape(decodeFrames(t, got)); sh != wantShape {
				t.Errorf("%s: reassembled run differs:\n got %s\nwant %s", run, sh, wantShape)
			}
		})
	}
	wg.Wait()
	if got := runs.Load(); got != streams+1 {
		t.Errorf("the agent ran %d times for %d runs", got, streams+1)
	}
}

func TestResumableWithoutDetachCancelsOnDisconnect(t *testing.T) {
	started := make(chan string, 1)
	s := newResumableServer(t, blockAgent(started))
	ctx, cancel := context.WithCancel(context.Background())
	resp := request(ctx, t, http.MethodPost, s.url+"/chat", runRequest("t", "r"), nil)
	if loc := resp.Header.Get("Content-Location"); loc != "/chat/runs/r" {
		t.Errorf("Content-Location %q", loc)
	}
	<-started
	cancel()
	resp.Body.Close()
	waitTerminal(t, s.log, "r")
	// The log keeps the run, ended by the disconnect.
	resp = request(context.Background(), t, http.MethodGet, s.url+"/chat/runs/r", "", nil)
	fs := frames(t, resp.Body, 0)
	resp.Body.Close()
	evs := decodeFrames(t, fs)
	re, ok := evs[len(evs)-1].(*agui.RunError)
	if !ok || re.Code != string(agui.CodeDisconnected) {
		t.Fatalf("last event %#v, want RUN_ERROR DISCONNECTED", evs[len(evs)-1])
	}
}

func TestResumableStopAndOwner(t *testing.T) {
	started := make(chan string, 1)
	s := newResumableServer(t, blockAgent(started), resume.WithDetach(time.Minute),
		core.WithPrincipal(xUser))
	ctx := context.Background()
	alice := map[string]string{"X-User": "alice"}
	bob := map[string]string{"X-User": "bob"}
	resp := request(ctx, t, http.MethodPost, s.url+"/chat", runRequest("t", "r"), alice)
	defer resp.Body.Close()
	<-started

	for _, c := range []struct{ method, path, body string }{
		{http.MethodGet, "/chat/runs/r", ""},
		{http.MethodDelete, "/chat/runs/r", ""},
		{http.MethodPost, "/chat", runRequest("t", "r")},
	} {
		r := request(ctx, t, c.method, s.url+c.path, c.body, bob)
		body, _ := io.ReadAll(r.Body)
		r.Body.Close()
		if r.StatusCode != http.StatusForbidden || !strings.Contains(string(body), `"FORBIDDEN"`) {
			t.Errorf("%s %s by another principal: %d %s", c.method, c.path, r.StatusCode, body)
		}
	}
	// The thread's active run is alice's: bob has none there.
	if r := request(ctx, t, http.MethodGet, s.url+"/chat/threads/t/run", "", bob); r.StatusCode != http.StatusNoContent {
		t.Errorf("bob's active run on alice's thread: %d, want 204", r.StatusCode)
	}

	r := request(ctx, t, http.MethodDelete, s.url+"/chat/runs/r", "", alice)
	r.Body.Close()
	if r.StatusCode != http.StatusAccepted {
		t.Fatalf("DELETE by the owner: %d", r.StatusCode)
	}
	evs := decodeFrames(t, frames(t, resp.Body, 0))
	if re, ok := evs[len(evs)-1].(*agui.RunError); !ok || re.Code != string(agui.CodeCancelled) {
		t.Fatalf("stopped run ended with %#v", evs[len(evs)-1])
	}
}

func TestResumableRefusals(t *testing.T) {
	s := newResumableServer(t, countAgent(3, nil))
	ctx := context.Background()
	resp := request(ctx, t, http.MethodPost, s.url+"/chat", runRequest("t", "r"), nil)
	fs := frames(t, resp.Body, 0)
	resp.Body.Close()
	last := strconv.FormatUint(fs[len(fs)-1].ID, 10)
	for _, c := range []struct {
		method, path, body, cursor string
		status                     int
		code                       string
	}{
		{http.MethodGet, "/chat/runs/nope", "", "", http.StatusNotFound, "RUN_NOT_FOUND"},
		{http.MethodGet, "/chat/runs/nope", "", "4", http.StatusGone, "RUN_GONE"},
		{http.MethodPost, "/chat", runRequest("t", "gone"), "4", http.StatusGone, "RUN_GONE"},
		{http.MethodGet, "/chat/runs/r", "", "999", http.StatusBadRequest, "CURSOR_AHEAD"},
		{http.MethodGet, "/chat/runs/r", "", "x", http.StatusBadRequest, string(core.CodeMalformedInput)},
		{http.MethodDelete, "/chat/runs/nope", "", "", http.StatusNotFound, "RUN_NOT_FOUND"},
		{http.MethodGet, "/chat/threads/t/run", "", "", http.StatusNoContent, ""},
		{http.MethodGet, "/chat/runs/r", "", last, http.StatusOK, ""},
	} {
		var hdr map[string]string
		if c.cursor != "" {
			hdr = map[string]string{"Last-Event-ID": c.cursor}
		}
		r := request(ctx, t, c.method, s.url+c.path, c.body, hdr)
		body, _ := io.ReadAll(r.Body)
		r.Body.Close()
		if r.StatusCode != c.status || (c.code != "" && !strings.Contains(string(body), `"`+c.code+`"`)) {
			t.Errorf("%s %s cursor %q: %d %s, want %d %s", c.method, c.path, c.cursor, r.StatusCode, body, c.status, c.code)
		}
		if c.status == http.StatusOK && len(body) != len("retry: 1000\n\n") {
			t.Errorf("a rejoin after the last event replayed %q", body)
		}
	}
}

// xUser is a principal hook: the X-User header names the caller, "bad"
// is unknown credentials, and no header is "anonymous".
func xUser(r *http.Request) (string, error) {
	switch u := r.Header.Get("X-User"); u {
	case "bad":
		return "", errors.New("unknown credentials")
	case "":
		return "anonymous", nil
	default:
		return u, nil
	}
}

// TestResumablePrincipalHookFails: a request whose principal hook fails is
// a JSON 401 UNAUTHENTICATED on every method of the route, before any
// stream and whether or not the run exists.
func TestResumablePrincipalHookFails(t *testing.T) {
	started := make(chan string, 1)
	s := newResumableServer(t, blockAgent(started), resume.WithDetach(time.Minute), core.WithPrincipal(xUser))
	ctx := context.Background()
	alice := map[string]string{"X-User": "alice"}
	resp := request(ctx, t, http.MethodPost, s.url+"/chat", runRequest("t", "r"), alice)
	defer resp.Body.Close()
	<-started
	bad := map[string]string{"X-User": "bad"}
	for _, c := range []struct{ method, path, body string }{
		{http.MethodPost, "/chat", runRequest("t", "r")},
		{http.MethodPost, "/chat", runRequest("t", "new")},
		{http.MethodGet, "/chat/runs/r", ""},
		{http.MethodGet, "/chat/runs/none", ""},
		{http.MethodDelete, "/chat/runs/r", ""},
		{http.MethodGet, "/chat/threads/t/run", ""},
	} {
		r := request(ctx, t, c.method, s.url+c.path, c.body, bad)
		body, _ := io.ReadAll(r.Body)
		r.Body.Close()
		if r.StatusCode != http.StatusUnauthorized || !strings.Contains(string(body), `"code":"UNAUTHENTICATED"`) ||
			r.Header.Get("Content-Type") != "application/json" {
			t.Errorf("%s %s with unknown credentials: %d %s", c.method, c.path, r.StatusCode, body)
		}
	}
	if st, _ := s.log.Status(ctx, "new"); st.RunID != "" {
		t.Error("an unauthenticated POST began a run")
	}
	r := request(ctx, t, http.MethodDelete, s.url+"/chat/runs/r", "", alice)
	r.Body.Close()
	if r.StatusCode != http.StatusAccepted {
		t.Fatalf("DELETE by the owner: %d", r.StatusCode)
	}
}

// TestResumableActiveRunPerPrincipal: bob's run on the thread id of
// alice's neither hides hers nor is found by her, and each finds their
// own.
func TestResumableActiveRunPerPrincipal(t *testing.T) {
	started := make(chan string, 2)
	s := newResumableServer(t, blockAgent(started), resume.WithDetach(time.Minute), core.WithPrincipal(xUser))
	ctx := context.Background()
	users := map[string]map[string]string{"alice": {"X-User": "alice"}, "bob": {"X-User": "bob"}}
	ra := request(ctx, t, http.MethodPost, s.url+"/chat", runRequest("t", "ra"), users["alice"])
	defer ra.Body.Close()
	<-started
	waitLogged(t, s.log, "ra")
	rb := request(ctx, t, http.MethodPost, s.url+"/chat", runRequest("t", "rb"), users["bob"])
	defer rb.Body.Close()
	<-started
	waitLogged(t, s.log, "rb")
	for who, run := range map[string]string{"alice": "ra", "bob": "rb"} {
		act := request(ctx, t, http.MethodGet, s.url+"/chat/threads/t/run?after=1", "", users[who])
		act.Body.Close()
		if act.StatusCode != http.StatusOK || act.Header.Get("Content-Location") != "/chat/runs/"+run {
			t.Errorf("%s's active run: %d %q, want %s", who, act.StatusCode, act.Header.Get("Content-Location"), run)
		}
	}
	for who, run := range map[string]string{"alice": "ra", "bob": "rb"} {
		r := request(ctx, t, http.MethodDelete, s.url+"/chat/runs/"+run, "", users[who])
		r.Body.Close()
	}
}

func TestResumableActiveRun(t *testing.T) {
	started := make(chan string, 1)
	s := newResumableServer(t, blockAgent(started), resume.WithDetach(time.Minute))
	ctx := context.Background()
	resp := request(ctx, t, http.MethodPost, s.url+"/chat", runRequest("t", "r"), nil)
	<-started
	waitLogged(t, s.log, "r")
	// A reloaded page finds the thread's run and follows it from its start.
	act := request(ctx, t, http.MethodGet, s.url+"/chat/threads/t/run?after=1", "", nil)
	if act.StatusCode != http.StatusOK || act.Header.Get("Content-Location") != "/chat/runs/r" {
		t.Fatalf("active run: %d %q", act.StatusCode, act.Header.Get("Content-Location"))
	}
	r := request(ctx, t, http.MethodDelete, s.url+"/chat/runs/r", "", nil)
	r.Body.Close()
	fs := frames(t, act.Body, 0)
	act.Body.Close()
	resp.Body.Close()
	if fs[0].ID != 2 || !strings.Contains(fs[len(fs)-1].Data, `"RUN_ERROR"`) {
		t.Fatalf("active run frames from %d to %s", fs[0].ID, fs[len(fs)-1].Data)
	}
}

func TestResumableOptions(t *testing.T) {
	h := mustHandler(t, countAgent(1, nil))
	lg := mustMemoryLog(t)
	if _, err := resume.New[core.NoState](nil, lg); err == nil {
		t.Error("nil handler accepted")
	}
	if _, err := core.NewHandler(countAgent(1, nil), core.WithPrincipal(nil)); err == nil {
		t.Error("WithPrincipal(nil) accepted")
	}
	for i, o := range []resume.Option{
		resume.WithLeaseTTL(0), resume.WithPresence(0),
		resume.WithRetry(-1),
	} {
		if _, err := resume.New(h, lg, o); err == nil {
			t.Errorf("option %d: out of range value accepted", i)
		}
	}
}

// Ensure the errors keep their codes for clients that switch on them.
func TestRunLogErrorCodes(t *testing.T) {
	err := fmt.Errorf("wrapped: %w", agui.NewError(resume.CodeFenced, "x"))
	if !errors.Is(err, resume.ErrFenced) || errors.Is(err, resume.ErrLogFull) {
		t.Error("codes do not match their sentinels")
	}
}

func TestResumableConcurrentPostsRunOnce(t *testing.T) {
	var runs atomic.Int32
	s := newResumableServer(t, countAgent(30, &runs), resume.WithDetach(time.Minute))
	var wg sync.WaitGroup
	got := make([][]aguitest.Frame, 10)
	for i := range got {
		wg.Go(func() {
			resp := request(context.Background(), t, http.MethodPost, s.url+"/chat", runRequest("t", "same"), nil)
			got[i] = frames(t, resp.Body, 0)
			resp.Body.Close()
		})
	}
	wg.Wait()
	if n := runs.Load(); n != 1 {
		t.Fatalf("the agent ran %d times for one runId", n)
	}
	for i := range got {
		if fmt.Sprint(got[i]) != fmt.Sprint(got[0]) {
			t.Fatalf("stream %d differs from stream 0", i)
		}
	}
}

func TestResumableServesPreOneClients(t *testing.T) {
	helper := core.AgentFunc[core.NoState](func(ctx context.Context, rc *core.RunContext[core.NoState]) (agui.Outcome, error) {
		sub, err := rc.Subagent("helper")
		if err != nil {
			return agui.Outcome{}, err
		}
		if err := sub.Say("from the helper"); err != nil {
			return agui.Outcome{}, err
		}
		return agui.Success(), sub.Finish(nil)
	})
	s := newResumableServer(t, helper)
	legacy := `{"threadId":"t","runId":"old","messages":[],"tools":[],"context":[]}`
	resp := request(context.Background(), t, http.MethodPost, s.url+"/chat", legacy, nil)
	fs := frames(t, resp.Body, 0)
	resp.Body.Close()
	// The connection downgrades the log's 1.0 events: the ids of the
	// events it drops are skipped, the others keep increasing.
	var last uint64
	for i, f := range fs {
		if f.ID <= last || strings.Contains(f.Data, `"SUBAGENT_`) {
			t.Fatalf("frame %d of a pre-1.0 stream: %+v", i, f)
		}
		last = f.ID
	}
	if len(fs) == 0 || !strings.Contains(fs[len(fs)-1].Data, `"RUN_FINISHED"`) {
		t.Fatalf("pre-1.0 stream %+v", fs)
	}
}

// TestHandlerPrincipal: a plain route's hook names the run's principal,
// which the agent finds on its context, and a failing hook is a JSON 401
// before the body is read.
func TestHandlerPrincipal(t *testing.T) {
	got := make(chan string, 1)
	a := core.AgentFunc[core.NoState](func(ctx context.Context, rc *core.RunContext[core.NoState]) (agui.Outcome, error) {
		p, ok := core.PrincipalFrom(ctx)
		if !ok {
			p = "<none>"
		}
		got <- p
		return agui.Outcome{}, nil
	})
	srv := newServer(t, mustHandler(t, a, core.WithPrincipal(xUser)))
	ctx := context.Background()
	r := request(ctx, t, http.MethodPost, srv.URL, runRequest("t", "r"), map[string]string{"X-User": "alice"})
	_, _ = io.Copy(io.Discard, r.Body)
	r.Body.Close()
	if p := <-got; p != "alice" {
		t.Fatalf("the run's principal %q, want alice", p)
	}
	r = request(ctx, t, http.MethodPost, srv.URL, "{not json", map[string]string{"X-User": "bad"})
	body, _ := io.ReadAll(r.Body)
	r.Body.Close()
	if r.StatusCode != http.StatusUnauthorized || !strings.Contains(string(body), `"code":"UNAUTHENTICATED"`) {
		t.Fatalf("unknown credentials: %d %s", r.StatusCode, body)
	}
}
