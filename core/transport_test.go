package core_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/agui-go/agui"
	"github.com/agui-go/agui/core"
)

// ExampleHandler_Accept is a transport of its own on a Handler's route,
// as package resume is one: it reads the request, builds and admits the
// run, drives it, and writes each event to the client with a Conn.
func ExampleHandler_Accept() {
	h, err := core.NewHandler(sayAgent("Hello!"), core.WithRoute("/chat"))
	if err != nil {
		fmt.Println(err)
		return
	}
	serve := func(w http.ResponseWriter, r *http.Request) {
		ctx, in, ok := h.Accept(w, r) // principal, route and input
		if !ok {
			return // refused, and answered
		}
		run, err := h.NewRun(ctx, in)
		if err != nil {
			h.InputReader().Refuse(w, r, err)
			return
		}
		release, err := h.Slot(w)
		if err != nil {
			h.InputReader().Refuse(w, r, err)
			return
		}
		defer release()
		conn := h.Conn(ctx, w, in.RunID, in.ProtocolVersion)
		var buf []byte
		deliver := func(ev agui.Event) bool {
			ev, keep := conn.Downgrade(ev)
			if !keep {
				return true
			}
			buf, _ = agui.AppendSSE(buf[:0], ev)
			return conn.Write(buf) == nil
		}
		c, err := run.Start(context.WithoutCancel(ctx), deliver, core.DeliverKeepsNothing())
		if err != nil {
			h.InputReader().Refuse(w, r, err)
			return
		}
		defer c.Close()
		for ready := c.Ready(); ready != nil; ready = c.Ready() {
			<-ready
			c.Take()
			_ = conn.Flush()
		}
	}
	rec := httptest.NewRecorder()
	serve(rec, newPost(`{"threadId":"t","runId":"r","protocolVersion":"1.0","messages":[]}`))
	fmt.Println(rec.Code, rec.Header().Get("Content-Type"))
	for ev, err := range agui.ReadSSE(rec.Body) {
		if err != nil {
			fmt.Println(err)
			return
		}
		fmt.Println(ev.Type())
	}
	// Output:
	// 200 text/event-stream
	// RUN_STARTED
	// TEXT_MESSAGE_START
	// TEXT_MESSAGE_CONTENT
	// TEXT_MESSAGE_END
	// RUN_FINISHED
}

// Accept runs the principal hook, labels the context with the route and
// puts the input on it; a caller the hook cannot name is refused before
// its body is read.
func TestAcceptCarriesPrincipalRouteAndInput(t *testing.T) {
	user := core.WithPrincipal(func(r *http.Request) (string, error) {
		if u := r.Header.Get("X-User"); u != "" {
			return u, nil
		}
		return "", errors.New("nobody")
	})
	h := mustHandler(t, sayAgent("hi"), user, core.WithRoute("/chat"), core.WithAgentName("greeter"))
	req := newPost(`{"threadId":"t","runId":"r","messages":[]}`)
	req.Header.Set("X-User", "alice")
	ctx, in, ok := h.Accept(httptest.NewRecorder(), req)
	if !ok || in == nil || in.RunID != "r" {
		t.Fatalf("Accept: %v %+v", ok, in)
	}
	if p, _ := core.PrincipalFrom(ctx); p != "alice" {
		t.Errorf("principal %q", p)
	}
	if ri, _ := core.RouteFrom(ctx); ri.Route != "/chat" || ri.Agent != "greeter" {
		t.Errorf("route %+v", ri)
	}
	if got, _ := core.InputFrom(ctx); got != in {
		t.Error("the input is not on the context")
	}

	rec := httptest.NewRecorder()
	if _, _, ok := h.Accept(rec, newPost(`{"threadId":"t","runId":"r","messages":[]}`)); ok || rec.Code != http.StatusUnauthorized {
		t.Fatalf("no principal: %v %d", ok, rec.Code)
	}
	rec = httptest.NewRecorder()
	bad := newPost(`{"threadId":`)
	bad.Header.Set("X-User", "alice")
	if _, _, ok := h.Accept(rec, bad); ok || rec.Code != http.StatusBadRequest || !strings.Contains(rec.Body.String(), `"code"`) {
		t.Fatalf("a malformed body: %v %d %s", ok, rec.Code, rec.Body.String())
	}
}

// refusingAgent is an Admitter that takes no run.
type refusingAgent struct{ core.AgentFunc[core.NoState] }

func (refusingAgent) AdmitRun(context.Context, *agui.RunAgentInput) error {
	return errors.New("full")
}

// NewRun asks an Admitter agent first and builds the run Serve would.
func TestNewRunAsksTheAdmitter(t *testing.T) {
	in := agui.NewInput("t", "r")
	h := mustHandler[core.NoState](t, refusingAgent{})
	_, err := h.NewRun(context.Background(), in)
	var re *core.RequestError
	if !errors.As(err, &re) || re.Status != http.StatusServiceUnavailable {
		t.Fatalf("an Admitter's refusal: %v", err)
	}
	run, err := mustHandler(t, sayAgent("hi")).NewRun(context.Background(), in)
	if err != nil {
		t.Fatal(err)
	}
	if evs, err := collectRun(run); err != nil || len(evs) != 5 {
		t.Fatalf("the run: %d events, %v", len(evs), err)
	}
}

// collectRun drives run to its end and returns its events.
func collectRun(run *core.Runner[core.NoState]) ([]agui.Event, error) {
	var evs []agui.Event
	for ev, err := range run.Events(context.Background()) {
		if err != nil {
			return evs, err
		}
		evs = append(evs, ev)
	}
	return evs, nil
}

