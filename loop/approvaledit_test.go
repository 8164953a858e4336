package loop

import (
	"context"
	"encoding/json"
	"slices"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/agui-go/agui"
)

// editAgent: one turn calling work c1 and c2; c1 needs approval. The tool
// records the id it ran with.
func editAgent(t *testing.T, ran *journal, opts ...Option) *Agent {
	t.Helper()
	tool, err := NewTool("work", "", func(ctx context.Context, in workArgs) (string, error) {
		ran.add("%s", in.ID)
		return "done " + in.ID, nil
	})
	if err != nil {
		t.Fatal(err)
	}
	p := Script(Turn{Calls: workCalls("c1", "c2")}, Turn{Text: "ok"}, Turn{Text: "again"})
	opts = append([]Option{WithTools(tool), WithToolConcurrency(1), WithNeedsApproval(func(c Call) bool { return c.ID == "c1" })}, opts...)
	return mustNew(t, p, opts...)
}

func answer(in *agui.Interrupt, payload string) []agui.ResumeEntry {
	return []agui.ResumeEntry{{InterruptID: in.ID, Status: agui.ResumeResolved, Payload: json.RawMessage(payload)}}
}

// An approval's answer carries edited arguments: the edited call is what
// runs, what the transcript keeps and what the client is shown. A client
// that holds the call as the model asked gets a MESSAGES_SNAPSHOT with the
// edited call first; one that does not is sent the thread's history first,
// and then the same.
func TestApprovalWithEditedArguments(t *testing.T) {
	for _, withHistory := range []bool{true, false} {
		var ran journal
		a := editAgent(t, &ran)
		first, err := a.Execute(t.Context(), user("go"))
		if err != nil || first.Interrupt == nil {
			t.Fatalf("%s %v", first.FinishReason, err)
		}
		schema, _ := json.Marshal(first.Interrupt.ResponseSchema)
		if !strings.Contains(string(schema), `"arguments"`) {
			t.Fatalf("the response schema does not offer arguments: %s", schema)
		}
		rec := &recorder{}
		in := Input{ThreadID: first.ThreadID, Resume: answer(first.Interrupt, `{"approved":true,"arguments":{"id":"edited"}}`), OnEvent: rec.on}
		if withHistory {
			in.Messages = first.Messages
		}
		res, err := a.Execute(t.Context(), in)
		if err != nil {
			t.Fatal(err)
		}
		assertResult(t, res)
		if got := ran.list(); !slices.Equal(got, []string{"edited", "c2"}) {
			t.Fatalf("ran %v", got)
		}
		if got := transcriptArgs(res.Messages)["c1"]; got != `{"id":"edited"}` {
			t.Fatalf("transcript keeps %s", got)
		}
		evArgs, evRes := argsAndResults(rec.events())
		if evRes["c1"] != "done edited" {
			t.Fatalf("client got result %q", evRes["c1"])
		}
		var snapshot *agui.MessagesSnapshot
		for _, ev := range rec.events() {
			if s, ok := ev.(*agui.MessagesSnapshot); ok {
				snapshot = s
			}
		}
		// A client without the history is sent it first (MESSAGES_SNAPSHOT),
		// so both end up holding the call and are shown the edit the same
		// way: the last snapshot has the edited call, and the arguments are
		// not sent again.
		if snapshot == nil || transcriptArgs(snapshot.Messages)["c1"] != `{"id":"edited"}` {
			t.Fatalf("history %v: no snapshot with the edited call: %+v", withHistory, snapshot)
		}
		if _, sent := evArgs["c1"]; sent {
			t.Fatalf("history %v: arguments sent again to a client holding the call: %q", withHistory, evArgs["c1"])
		}
	}
}

// Edited arguments are validated against the tool's schema: invalid ones
// fail the resume with nothing run, and the approval stays pending.
func TestApprovalEditedArgumentsValidated(t *testing.T) {
	var ran journal
	a := editAgent(t, &ran)
	first, err := a.Execute(t.Context(), user("go"))
	if err != nil {
		t.Fatal(err)
	}
	for _, bad := range []string{`{"approved":true,"arguments":{"id":7}}`, `{"approved":true,"arguments":[1]}`, `{"approved":true,"arguments":"not json"}`} {
		_, err := a.Execute(t.Context(), Input{ThreadID: first.ThreadID, Resume: answer(first.Interrupt, bad)})
		if agui.CodeOf(err) != CodeBadResume {
			t.Fatalf("%s: %v, want %s", bad, err, CodeBadResume)
		}
	}
	if got := ran.list(); len(got) != 0 {
		t.Fatalf("ran %v", got)
	}
	// Still pending: a valid answer (arguments as a string, the form the
	// interrupt's metadata shows) goes through.
	res, err := a.Execute(t.Context(), Input{ThreadID: first.ThreadID, Resume: answer(first.Interrupt, `{"approved":true,"arguments":"{\"id\":\"fixed\"}"}`)})
	if err != nil {
		t.Fatal(err)
	}
	assertResult(t, res)
	if got := ran.list(); !slices.Equal(got, []string{"fixed", "c2"}) {
		t.Fatalf("ran %v", got)
	}
}

