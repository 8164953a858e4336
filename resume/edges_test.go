package resume_test

import (
	"context"
	"io"
	"log/slog"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/agui-go/agui"
	"github.com/agui-go/agui/aguitest"
	"github.com/agui-go/agui/core"
	"github.com/agui-go/agui/resume"
)

// A retried POST of a run that is already running only joins it: it takes
// no slot of the route's concurrent-run cap, so with a cap of 1 it is
// served while a new run is refused 429.
func TestResumableRetriedPostTakesNoSlot(t *testing.T) {
	started := make(chan string, 1)
	s := newResumableServer(t, blockAgent(started), resume.WithDetach(time.Minute),
		core.WithMaxConcurrentRuns(1, time.Second))
	ctx, cut := context.WithCancel(context.Background())
	resp := request(ctx, t, http.MethodPost, s.url+"/chat", runRequest("t", "a"), nil)
	<-started
	frames(t, resp.Body, 1)
	cut() // run a is detached and running
	resp.Body.Close()

	busy := request(context.Background(), t, http.MethodPost, s.url+"/chat", runRequest("t2", "b"), nil)
	busy.Body.Close()
	if busy.StatusCode != http.StatusTooManyRequests {
		t.Fatalf("a new run over the cap: %d, want 429", busy.StatusCode)
	}
	join := request(context.Background(), t, http.MethodPost, s.url+"/chat", runRequest("t", "a"), nil)
	defer join.Body.Close()
	if join.StatusCode != http.StatusOK || join.Header.Get("Retry-After") != "" {
		t.Fatalf("a retried POST of a running run: %d %v, want 200", join.StatusCode, join.Header)
	}
	// The join is served (its headers are in); the run is stopped and the
	// join read whole in one pass, since a reader stopped after a frame
	// may have buffered the frames after it.
	stop := request(context.Background(), t, http.MethodDelete, s.url+"/chat/runs/a", "", nil)
	stop.Body.Close()
	fs := frames(t, join.Body, 0)
	if len(fs) == 0 || fs[0].ID != 1 {
		t.Fatalf("the join starts with %+v", fs)
	}
	evs := decodeFrames(t, fs)
	if _, ok := evs[len(evs)-1].(*agui.RunError); !ok {
		t.Fatalf("the joined run ended with %s", evs[len(evs)-1].Type())
	}
}

// A run id whose URL could not go in a header is refused before the
// stream, with a bounded answer and bounded log lines; a rejoin of such a
// run (begun elsewhere) is served without a Content-Location.
func TestResumableLongRunIDStaysOutOfHeadersAndLogs(t *testing.T) {
	var logs strings.Builder
	var mu sync.Mutex
	logger := slog.New(slog.NewTextHandler(lockedWriter{&mu, &logs}, nil))
	lg := mustMemoryLog(t)
	rh, err := resume.New(mustHandler(t, countAgent(1, nil), core.WithHandlerLogger(logger)), lg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = rh.Close(context.Background()) })
	mux := http.NewServeMux()
	mountResumable(mux, rh)
	srv := newServer(t, mux)

	long := strings.Repeat("x", 4<<20)
	resp := request(context.Background(), t, http.MethodPost, srv.URL+"/chat", runRequest("t", long), nil)
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusUnprocessableEntity || !strings.Contains(string(body), `"INVALID_INPUT"`) || len(body) > 4096 {
		t.Fatalf("a 4 MiB run id: %d, %d bytes", resp.StatusCode, len(body))
	}
	for k, vs := range resp.Header {
		for _, v := range vs {
			if len(v) > resume.MaxRunURLLen {
				t.Errorf("header %s carries %d bytes", k, len(v))
			}
		}
	}
	if _, err := lg.Status(context.Background(), long); err == nil {
		t.Error("the refused run was stored")
	}

	// A run begun elsewhere with an id whose escaped URL is too long.
	slashes := strings.Repeat("/", 2000)
	l, _, err := lg.Begin(context.Background(), resume.RunMeta{RunID: slashes, ThreadID: "t", Owner: "elsewhere"}, time.Minute)
	if err != nil {
		t.Fatal(err)
	}
	fin := &agui.RunFinished{}
	data, _ := fin.AppendJSON(nil)
	if err := lg.Append(context.Background(), l, []resume.Entry{{Seq: 1, Data: data, Terminal: true}}); err != nil {
		t.Fatal(err)
	}
	resp = request(context.Background(), t, http.MethodGet, srv.URL+"/chat/runs/"+url.PathEscape(slashes), "", nil)
	fs := frames(t, resp.Body, 0)
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK || len(fs) != 1 || resp.Header.Get("Content-Location") != "" {
		t.Fatalf("rejoin of a long id: %d, %d frames, Content-Location of %d bytes",
			resp.StatusCode, len(fs), len(resp.Header.Get("Content-Location")))
	}
	mu.Lock()
	defer mu.Unlock()
	for _, line := range strings.Split(logs.String(), "\n") {
		if len(line) > 4096 {
			t.Fatalf("a log line of %d bytes: %.200s", len(line), line)
		}
	}
	if !strings.Contains(logs.String(), "agui refused") {
		t.Fatalf("the refusal was not logged: %s", logs.String())
	}
}

