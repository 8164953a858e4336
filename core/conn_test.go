package core

import (
	"bytes"
	"context"
	"log/slog"
	"net/http"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/agui-go/agui"
)

func connHandler(t *testing.T, opts ...HandlerOption) *Handler[NoState] {
	t.Helper()
	h, err := NewHandler[NoState](AgentFunc[NoState](func(context.Context, *RunContext[NoState]) (agui.Outcome, error) {
		return agui.Success(), nil
	}), opts...)
	if err != nil {
		t.Fatal(err)
	}
	return h
}

// A Conn writes a stream as Serve does: the stream's headers and 200
// before its first bytes, the write deadline moved by the route's write
// timeout before each write, flushes.
func TestConnWritesAStreamAsServeDoes(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		h := connHandler(t, WithWriteTimeout(5*time.Second))
		rec := newSWRecorder()
		c := h.Conn(t.Context(), rec, "r", "1.0")
		if err := c.Write([]byte("data: {}\n\n")); err != nil {
			t.Fatal(err)
		}
		if err := c.Flush(); err != nil {
			t.Fatal(err)
		}
		hd := rec.Header()
		if rec.status != http.StatusOK || hd.Get("Content-Type") != agui.SSEContentType ||
			hd.Get("Cache-Control") != "no-cache" || hd.Get("X-Accel-Buffering") != "no" {
			t.Fatalf("status %d, headers %v", rec.status, hd)
		}
		if len(rec.deadlines) != 1 || !rec.deadlines[0].Equal(time.Now().Add(5*time.Second)) {
			t.Fatalf("deadlines %v, want one 5s ahead", rec.deadlines)
		}
		time.Sleep(time.Second)
		if err := c.Write([]byte("data: {}\n\n")); err != nil {
			t.Fatal(err)
		}
		if len(rec.deadlines) != 2 || !rec.deadlines[1].Equal(time.Now().Add(5*time.Second)) {
			t.Fatalf("deadlines %v: the second write did not move it", rec.deadlines)
		}
		if _, flushes := rec.counts(); flushes != 1 || rec.body() != "data: {}\n\ndata: {}\n\n" {
			t.Fatalf("%d flushes, body %q", flushes, rec.body())
		}
	})
}

// A heartbeat is due once the stream was silent for the route's interval,
// and never on a route without heartbeats.
func TestConnHeartbeatDue(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		c := connHandler(t, WithHeartbeat(2*time.Second)).Conn(t.Context(), newSWRecorder(), "r", "1.0")
		if err := c.Write([]byte(": hi\n\n")); err != nil {
			t.Fatal(err)
		}
		if c.HeartbeatDue() {
			t.Fatal("due right after a write")
		}
		time.Sleep(2 * time.Second)
		if !c.HeartbeatDue() {
			t.Fatal("not due after the interval")
		}
		off := connHandler(t, WithHeartbeat(0)).Conn(t.Context(), newSWRecorder(), "r", "1.0")
		time.Sleep(time.Hour)
		if off.HeartbeatDue() {
			t.Fatal("due on a route without heartbeats")
		}
	})
}

// A pre-1.0 client's Conn downgrades (dropping what it cannot read) and
// logs the stream's first lossy downgrade once; a 1.0 client's passes
// events as they are.
func TestConnDowngradesForAPre10Client(t *testing.T) {
	var logs bytes.Buffer
	h := connHandler(t, WithHandlerLogger(slog.New(slog.NewTextHandler(&logs, nil))))
	cancelled := func() agui.Event {
		o := agui.Cancelled()
		return &agui.RunFinished{ThreadID: "t", RunID: "r", Outcome: &o}
	}
	modern := h.Conn(t.Context(), newSWRecorder(), "r", "1.0")
	if ev, keep := modern.Downgrade(cancelled()); !keep || ev.Type() != agui.TypeRunFinished {
		t.Fatalf("a 1.0 client got %v %v", ev, keep)
	}
	old := h.Conn(t.Context(), newSWRecorder(), "r", "")
	if _, keep := old.Downgrade(&agui.SubagentStarted{SubagentRunID: "s"}); keep {
		t.Fatal("a pre-1.0 client got SUBAGENT_STARTED")
	}
	for range 2 {
		if ev, keep := old.Downgrade(cancelled()); !keep || ev.Type() != agui.TypeRunError {
			t.Fatalf("a cancelled outcome for a pre-1.0 client is %v %v, want RUN_ERROR", ev, keep)
		}
	}
	if n := strings.Count(logs.String(), "lossy downgrade"); n != 1 {
		t.Fatalf("%d lossy-downgrade lines, want 1:\n%s", n, logs.String())
	}
}

// A ResponseWriter that cannot flush or set deadlines is used as it is,
// and logged once per handler, as Serve logs it.
func TestConnWithoutFlushOrDeadlines(t *testing.T) {
	var logs bytes.Buffer
	h := connHandler(t, WithHandlerLogger(slog.New(slog.NewTextHandler(&logs, nil))))
	for range 2 {
		w := &swPlainWriter{header: http.Header{}}
		c := h.Conn(t.Context(), w, "r", "1.0")
		if err := c.Write([]byte("data: {}\n\n")); err != nil {
			t.Fatal(err)
		}
		if err := c.Flush(); err != nil {
			t.Fatalf("Flush on a writer that cannot: %v", err)
		}
	}
	if strings.Count(logs.String(), "cannot flush") != 1 || strings.Count(logs.String(), "cannot set write deadlines") != 1 {
		t.Fatalf("want one warning of each:\n%s", logs.String())
	}
}

// A failed write means the client is gone.
func TestConnWriteErrorMeansGone(t *testing.T) {
	rec := newSWRecorder()
	rec.failWrites = true
	if err := connHandler(t).Conn(t.Context(), rec, "r", "1.0").Write([]byte("data: {}\n\n")); err == nil {
		t.Fatal("a failed write reported no error")
	}
}

// mayDiffer10 finds the keys a 1.0 client reads otherwise, and passes over
// text that merely holds a "V".
func TestMayDiffer10(t *testing.T) {
	for data, want := range map[string]bool{
		`{"type":"RUN_STARTED","threadId":"t","runId":"r","protocolVersion":"1.1"}`:                                             true,
		`{"type":"REASONING_ENCRYPTED_VALUE","subtype":"message","entityId":"m","encryptedValue":"v","encryptedValueType":"x"}`: true,
		`{"type":"REASONING_ENCRYPTED_VALUE","subtype":"message","entityId":"m","encryptedValue":"v"}`:                          false,
		`{"type":"TEXT_MESSAGE_CONTENT","messageId":"m","delta":"Very \"Version\" V"}`:                                          false,
		`{"type":"TEXT_MESSAGE_CONTENT","messageId":"m","delta":"V"}`:                                                           false,
	} {
		if got := mayDiffer10([]byte(data)); got != want {
			t.Errorf("mayDiffer10(%s) = %v, want %v", data, got, want)
		}
	}
}