// An approval expires: the interrupt says when; approving it later gives
// the call a rejected result and fails the run with APPROVAL_EXPIRED; the
// thread is idle afterwards. In time, the approval runs the call.
func TestApprovalExpires(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		var ran journal
		a := editAgent(t, &ran, WithApprovalTimeout(time.Minute))
		start := time.Now()
		first, err := a.Execute(t.Context(), user("go"))
		if err != nil {
			t.Fatal(err)
		}
		if want := start.Add(time.Minute).UTC().Format(time.RFC3339Nano); first.Interrupt.ExpiresAt != want {
			t.Fatalf("expiresAt %q, want %q", first.Interrupt.ExpiresAt, want)
		}
		time.Sleep(time.Minute + time.Second)
		rec := &recorder{}
		res, err := a.Execute(t.Context(), Input{ThreadID: first.ThreadID, Resume: approve(first.Interrupt, true), OnEvent: rec.on})
		if agui.CodeOf(err) != CodeApprovalExpired {
			t.Fatalf("err %v, want %s", err, CodeApprovalExpired)
		}
		assertTranscript(t, res.Messages)
		if k := errorKinds(res.Messages); k["c1"] != KindRejected || k["c2"] != KindNotRun {
			t.Fatalf("kinds %v", k)
		}
		if _, evRes := argsAndResults(rec.events()); !strings.Contains(evRes["c1"], "expired") {
			t.Fatalf("client got %q", evRes["c1"])
		}
		if got := ran.list(); len(got) != 0 {
			t.Fatalf("ran %v", got)
		}
		// The thread is idle: new input continues it.
		next, err := a.Execute(t.Context(), Input{ThreadID: first.ThreadID, Messages: []agui.Message{UserText("and now?")}})
		if err != nil || next.FinishReason != FinishStop {
			t.Fatalf("next run: %s %v", next.FinishReason, err)
		}
	})
}

func TestApprovalExpiredCancelIsARejection(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		var ran journal
		a := editAgent(t, &ran, WithApprovalTimeout(time.Minute))
		first, err := a.Execute(t.Context(), user("go"))
		if err != nil {
			t.Fatal(err)
		}
		time.Sleep(2 * time.Minute)
		res, err := a.Execute(t.Context(), Input{ThreadID: first.ThreadID, Resume: []agui.ResumeEntry{{InterruptID: first.Interrupt.ID, Status: agui.ResumeCancelled}}})
		if err != nil || res.FinishReason != FinishStop {
			t.Fatalf("%s %v", res.FinishReason, err)
		}
		if k := errorKinds(res.Messages); k["c1"] != KindRejected || k["c2"] != "" {
			t.Fatalf("kinds %v", k)
		}
		if got := ran.list(); !slices.Equal(got, []string{"c2"}) {
			t.Fatalf("ran %v", got)
		}
	})
}

func TestApprovalInTime(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		var ran journal
		a := editAgent(t, &ran, WithApprovalTimeout(time.Minute))
		first, err := a.Execute(t.Context(), user("go"))
		if err != nil {
			t.Fatal(err)
		}
		time.Sleep(59 * time.Second)
		res, err := a.Execute(t.Context(), Input{ThreadID: first.ThreadID, Resume: approve(first.Interrupt, true)})
		if err != nil || res.FinishReason != FinishStop {
			t.Fatalf("%s %v", res.FinishReason, err)
		}
		if got := ran.list(); !slices.Equal(got, []string{"c1", "c2"}) {
			t.Fatalf("ran %v", got)
		}
	})
}

func TestApprovalTimeoutOption(t *testing.T) {
	if _, err := New(Script(), WithApprovalTimeout(0)); err == nil {
		t.Fatal("zero timeout accepted")
	}
}