type lockedWriter struct {
	mu *sync.Mutex
	w  io.Writer
}

func (w lockedWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.w.Write(p)
}

// A run id with bytes a path must escape is rejoined and stopped at the
// URL its Content-Location advertises.
func TestResumableRunIDWithSlashRejoinsAtItsURL(t *testing.T) {
	const id = "a/b c%"
	started := make(chan string, 1)
	s := newResumableServer(t, blockAgent(started), resume.WithDetach(time.Minute))
	ctx, cut := context.WithCancel(context.Background())
	resp := request(ctx, t, http.MethodPost, s.url+"/chat", runRequest("t", id), nil)
	<-started
	loc := resp.Header.Get("Content-Location")
	frames(t, resp.Body, 1)
	cut()
	resp.Body.Close()
	if loc != "/chat/runs/a%2Fb%20c%25" {
		t.Fatalf("Content-Location %q", loc)
	}
	rejoin := request(context.Background(), t, http.MethodGet, s.url+loc, "", map[string]string{"Last-Event-ID": "1"})
	defer rejoin.Body.Close()
	if rejoin.StatusCode != http.StatusOK || rejoin.Header.Get("Content-Location") != loc {
		t.Fatalf("rejoin at %s: %d %q", loc, rejoin.StatusCode, rejoin.Header.Get("Content-Location"))
	}
	stop := request(context.Background(), t, http.MethodDelete, s.url+loc, "", nil)
	body, _ := io.ReadAll(stop.Body)
	stop.Body.Close()
	if stop.StatusCode != http.StatusAccepted || !strings.Contains(string(body), `"runId":"a/b c%"`) {
		t.Fatalf("stop at %s: %d %s", loc, stop.StatusCode, body)
	}
	fs := frames(t, rejoin.Body, 0)
	if len(fs) == 0 || fs[0].ID != 2 || !strings.Contains(fs[len(fs)-1].Data, `"RUN_ERROR"`) {
		t.Fatalf("the rejoined stream: %+v", fs)
	}
}

// subagentAgent streams SUBAGENT_* events, which a pre-1.0 client gets
// dropped.
func subagentAgent() core.Agent[core.NoState] {
	return core.AgentFunc[core.NoState](func(ctx context.Context, rc *core.RunContext[core.NoState]) (agui.Outcome, error) {
		sub, err := rc.Subagent("helper")
		if err != nil {
			return agui.Outcome{}, err
		}
		if err := sub.Say("from the helper"); err != nil {
			return agui.Outcome{}, err
		}
		return agui.Success(), sub.Finish(nil)
	})
}