// Slot takes the route's run slots: over the cap it answers 429 with
// Retry-After, and release gives the slot back.
func TestSlotCapsRuns(t *testing.T) {
	h := mustHandler(t, sayAgent("hi"), core.WithMaxConcurrentRuns(1, 3*time.Second))
	release, err := h.Slot(httptest.NewRecorder())
	if err != nil {
		t.Fatal(err)
	}
	rec := httptest.NewRecorder()
	var re *core.RequestError
	if _, err := h.Slot(rec); !errors.As(err, &re) || re.Status != http.StatusTooManyRequests || rec.Header().Get("Retry-After") != "3" {
		t.Fatalf("over the cap: %v, Retry-After %q", err, rec.Header().Get("Retry-After"))
	}
	release()
	if release, err := h.Slot(httptest.NewRecorder()); err != nil {
		t.Fatalf("after release: %v", err)
	} else {
		release()
	}
}

// Settings reports what the handler's options set, with their defaults.
func TestSettings(t *testing.T) {
	g := new(core.Gate)
	s := mustHandler(t, sayAgent("hi"), core.WithGate(g), core.WithHeartbeat(time.Second),
		core.WithWriteTimeout(2*time.Second)).Settings()
	if s.Gate != g || s.Heartbeat != time.Second || s.WriteTimeout != 2*time.Second || s.RetryAfter != core.DefaultRetryAfter || s.Logger == nil {
		t.Fatalf("settings %+v", s)
	}
	d := mustHandler(t, sayAgent("hi")).Settings()
	if d.Gate != nil || d.Heartbeat != core.DefaultHeartbeat || d.WriteTimeout != core.DefaultWriteTimeout {
		t.Fatalf("default settings %+v", d)
	}
}

// A run delivered as AG-UI 1.1 has it (DeliverLatest) reaches each
// client, through its Conn, exactly as Serve sends that client the same
// run: a 1.1 client the events and "1.1", a 1.0 client no
// encryptedValueType and "1.0", a pre-1.0 client Downgrade's stream.
func TestConnShapesALatestRunAsServeDoes(t *testing.T) {
	t.Parallel()
	agent := core.AgentFunc[core.NoState](func(ctx context.Context, rc *core.RunContext[core.NoState]) (agui.Outcome, error) {
		if err := rc.Emit(&agui.ReasoningEncryptedValue{Subtype: agui.EncryptedMessage, EntityID: "m1",
			EncryptedValue: "opaque", EncryptedValueType: "vendor/sealed"}); err != nil {
			return agui.Outcome{}, err
		}
		// Fixed message ids, so that two runs' streams compare.
		for _, ev := range []agui.Event{&agui.TextMessageStart{MessageID: "m2", Role: agui.RoleAssistant},
			&agui.TextMessageContent{MessageID: "m2", Delta: "hi"}, &agui.TextMessageEnd{MessageID: "m2"}} {
			if err := rc.Emit(ev); err != nil {
				return agui.Outcome{}, err
			}
		}
		return agui.Cancelled(), nil
	})
	h := mustHandler(t, agent)
	ctx := t.Context()

	// The client that starts the run declares 1.0; DeliverLatest ignores it.
	run, err := h.NewRun(ctx, &agui.RunAgentInput{ThreadID: "t", RunID: "r", ProtocolVersion: "1.0"})
	if err != nil {
		t.Fatal(err)
	}
	var latest [][]byte
	c, err := run.Start(ctx, func(ev agui.Event) bool {
		b, err := ev.AppendJSON(nil)
		if err != nil {
			t.Error(err)
		}
		latest = append(latest, b)
		return true
	}, core.DeliverLatest())
	if err != nil {
		t.Fatal(err)
	}
	for ready := c.Ready(); ready != nil; ready = c.Ready() {
		<-ready
		c.Take()
	}
	c.Close()
	if !bytes.Contains(latest[0], []byte(`"protocolVersion":"1.1"`)) || !bytes.Contains(latest[1], []byte(`"encryptedValueType"`)) {
		t.Fatalf("DeliverLatest delivered %s", bytes.Join(latest, []byte("\n")))
	}

	for _, version := range []string{"1.1", "1.2", "1.0", ""} {
		body := `{"threadId":"t","runId":"r","messages":[]}`
		if version != "" {
			body = `{"threadId":"t","runId":"r","protocolVersion":"` + version + `","messages":[]}`
		}
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, newPost(body))
		var want []string
		for line := range strings.Lines(rec.Body.String()) {
			if d, ok := strings.CutPrefix(line, "data: "); ok {
				want = append(want, strings.TrimSuffix(d, "\n"))
			}
		}
		if len(want) == 0 {
			t.Fatalf("client %q: Serve sent %q", version, rec.Body.String())
		}

		conn := h.Conn(ctx, httptest.NewRecorder(), "r", version)
		var got, gotEv []string
		for _, b := range latest {
			if out, keep := conn.DowngradeJSON(b); keep {
				got = append(got, string(out))
			}
			ev, err := agui.DecodeEvent(b)
			if err != nil {
				t.Fatal(err)
			}
			if out, keep := conn.Downgrade(ev); keep {
				enc, _ := out.AppendJSON(nil)
				gotEv = append(gotEv, string(enc))
			}
		}
		if !slices.Equal(got, want) {
			t.Errorf("client %q, DowngradeJSON:\n got %q\nwant %q", version, got, want)
		}
		if !slices.Equal(gotEv, want) {
			t.Errorf("client %q, Downgrade:\n got %q\nwant %q", version, gotEv, want)
		}
	}
}