// Hosted by core, the verifier accepts a resumed run that shows an edited
// call with a MESSAGES_SNAPSHOT, and an approval answered too late ends
// its run with RUN_ERROR APPROVAL_EXPIRED.
func TestApprovalEditAndExpiryThroughCore(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		var ran journal
		a := editAgent(t, &ran, WithApprovalTimeout(time.Minute))
		pause := func(thread string) (agui.Interrupt, []agui.Message) {
			in := agui.NewInput(thread, "run-1")
			in.Messages = []agui.Message{UserText("go")}
			evs := runCore(t, a, in)
			fin, ok := evs[len(evs)-1].(*agui.RunFinished)
			if !ok || fin.Outcome.Type != agui.OutcomeInterrupt || fin.Outcome.Interrupts[0].ExpiresAt == "" {
				t.Fatalf("events %v", types(evs))
			}
			// What the client holds: the user's message and the turn.
			am := &agui.AssistantMessage{}
			for _, ev := range evs {
				if e, ok := ev.(*agui.ToolCallStart); ok && e.ToolCallID == "c1" {
					am.ID = e.ParentMessageID
					am.ToolCalls = []agui.ToolCall{{ID: "c1", Function: agui.FunctionCall{Name: "work", Arguments: `{"id":"c1"}`}}}
				}
			}
			return fin.Outcome.Interrupts[0], append(in.Messages, am)
		}

		interrupt, history := pause("thread-1")
		in := agui.NewInput("thread-1", "run-2")
		in.Messages = history
		in.Resume = answer(&interrupt, `{"approved":true,"arguments":{"id":"edited"}}`)
		evs := runCore(t, a, in)
		var snap *agui.MessagesSnapshot
		for _, ev := range evs {
			if s, ok := ev.(*agui.MessagesSnapshot); ok {
				snap = s
			}
		}
		if _, ok := evs[len(evs)-1].(*agui.RunFinished); !ok || snap == nil || transcriptArgs(snap.Messages)["c1"] != `{"id":"edited"}` {
			t.Fatalf("events %v", types(evs))
		}
		if got := ran.list(); !slices.Equal(got, []string{"edited", "c2"}) {
			t.Fatalf("ran %v", got)
		}

		interrupt, history = pause("thread-2")
		time.Sleep(2 * time.Minute)
		in = agui.NewInput("thread-2", "run-2")
		in.Messages = history
		in.Resume = approve(&interrupt, true)
		evs = runCore(t, a, in)
		re, ok := evs[len(evs)-1].(*agui.RunError)
		if !ok || re.Code != string(CodeApprovalExpired) {
			t.Fatalf("events %v", types(evs))
		}
		_, evRes := argsAndResults(evs)
		if !strings.Contains(evRes["c1"], `"rejected"`) {
			t.Fatalf("c1 result %q", evRes["c1"])
		}
	})
}

// Arguments an approver edits pass through WithBeforeToolCall: a hook that
// denies a path denies it in the edit too, and the tool never runs with
// it. Before, the edited call skipped the hook.
func TestApprovalEditPassesBeforeToolCall(t *testing.T) {
	var ran journal
	deny := WithBeforeToolCall(func(ctx context.Context, c Call) (CallVerdict, error) {
		if strings.Contains(string(c.Args), "/etc") {
			return CallVerdict{Deny: "no /etc paths"}, nil
		}
		return CallVerdict{}, nil
	})
	a := editAgent(t, &ran, deny)
	first, err := a.Execute(t.Context(), user("go"))
	if err != nil || first.Interrupt == nil {
		t.Fatalf("%s %v", first.FinishReason, err)
	}
	res, err := a.Execute(t.Context(), Input{ThreadID: first.ThreadID, Resume: answer(first.Interrupt, `{"approved":true,"arguments":{"id":"/etc/passwd"}}`)})
	if err != nil {
		t.Fatal(err)
	}
	assertResult(t, res)
	if got := ran.list(); !slices.Equal(got, []string{"c2"}) {
		t.Fatalf("ran %v", got)
	}
	var denied *agui.ToolMessage
	for _, m := range res.Messages {
		if tm, ok := m.(*agui.ToolMessage); ok && tm.ToolCallID == "c1" {
			denied = tm
		}
	}
	if denied == nil || !strings.Contains(denied.Content.String(), `"denied"`) {
		t.Fatalf("c1 result %+v", denied)
	}
}

// An edited approval on a thread over the event limit still runs: the
// snapshot showing the edit is bounded as the history's is (the newest
// messages that fit), not the whole transcript, which was over
// agui.MaxEventSize and failed the run SERIALIZATION.
func TestApprovalEditOnLongThread(t *testing.T) {
	var ran journal
	a := editAgent(t, &ran)
	big := strings.Repeat("x", 1<<20)
	var msgs []agui.Message
	for i := range 12 {
		msgs = append(msgs, UserText(big), &agui.AssistantMessage{ID: "a" + string(rune('a'+i)), Content: "ok"})
	}
	first, err := a.Execute(t.Context(), Input{Messages: append(msgs, UserText("go"))})
	if err != nil || first.Interrupt == nil {
		t.Fatalf("%s %v", first.FinishReason, err)
	}
	rec := &recorder{}
	res, err := a.Execute(t.Context(), Input{ThreadID: first.ThreadID, Messages: first.Messages,
		Resume: answer(first.Interrupt, `{"approved":true,"arguments":{"id":"edited"}}`), OnEvent: rec.on})
	if err != nil {
		t.Fatal(err)
	}
	assertResult(t, res)
	var snapshot *agui.MessagesSnapshot
	for _, ev := range rec.events() {
		b, err := ev.AppendJSON(nil)
		if err != nil || len(b) > agui.MaxEventSize {
			t.Fatalf("%s of %d bytes (%v)", ev.Type(), len(b), err)
		}
		if s, ok := ev.(*agui.MessagesSnapshot); ok {
			snapshot = s
		}
	}
	if snapshot == nil || transcriptArgs(snapshot.Messages)["c1"] != `{"id":"edited"}` {
		t.Fatalf("no snapshot with the edited call: %+v", snapshot)
	}
}