// Each connection of a run gets its own client's dialect, whichever
// client started the run: the log keeps the 1.0 events.
func TestResumableJoinsGetTheirOwnDialect(t *testing.T) {
	s := newResumableServer(t, subagentAgent())
	legacy := func(run string) string {
		return `{"threadId":"t","runId":"` + run + `","messages":[],"tools":[],"context":[]}`
	}
	read := func(method, path, body string) (string, []aguitest.Frame) {
		t.Helper()
		resp := request(context.Background(), t, method, s.url+path, body, nil)
		defer resp.Body.Close()
		if resp.StatusCode != http.StatusOK {
			t.Fatalf("%s %s: %d", method, path, resp.StatusCode)
		}
		return resp.Header.Get("Content-Location"), frames(t, resp.Body, 0)
	}
	check := func(name string, fs []aguitest.Frame, want10 bool) {
		t.Helper()
		var sub bool
		var last uint64
		for _, f := range fs {
			sub = sub || strings.Contains(f.Data, `"SUBAGENT_`)
			if f.ID <= last {
				t.Fatalf("%s: ids not increasing: %+v", name, fs)
			}
			last = f.ID
		}
		if sub != want10 || len(fs) == 0 || !strings.Contains(fs[len(fs)-1].Data, `"RUN_FINISHED"`) {
			t.Errorf("%s: SUBAGENT_ events %v, want %v: %+v", name, sub, want10, fs)
		}
	}

	// A pre-1.0 client starts run old; 1.0 clients join it.
	loc, fs := read(http.MethodPost, "/chat", legacy("old"))
	check("0.x start", fs, false)
	if loc != "/chat/runs/old?downgrade=1" {
		t.Errorf("a pre-1.0 client's Content-Location %q", loc)
	}
	_, fs = read(http.MethodPost, "/chat", runRequest("t", "old"))
	check("1.0 POST join of a 0.x run", fs, true)
	_, fs = read(http.MethodGet, "/chat/runs/old", "")
	check("1.0 GET join of a 0.x run", fs, true)
	_, fs = read(http.MethodGet, loc, "")
	check("0.x GET rejoin at its Content-Location", fs, false)

	// A 1.0 client starts run new; pre-1.0 clients join it.
	loc, fs = read(http.MethodPost, "/chat", runRequest("t", "new"))
	check("1.0 start", fs, true)
	if loc != "/chat/runs/new" {
		t.Errorf("a 1.0 client's Content-Location %q", loc)
	}
	_, fs = read(http.MethodPost, "/chat", legacy("new"))
	check("0.x POST join of a 1.0 run", fs, false)
	_, fs = read(http.MethodGet, "/chat/runs/new?downgrade=1", "")
	check("0.x GET join of a 1.0 run", fs, false)
}

// lastData reads an SSE body to its end with agui's reader and returns
// its last event's JSON and whether that event's frame had an id.
func lastData(t *testing.T, body io.Reader) (data string, hasID bool) {
	t.Helper()
	r := agui.NewSSEReader(body)
	for ev, err := range r.Events() {
		if err != nil {
			t.Fatal(err)
		}
		b, err := ev.AppendJSON(nil)
		if err != nil {
			t.Fatal(err)
		}
		data = string(b)
		_, hasID = r.EventID()
	}
	return data, hasID
}

