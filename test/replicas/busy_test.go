package replicas_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/agui-go/agui"
	"github.com/agui-go/agui/loop"
)

// say is a run request with a second user message on thread, after the
// first one's (the client's history is the first exchange it saw).
func say(thread, run, text string) map[string]any {
	in := start(thread, run)
	in["messages"] = append(in["messages"].([]any), map[string]any{"id": "u2-" + thread, "role": "user", "content": text})
	return in
}

// postOpened is post that also says when the stream's first event
// arrived (zero for an answer without a stream).
func postOpened(ctx context.Context, r *replica, in map[string]any) (runResult, time.Time) {
	in["protocolVersion"] = "1.0"
	body, err := json.Marshal(in)
	if err != nil {
		return runResult{err: err}, time.Time{}
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, r.url+"/agents/loop", bytes.NewReader(body))
	if err != nil {
		return runResult{err: err}, time.Time{}
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "text/event-stream")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return runResult{err: err}, time.Time{}
	}
	defer resp.Body.Close()
	res := runResult{status: resp.StatusCode}
	var opened time.Time
	if !strings.HasPrefix(resp.Header.Get("Content-Type"), "text/event-stream") {
		var b bytes.Buffer
		_, res.err = b.ReadFrom(resp.Body)
		res.body = b.String()
		return res, opened
	}
	sc := bufio.NewScanner(resp.Body)
	sc.Buffer(nil, 16<<20)
	for sc.Scan() {
		data, ok := strings.CutPrefix(sc.Text(), "data: ")
		if !ok {
			continue
		}
		if opened.IsZero() {
			opened = time.Now()
		}
		ev, err := agui.DecodeEvent([]byte(data))
		if err != nil {
			res.err = err
			return res, opened
		}
		res.events = append(res.events, ev)
	}
	res.err = sc.Err()
	return res, opened
}

// transcript reads thread's messages back from r and checks that every
// tool call has one result, right after its turn, in call order (the
// last turn's may await approval).
func transcript(t *testing.T, r *replica, thread string) []agui.Message {
	t.Helper()
	var doc struct{ Messages []json.RawMessage }
	if err := json.Unmarshal([]byte(history(t, r, thread)), &doc); err != nil {
		t.Fatal(err)
	}
	msgs := make([]agui.Message, len(doc.Messages))
	for i, raw := range doc.Messages {
		m, err := agui.DecodeMessage(raw)
		if err != nil {
			t.Fatal(err)
		}
		msgs[i] = m
	}
	for i := 0; i < len(msgs); i++ {
		a, ok := msgs[i].(*agui.AssistantMessage)
		if !ok {
			if _, tool := msgs[i].(*agui.ToolMessage); tool {
				t.Fatalf("message %d: a result without its turn:\n%s", i, dumpMessages(msgs))
			}
			continue
		}
		for k, c := range a.ToolCalls {
			j := i + 1 + k
			if j == len(msgs) {
				break // awaiting approval
			}
			if res, ok := msgs[j].(*agui.ToolMessage); !ok || res.ToolCallID != c.ID {
				t.Fatalf("call %s has no result at %d:\n%s", c.ID, j, dumpMessages(msgs))
			}
		}
		i += len(a.ToolCalls)
	}
	return msgs
}

func dumpMessages(msgs []agui.Message) string {
	var b strings.Builder
	for _, m := range msgs {
		j, _ := json.Marshal(m)
		fmt.Fprintf(&b, "  %s\n", j)
	}
	return b.String()
}

// userTexts are the texts of the user messages of msgs.
func userTexts(msgs []agui.Message) []string {
	var out []string
	for _, m := range msgs {
		if u, ok := m.(*agui.UserMessage); ok {
			out = append(out, u.Content.String())
		}
	}
	return out
}

// TestDoubleTextingTwoReplicas sends a second message for a thread while
// a run on replica A holds it (its book_trip takes two seconds), to
// replica B, under each of the loop's busy strategies. Both replicas
// share one Redis, or one PostgreSQL, so every request between them goes
// through the thread's checkpoint.
func TestDoubleTextingTwoReplicas(t *testing.T) {
	bin := buildApp(t)
	for _, be := range []func(*testing.T) backend{redisBackend, postgresBackend} {
		c := be(t)
		t.Run(c.name, func(t *testing.T) { doubleTexting(t, bin, c) })
	}
}

