package loop

import (
	"context"
	"encoding/json"
	"fmt"
	"iter"
	"reflect"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/agui-go/agui"
)

// assertTranscript checks the invariant every transcript must keep: each
// tool call has exactly one result, the results directly follow their
// assistant turn, in call order.
func assertTranscript(t *testing.T, msgs []agui.Message) {
	t.Helper()
	if err := checkTranscript(msgs, false); err != nil {
		t.Fatalf("invalid transcript: %v\n%s", err, dump(msgs))
	}
}

// assertPausedTranscript is assertTranscript for a run awaiting approval:
// the last turn's calls from the paused one on have no result yet.
func assertPausedTranscript(t *testing.T, msgs []agui.Message) {
	t.Helper()
	if err := checkTranscript(msgs, true); err != nil {
		t.Fatalf("invalid transcript: %v\n%s", err, dump(msgs))
	}
}

// assertResult applies the transcript checker fitting res.
func assertResult(t *testing.T, res Result) {
	t.Helper()
	if res.FinishReason == FinishAwaitingApproval || res.FinishReason == FinishAwaitingClient {
		assertPausedTranscript(t, res.Messages)
		return
	}
	assertTranscript(t, res.Messages)
}

func checkTranscript(msgs []agui.Message, pendingOK bool) error {
	seen := map[string]bool{}
	for i := 0; i < len(msgs); i++ {
		switch m := msgs[i].(type) {
		case *agui.ToolMessage:
			return fmt.Errorf("message %d: tool result %s without its call turn right before", i, m.ToolCallID)
		case *agui.AssistantMessage:
			for k, c := range m.ToolCalls {
				if seen[c.ID] {
					return fmt.Errorf("call id %s used twice", c.ID)
				}
				seen[c.ID] = true
				j := i + 1 + k
				if j >= len(msgs) {
					if pendingOK && j == len(msgs) {
						return nil
					}
					return fmt.Errorf("call %s (#%d) has no result", c.ID, k)
				}
				tm, ok := msgs[j].(*agui.ToolMessage)
				if !ok {
					return fmt.Errorf("call %s (#%d) has no result: message %d is a %s", c.ID, k, j, msgs[j].Role())
				}
				if tm.ToolCallID != c.ID {
					return fmt.Errorf("message %d answers %s, want %s (call order)", j, tm.ToolCallID, c.ID)
				}
			}
			i += len(m.ToolCalls)
		}
	}
	return nil
}

func dump(msgs []agui.Message) string {
	var b strings.Builder
	for i, m := range msgs {
		fmt.Fprintf(&b, "%d %s", i, m.Role())
		switch m := m.(type) {
		case *agui.AssistantMessage:
			fmt.Fprintf(&b, " %q", m.Content)
			for _, c := range m.ToolCalls {
				fmt.Fprintf(&b, " call(%s %s %s)", c.ID, c.Function.Name, c.Function.Arguments)
			}
		case *agui.ToolMessage:
			fmt.Fprintf(&b, " %s: %s", m.ToolCallID, m.Content.String())
		case *agui.UserMessage:
			fmt.Fprintf(&b, " %q", m.Content.String())
		}
		b.WriteByte('\n')
	}
	return b.String()
}

// results maps call ids to their result text.
func results(msgs []agui.Message) map[string]string {
	out := map[string]string{}
	for _, m := range msgs {
		if tm, ok := m.(*agui.ToolMessage); ok {
			out[tm.ToolCallID] = tm.Content.String()
		}
	}
	return out
}

// errorKinds maps call ids to the kind of their error result ("" for
// success).
func errorKinds(msgs []agui.Message) map[string]ToolErrorKind {
	out := map[string]ToolErrorKind{}
	for _, m := range msgs {
		if tm, ok := m.(*agui.ToolMessage); ok {
			var e struct {
				Error ToolErrorKind `json:"error"`
			}
			if tm.Error != "" {
				_ = json.Unmarshal([]byte(tm.Content.String()), &e)
			}
			out[tm.ToolCallID] = e.Error
		}
	}
	return out
}