// At shutdown every stream of a resumable route ends with a terminal
// event, even when the agent ignores its context: the run's first stream
// and a follower on its own process get RUN_ERROR (CANCELLED) from the log
// at the gate's deadline, a follower on another process gets one from
// that process's gate, and both gates and Close return nil.
func TestResumableShutdownEndsStubbornRuns(t *testing.T) {
	running, release := make(chan struct{}), make(chan struct{})
	stubborn := core.AgentFunc[core.NoState](func(ctx context.Context, rc *core.RunContext[core.NoState]) (agui.Outcome, error) {
		if err := rc.Say("working"); err != nil {
			return agui.Outcome{}, err
		}
		close(running)
		<-release // ignores ctx
		return agui.Success(), nil
	})
	lg := mustMemoryLog(t)
	replica := func(g *core.Gate) (string, *resume.Handler[core.NoState]) {
		rh, err := resume.New(mustHandler(t, stubborn, core.WithGate(g)), lg, resume.WithDetach(time.Minute))
		if err != nil {
			t.Fatal(err)
		}
		mux := http.NewServeMux()
		mountResumable(mux, rh)
		return newServer(t, mux).URL, rh
	}
	gateA, gateB := new(core.Gate), new(core.Gate)
	a, rhA := replica(gateA)
	b, rhB := replica(gateB)
	t.Cleanup(func() {
		close(release)
		for _, rh := range []*resume.Handler[core.NoState]{rhA, rhB} {
			if err := rh.Close(context.Background()); err != nil {
				t.Error(err)
			}
		}
	})
	// Before the fix the streams never end: bound the test instead.
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	first := request(ctx, t, http.MethodPost, a+"/chat", runRequest("t", "r"), nil)
	defer first.Body.Close()
	<-running
	local := request(ctx, t, http.MethodGet, a+"/chat/runs/r", "", map[string]string{"Last-Event-ID": "1"})
	defer local.Body.Close()
	remote := request(ctx, t, http.MethodGet, b+"/chat/runs/r", "", map[string]string{"Last-Event-ID": "1"})
	defer remote.Body.Close()
	if local.StatusCode != http.StatusOK || remote.StatusCode != http.StatusOK {
		t.Fatalf("rejoins: %d %d", local.StatusCode, remote.StatusCode)
	}

	// Process b shuts down: its follower ends, the run goes on.
	if err := gateB.Shutdown(ctx); err != nil {
		t.Fatalf("gate b: %v", err)
	}
	if d, id := lastData(t, remote.Body); !strings.Contains(d, `"RUN_ERROR"`) || !strings.Contains(d, `"CANCELLED"`) || id {
		t.Fatalf("the follower on the other process ends with %s (id %v)", d, id)
	}
	if st, err := lg.Status(ctx, "r"); err != nil || st.Sealed {
		t.Fatalf("the run after the other process shut down: %+v %v", st, err)
	}

	// Process a shuts down with a deadline its agent ignores.
	dl, cancelDL := context.WithTimeout(ctx, 50*time.Millisecond)
	defer cancelDL()
	if err := gateA.Shutdown(dl); err != nil {
		t.Fatalf("gate a: %v", err)
	}
	for name, body := range map[string]io.Reader{"first stream": first.Body, "local follower": local.Body} {
		if d, id := lastData(t, body); !strings.Contains(d, `"RUN_ERROR"`) || !strings.Contains(d, `"CANCELLED"`) || !id {
			t.Errorf("%s ends with %s (id %v)", name, d, id)
		}
	}
	closeCtx, cancelClose := context.WithTimeout(ctx, 50*time.Millisecond)
	defer cancelClose()
	if err := rhA.Close(closeCtx); err != nil {
		t.Fatalf("Close with the agent still running: %v", err)
	}
}

// Close alone, without a gate, ends a stubborn run's log at its deadline.
func TestResumableCloseEndsStubbornRuns(t *testing.T) {
	running, release := make(chan struct{}), make(chan struct{})
	stubborn := core.AgentFunc[core.NoState](func(ctx context.Context, rc *core.RunContext[core.NoState]) (agui.Outcome, error) {
		close(running)
		<-release
		return agui.Success(), nil
	})
	lg := mustMemoryLog(t)
	rh, err := resume.New(mustHandler(t, stubborn), lg, resume.WithDetach(time.Minute))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		close(release)
		if err := rh.Close(context.Background()); err != nil {
			t.Error(err)
		}
	})
	mux := http.NewServeMux()
	mountResumable(mux, rh)
	srv := newServer(t, mux)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	resp := request(ctx, t, http.MethodPost, srv.URL+"/chat", runRequest("t", "r"), nil)
	defer resp.Body.Close()
	<-running
	dl, cancelDL := context.WithTimeout(ctx, 50*time.Millisecond)
	defer cancelDL()
	if err := rh.Close(dl); err != nil {
		t.Fatalf("Close: %v", err)
	}
	if d, _ := lastData(t, resp.Body); !strings.Contains(d, `"RUN_ERROR"`) || !strings.Contains(d, `"CANCELLED"`) {
		t.Fatalf("the stream ends with %s", d)
	}
}