func doubleTexting(t *testing.T, bin string, c backend) {
	for _, s := range []loop.BusyStrategy{loop.BusyRefuse, loop.BusyEnqueue, loop.BusyInterrupt, loop.BusySteer} {
		t.Run(s.String(), func(t *testing.T) {
			common := append(slices.Clip(c.args), "-lease", lease.String(), "-book-delay", "2s", "-busy", s.String())
			a := startReplica(t, "A", bin, common...)
			b := startReplica(t, "B", bin, common...)
			thread := "busy-" + s.String()
			id := pause(t, a, thread)
			booking := make(chan struct{})
			var once sync.Once
			stop := a.watch(func(line string) {
				if strings.Contains(line, `msg="tool started"`) && field(line, "tool") == "book_trip" {
					once.Do(func() { close(booking) })
				}
			})
			held := make(chan runResult, 1)
			var heldEnd time.Time
			go func() {
				res := post(t.Context(), a, resume(thread, "run-2", id, true))
				heldEnd = time.Now()
				held <- res
			}()
			<-booking
			stop()
			second, opened := postOpened(t.Context(), b, say(thread, "run-3", "And a museum?"))
			secondEnd := time.Now()
			first := <-held
			msgs := transcript(t, b, thread)
			switch s {
			case loop.BusyRefuse:
				var body struct{ Code string }
				if second.status != 409 || json.Unmarshal([]byte(second.body), &body) != nil || body.Code != string(loop.CodeBusy) {
					t.Fatalf("second: %v, want a 409 THREAD_BUSY before any stream", second)
				}
				if !first.finished(agui.OutcomeSuccess) {
					t.Fatalf("first: %v", first)
				}
				if got := userTexts(msgs); len(got) != 1 {
					t.Fatalf("the refused message reached the transcript: %q", got)
				}
			case loop.BusyEnqueue:
				// The second run waited for the first, then ran: the new
				// message restarts the script, which pauses for approval.
				if !first.finished(agui.OutcomeSuccess) || !second.finished(agui.OutcomeInterrupt) || secondEnd.Before(heldEnd) {
					t.Fatalf("first %v, second %v (ended %v after the first)", first, second, secondEnd.Sub(heldEnd))
				}
				// Its stream opened at once, while the first still ran.
				if _, ok := second.events[0].(*agui.RunStarted); !ok || !opened.Before(heldEnd) {
					t.Fatalf("second stream: %v, opened %v before the first ended", second, heldEnd.Sub(opened))
				}
				if got := userTexts(msgs); len(got) != 2 || got[1] != "And a museum?" {
					t.Fatalf("user messages %q", got)
				}
			case loop.BusyInterrupt:
				if first.errorCode() != string(loop.CodeInterrupted) || !second.finished(agui.OutcomeInterrupt) {
					t.Fatalf("first %v, second %v", first, second)
				}
				if heldEnd.After(secondEnd) {
					t.Fatal("the interrupted run ended after the new one")
				}
				var cancelled bool
				for _, m := range msgs {
					if r, ok := m.(*agui.ToolMessage); ok && strings.Contains(r.Content.String(), "cancelled") {
						cancelled = true
					}
				}
				if !cancelled || len(userTexts(msgs)) != 2 {
					t.Fatalf("transcript after the interrupt:\n%s", dumpMessages(msgs))
				}
			case loop.BusySteer:
				// B hands the message over and finishes; A reads it once
				// book_trip has its result, and answers it: the restarted
				// script pauses for approval again.
				fin, ok := second.last().(*agui.RunFinished)
				if !ok || !strings.Contains(string(mustJSON(t, fin.Result)), `"steered"`) {
					t.Fatalf("second: %v", second)
				}
				if !first.finished(agui.OutcomeInterrupt) {
					t.Fatalf("first: %v", first)
				}
				var booked, steeredAfter bool
				for _, m := range msgs {
					switch m := m.(type) {
					case *agui.ToolMessage:
						booked = booked || strings.Contains(m.Content.String(), "booked")
					case *agui.UserMessage:
						steeredAfter = booked && m.Content.String() == "And a museum?"
					}
				}
				if !steeredAfter {
					t.Fatalf("the steered message is not after the batch it arrived in:\n%s", dumpMessages(msgs))
				}
			}
		})
	}
}

func mustJSON(t *testing.T, v any) []byte {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}