// recorder collects events; it is safe for concurrent use.
type recorder struct {
	mu  sync.Mutex
	evs []agui.Event
	// results, when set, receives the call id of each TOOL_CALL_RESULT.
	results chan string
}

func (r *recorder) on(ev agui.Event) error {
	r.mu.Lock()
	r.evs = append(r.evs, ev)
	r.mu.Unlock()
	if e, ok := ev.(*agui.ToolCallResult); ok && r.results != nil {
		r.results <- e.ToolCallID
	}
	return nil
}

func (r *recorder) events() []agui.Event {
	r.mu.Lock()
	defer r.mu.Unlock()
	return slices.Clone(r.evs)
}

// trace renders the tool-call events compactly: "call:c1" for a
// TOOL_CALL_START and "result:c1" for a TOOL_CALL_RESULT.
func (r *recorder) trace() []string {
	var out []string
	for _, ev := range r.events() {
		switch e := ev.(type) {
		case *agui.ToolCallStart:
			out = append(out, "call:"+e.ToolCallID)
		case *agui.ToolCallResult:
			out = append(out, "result:"+e.ToolCallID)
		}
	}
	return out
}

// journal is an ordered, concurrency-safe list of happenings.
type journal struct {
	mu    sync.Mutex
	items []string
}

func (l *journal) add(format string, args ...any) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.items = append(l.items, fmt.Sprintf(format, args...))
}

func (l *journal) list() []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return slices.Clone(l.items)
}

// blocker is a tool whose calls block until the test releases them, so a
// test decides the completion order without sleeping.
type blocker struct {
	mu       sync.Mutex
	gates    map[string]chan struct{}
	started  chan string // receives each call's id as it starts
	inFlight atomic.Int64
	maxSeen  atomic.Int64
	runs     atomic.Int64
	log      *journal
}

type workArgs struct {
	ID string `json:"id"`
}

func newBlocker() *blocker {
	return &blocker{gates: map[string]chan struct{}{}, started: make(chan string, 64), log: &journal{}}
}

func (b *blocker) gate(id string) chan struct{} {
	b.mu.Lock()
	defer b.mu.Unlock()
	g, ok := b.gates[id]
	if !ok {
		g = make(chan struct{})
		b.gates[id] = g
	}
	return g
}

// release lets call id finish.
func (b *blocker) release(id string) { close(b.gate(id)) }

// tool returns the "work" tool: it reports its start, waits for its
// release or the context, and returns "done <id>".
func (b *blocker) tool(t *testing.T) Tool {
	t.Helper()
	tool, err := NewTool("work", "does work", func(ctx context.Context, in workArgs) (string, error) {
		n := b.inFlight.Add(1)
		defer b.inFlight.Add(-1)
		for {
			m := b.maxSeen.Load()
			if n <= m || b.maxSeen.CompareAndSwap(m, n) {
				break
			}
		}
		b.runs.Add(1)
		b.log.add("start %s", in.ID)
		b.started <- in.ID
		select {
		case <-b.gate(in.ID):
			b.log.add("end %s", in.ID)
			return "done " + in.ID, nil
		case <-ctx.Done():
			b.log.add("cancelled %s", in.ID)
			return "", ctx.Err()
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	return tool
}

// workCalls returns scripted calls c1..cn of the work tool.
func workCalls(ids ...string) []ScriptedCall {
	out := make([]ScriptedCall, len(ids))
	for i, id := range ids {
		out[i] = ScriptedCall{ID: id, Name: "work", Args: `{"id":"` + id + `"}`}
	}
	return out
}

// echoTool returns a tool answering immediately with its input.
func echoTool(t testing.TB) Tool {
	t.Helper()
	tool, err := NewTool("echo", "echoes", func(ctx context.Context, in workArgs) (string, error) {
		return "echo " + in.ID, nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return tool
}

func echoCalls(ids ...string) []ScriptedCall {
	out := make([]ScriptedCall, len(ids))
	for i, id := range ids {
		out[i] = ScriptedCall{ID: id, Name: "echo", Args: `{"id":"` + id + `"}`}
	}
	return out
}

// mustNew builds an agent whose store checks every transcript the agent
// saves, so that each test checks the transcripts it produces.
func mustNew(t *testing.T, p Provider, opts ...Option) *Agent {
	t.Helper()
	a, err := New(p, opts...)
	if err != nil {
		t.Fatal(err)
	}
	a.cfg.store = checkedStore{Store: a.cfg.store, t: t}
	return a
}

// checkedStore runs the transcript check on every checkpoint saved: each
// tool call has exactly one result, in call order; only a running or
// paused thread may have unanswered calls at its tail. It checks Save's
// kept too: the first kept messages are the stored version's.
type checkedStore struct {
	Store
	t *testing.T
}

func (s checkedStore) Save(ctx context.Context, cp *Checkpoint, expect int64, kept int) (int64, error) {
	pendingOK := cp.Status == StatusRunning || cp.Status == StatusAwaitingApproval || cp.Status == StatusAwaitingClient
	if err := checkTranscript(cp.Messages, pendingOK); err != nil {
		s.t.Errorf("saved %s transcript of thread %s is invalid: %v\n%s", cp.Status, cp.ThreadID, err, dump(cp.Messages))
	}
	if kept < 0 || kept > len(cp.Messages) || (expect == 0 && kept > 0) {
		s.t.Errorf("save of thread %s over version %d: kept %d of %d messages", cp.ThreadID, expect, kept, len(cp.Messages))
	}
	// Unless another writer got in first (the save then conflicts), the
	// stored version's transcript starts with cp's first kept messages.
	// (Only a MemoryStore is read: other test stores' loads act.)
	m, ok := s.Store.(*MemoryStore)
	if !ok {
		return s.Store.Save(ctx, cp, expect, kept)
	}
	if prev, v, err := m.Load(ctx, cp.ThreadID); err == nil && v == expect {
		if kept > len(prev.Messages) || !slices.EqualFunc(prev.Messages[:kept], cp.Messages[:kept], func(a, b agui.Message) bool { return reflect.DeepEqual(a, b) }) {
			s.t.Errorf("save of thread %s: kept %d, but the stored transcript is not the saved one's first %d messages\nstored:\n%s\nsaved:\n%s",
				cp.ThreadID, kept, kept, dump(prev.Messages), dump(cp.Messages))
		}
	}
	return s.Store.Save(ctx, cp, expect, kept)
}

// Threads and UpdateThread pass through to the store, which is a
// ThreadStore in every test that lists threads.
func (s checkedStore) Threads(ctx context.Context, owner string, q ThreadQuery) (ThreadPage, error) {
	return s.Store.(ThreadStore).Threads(ctx, owner, q)
}

func (s checkedStore) UpdateThread(ctx context.Context, threadID string, u ThreadUpdate) (ThreadSummary, error) {
	return s.Store.(ThreadStore).UpdateThread(ctx, threadID, u)
}

// async runs Execute on its own goroutine; wait joins it.
type async struct {
	done chan struct{}
	res  Result
	err  error
}

func goExecute(ctx context.Context, a *Agent, in Input) *async {
	x := &async{done: make(chan struct{})}
	go func() {
		defer close(x.done)
		x.res, x.err = a.Execute(ctx, in)
	}()
	return x
}

func (x *async) wait() (Result, error) {
	<-x.done
	return x.res, x.err
}

func user(text string) Input { return Input{Messages: []agui.Message{UserText(text)}} }

// withMessages binds a request's messages to p, for collect.
func (s *Scripted) withMessages(msgs []agui.Message) Provider {
	return ProviderFunc(func(ctx context.Context, _ ModelRequest) iter.Seq2[Delta, error] {
		return s.Stream(ctx, ModelRequest{Messages: msgs})
	})
}
