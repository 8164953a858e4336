package eino

import (
	"bytes"
	"context"
	"errors"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/agui-go/agui"
	"github.com/agui-go/agui/client"
	"github.com/agui-go/agui/core"
	"github.com/cloudwego/eino/adk"
	"github.com/cloudwego/eino/components/tool"
	"github.com/cloudwego/eino/components/tool/utils"
	"github.com/cloudwego/eino/compose"
	"github.com/cloudwego/eino/schema"
)

// chatAgent is a ChatModelAgent on m with tools.
func chatAgent(t *testing.T, name string, m *FakeModel, tools ...tool.BaseTool) *adk.ChatModelAgent {
	t.Helper()
	cfg := &adk.ChatModelAgentConfig{Name: name, Description: name + " agent", Instruction: "You are " + name + ".", Model: m}
	if len(tools) > 0 {
		cfg.ToolsConfig = adk.ToolsConfig{ToolsNodeConfig: compose.ToolsNodeConfig{Tools: tools}}
	}
	a, err := adk.NewChatModelAgent(t.Context(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	return a
}

// weatherTool is an eino tool answering "sunny in <city>".
func weatherTool(t *testing.T) tool.BaseTool {
	t.Helper()
	w, err := utils.InferTool("get_weather", "Current weather", func(ctx context.Context, in struct {
		City string `json:"city"`
	}) (string, error) {
		return "sunny in " + in.City, nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return w
}

// logBuffer is a slog destination tests read. It is safe for concurrent
// use.
type logBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *logBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *logBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// served is an Agent behind core.NewHandler in a test server, with the
// Go client to run it and the server's log.
type served struct {
	url    string
	client *client.Agent
	log    *logBuffer
}

func serve(t *testing.T, a *Agent, opts ...core.HandlerOption) *served {
	t.Helper()
	log := new(logBuffer)
	h, err := core.NewHandler(a, append(opts, core.WithHandlerLogger(slog.New(slog.NewTextHandler(log, nil))))...)
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	c, err := client.New(srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	return &served{url: srv.URL, client: c, log: log}
}

// input is a run of thread with one user message.
func input(thread, run, text string) *agui.RunAgentInput {
	in := agui.NewInput(thread, run)
	in.Messages = []agui.Message{&agui.UserMessage{ID: "u-" + run, Content: agui.TextContent(text)}}
	return in
}

// events runs in and returns the verified events and the view.
func (s *served) events(t *testing.T, ctx context.Context, in *agui.RunAgentInput) ([]agui.Event, *client.View) {
	t.Helper()
	view, err := client.NewView(in)
	if err != nil {
		t.Fatal(err)
	}
	var evs []agui.Event
	for ev, err := range s.client.Events(ctx, in, view) {
		if err != nil {
			t.Fatal(err)
		}
		evs = append(evs, ev)
	}
	return evs, view
}

// count returns how many events of type typ evs has.
func count(evs []agui.Event, typ agui.EventType) int {
	n := 0
	for _, ev := range evs {
		if ev.Type() == typ {
			n++
		}
	}
	return n
}

// summary renders the messages a client reconstructed, one per line.
func summary(msgs []agui.Message) string {
	var b strings.Builder
	for _, m := range msgs {
		switch m := m.(type) {
		case *agui.UserMessage:
			b.WriteString("user: " + m.Content.String())
		case *agui.AssistantMessage:
			b.WriteString("assistant: " + m.Content)
			for _, c := range m.ToolCalls {
				b.WriteString(" [" + c.ID + " " + c.Function.Name + " " + c.Function.Arguments + "]")
			}
		case *agui.ToolMessage:
			b.WriteString("tool " + m.ToolCallID + ": " + m.Content.String())
		case *agui.ReasoningMessage:
			b.WriteString("reasoning: " + m.Content)
		default:
			b.WriteString(string(m.Role()))
		}
		if sub := subagentOf(m); sub != "" {
			b.WriteString(" (sub)")
		}
		b.WriteByte('\n')
	}
	return b.String()
}

func subagentOf(m agui.Message) string {
	switch m := m.(type) {
	case *agui.AssistantMessage:
		return m.SubagentRunID
	case *agui.ToolMessage:
		return m.SubagentRunID
	case *agui.ReasoningMessage:
		return m.SubagentRunID
	}
	return ""
}

// Reasoning, streamed text, a tool call with its result, then the
// answer: what a client reconstructs is the eino conversation.
func TestAgentStreamsTextReasoningAndTools(t *testing.T) {
	m := NewFakeModel(
		Turn{Chunks: []*schema.Message{
			{Role: schema.Assistant, ReasoningContent: "Need the "},
			{Role: schema.Assistant, ReasoningContent: "weather."},
			{Role: schema.Assistant, Content: "Let me check."},
			{Role: schema.Assistant, ToolCalls: []schema.ToolCall{{Index: new(0), ID: "call_1", Type: "function", Function: schema.FunctionCall{Name: "get_weather", Arguments: `{"city":`}}}},
			{Role: schema.Assistant, ToolCalls: []schema.ToolCall{{Index: new(0), Function: schema.FunctionCall{Arguments: `"Oslo"}`}}}},
		}},
		TextTurn("It is ", "sunny in Oslo."),
	)
	a, err := NewAgent(chatAgent(t, "weather", m, weatherTool(t)))
	if err != nil {
		t.Fatal(err)
	}
	s := serve(t, a)
	evs, view := s.events(t, t.Context(), input("t1", "r1", "Weather in Oslo?"))
	want := `user: Weather in Oslo?
reasoning: Need the weather.
assistant: Let me check. [call_1 get_weather {"city":"Oslo"}]
tool call_1: sunny in Oslo
assistant: It is sunny in Oslo.
`
	if got := summary(view.Messages); got != want {
		t.Fatalf("messages:\n%s\nwant:\n%s", got, want)
	}
	if o := view.Outcome(); o == nil || o.Type != agui.OutcomeSuccess {
		t.Fatalf("outcome %+v, error %+v", o, view.RunError)
	}
	for _, typ := range []agui.EventType{agui.TypeToolCallStart, agui.TypeToolCallEnd, agui.TypeToolCallResult} {
		if n := count(evs, typ); n != 1 {
			t.Fatalf("%d %s", n, typ)
		}
	}
	if n := count(evs, agui.TypeReasoningStart); n != 1 {
		t.Fatalf("%d REASONING_START", n)
	}
	// The model saw the user's message after the agent's instruction.
	in := m.Inputs()[0]
	if in[0].Role != schema.System || in[len(in)-1].Content != "Weather in Oslo?" {
		t.Fatalf("model input %v", in)
	}
}

// A transfer to another agent is a subagent: its messages are
// attributed to it, and it ends before the run does.
func TestAgentTransferIsSubagent(t *testing.T) {
	parentModel := NewFakeModel(CallTurn("call_t", transferTool, `{"agent_name":"billing"}`))
	childModel := NewFakeModel(TextTurn("Your invoice is paid."))
	parent, err := adk.SetSubAgents(t.Context(), chatAgent(t, "triage", parentModel), []adk.Agent{chatAgent(t, "billing", childModel)})
	if err != nil {
		t.Fatal(err)
	}
	a, err := NewAgent(parent)
	if err != nil {
		t.Fatal(err)
	}
	evs, view := serve(t, a).events(t, t.Context(), input("t1", "r1", "Is my invoice paid?"))
	if o := view.Outcome(); o == nil || o.Type != agui.OutcomeSuccess {
		t.Fatalf("outcome %+v, error %+v", o, view.RunError)
	}
	var started *agui.SubagentStarted
	for _, ev := range evs {
		if s, ok := ev.(*agui.SubagentStarted); ok {
			started = s
		}
	}
	if started == nil || started.Name != "billing" || started.ParentToolCallID != "call_t" || count(evs, agui.TypeSubagentFinished) != 1 {
		t.Fatalf("subagent %+v in %v", started, types(evs))
	}
	got := summary(view.Messages)
	if !strings.Contains(got, "assistant: Your invoice is paid. (sub)") || !strings.Contains(got, "[call_t transfer_to_agent") {
		t.Fatalf("messages:\n%s", got)
	}
}

func types(evs []agui.Event) []agui.EventType {
	out := make([]agui.EventType, len(evs))
	for i, ev := range evs {
		out[i] = ev.Type()
	}
	return out
}

// approvalTool interrupts until resumed, then reports what the user
// answered.
func approvalTool(t *testing.T) tool.BaseTool {
	t.Helper()
	w, err := utils.InferTool("book_flight", "Book a flight", func(ctx context.Context, in struct {
		To string `json:"to"`
	}) (string, error) {
		wasInterrupted, _, _ := tool.GetInterruptState[any](ctx)
		if !wasInterrupted {
			return "", tool.Interrupt(ctx, "Book the flight to "+in.To+"?")
		}
		isTarget, hasData, entry := tool.GetResumeContext[agui.ResumeEntry](ctx)
		if !isTarget || !hasData {
			return "", tool.Interrupt(ctx, "Book the flight to "+in.To+"?")
		}
		if entry.Status != agui.ResumeResolved {
			return "not booked", nil
		}
		return "booked to " + in.To, nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return w
}

// bookingAgent is a travel agent on m with the approval tool, its
// checkpoints in memory.
func bookingAgent(t *testing.T, m *FakeModel) *Agent {
	t.Helper()
	store, err := NewCheckPointStore(new(MemoryKV))
	if err != nil {
		t.Fatal(err)
	}
	a, err := NewAgent(chatAgent(t, "travel", m, approvalTool(t)), WithCheckPointStore(store))
	if err != nil {
		t.Fatal(err)
	}
	return a
}

// An interrupt pauses the run with an AG-UI interrupt; the next run's
// resume continues it from the checkpoint, the tool reading the answer.
func TestAgentInterruptAndResume(t *testing.T) {
	s := serve(t, bookingAgent(t, NewFakeModel(CallTurn("call_b", "book_flight", `{"to":"Oslo"}`), TextTurn("Booked."))))
	evs, view := s.events(t, t.Context(), input("t1", "r1", "Book Oslo."))
	o := view.Outcome()
	if o == nil || o.Type != agui.OutcomeInterrupt || len(o.Interrupts) != 1 {
		t.Fatalf("outcome %+v, error %+v, events %v", o, view.RunError, types(evs))
	}
	in := o.Interrupts[0]
	if in.Reason != ReasonInterrupt || in.ToolCallID != "call_b" || in.Message != "Book the flight to Oslo?" {
		t.Fatalf("interrupt %+v", in)
	}
	if n := count(evs, agui.TypeToolCallResult); n != 0 {
		t.Fatalf("%d results before the answer", n)
	}

	resume := agui.NewInput("t1", "r2")
	resume.Messages = view.Messages
	resume.Resume = []agui.ResumeEntry{{InterruptID: in.ID, Status: agui.ResumeResolved, Payload: map[string]any{"approved": true}}}
	_, view2 := s.events(t, t.Context(), resume)
	if o := view2.Outcome(); o == nil || o.Type != agui.OutcomeSuccess {
		t.Fatalf("resumed outcome %+v, error %+v", o, view2.RunError)
	}
	got := summary(view2.Messages)
	if !strings.HasSuffix(got, "tool call_b: booked to Oslo\nassistant: Booked.\n") {
		t.Fatalf("messages after resume:\n%s", got)
	}

	// The same answer again is stale: the thread is no longer paused, and
	// the tool does not run twice.
	again := agui.NewInput("t1", "r3")
	again.Messages = view2.Messages
	again.Resume = resume.Resume
	evs, view3 := s.events(t, t.Context(), again)
	if view3.RunError == nil || view3.RunError.Code != string(CodeCheckPointFailed) || count(evs, agui.TypeToolCallResult) != 0 {
		t.Fatalf("stale resume: error %+v events %v", view3.RunError, types(evs))
	}
}

// A paused thread belongs to the principal whose run paused it: another
// principal who sends its thread id and the interrupt's id resumes
// nothing, and a run of theirs on that id completing leaves the paused
// run for its owner to resume.
func TestAgentCheckpointsBelongToTheirPrincipal(t *testing.T) {
	a := bookingAgent(t, NewFakeModel(CallTurn("call_b", "book_flight", `{"to":"Oslo"}`), TextTurn("Hello, bob."), TextTurn("Booked.")))
	var err error
	alice := serve(t, a, core.WithPrincipal(func(r *http.Request) (string, error) { return r.Header.Get("X-User"), nil }))
	bob := *alice
	for who, s := range map[string]*served{"alice": alice, "bob": &bob} {
		if s.client, err = client.New(s.url, client.WithHeader("X-User", who)); err != nil {
			t.Fatal(err)
		}
	}
	_, view := alice.events(t, t.Context(), input("t1", "r1", "Book Oslo."))
	o := view.Outcome()
	if o == nil || o.Type != agui.OutcomeInterrupt || len(o.Interrupts) != 1 {
		t.Fatalf("outcome %+v, error %+v", o, view.RunError)
	}
	answer := []agui.ResumeEntry{{InterruptID: o.Interrupts[0].ID, Status: agui.ResumeResolved}}

	forged := agui.NewInput("t1", "r2")
	forged.Messages = view.Messages
	forged.Resume = answer
	evs, forgedView := bob.events(t, t.Context(), forged)
	if forgedView.RunError == nil || forgedView.RunError.Code != string(CodeCheckPointFailed) || count(evs, agui.TypeToolCallResult) != 0 {
		t.Fatalf("bob's resume of alice's thread: error %+v, events %v", forgedView.RunError, types(evs))
	}
	if _, v := bob.events(t, t.Context(), input("t1", "r3", "Hi.")); v.Outcome() == nil || v.Outcome().Type != agui.OutcomeSuccess {
		t.Fatalf("bob's own run on t1: error %+v", v.RunError)
	}

	resume := agui.NewInput("t1", "r4")
	resume.Messages = view.Messages
	resume.Resume = answer
	_, resumed := alice.events(t, t.Context(), resume)
	if o := resumed.Outcome(); o == nil || o.Type != agui.OutcomeSuccess {
		t.Fatalf("alice's resume: outcome %+v, error %+v", o, resumed.RunError)
	}
	if got := summary(resumed.Messages); !strings.HasSuffix(got, "tool call_b: booked to Oslo\nassistant: Booked.\n") {
		t.Fatalf("alice's messages after resume:\n%s", got)
	}
}

// Without a checkpoint store an interrupt cannot be resumed, so the run
// says so instead of pausing for good; a resume is refused the same way.
func TestAgentInterruptWithoutStore(t *testing.T) {
	a, err := NewAgent(chatAgent(t, "travel", NewFakeModel(CallTurn("call_b", "book_flight", `{"to":"Oslo"}`)), approvalTool(t)))
	if err != nil {
		t.Fatal(err)
	}
	s := serve(t, a)
	_, view := s.events(t, t.Context(), input("t1", "r1", "Book Oslo."))
	if view.RunError == nil || view.RunError.Code != string(CodeCheckPointFailed) {
		t.Fatalf("run error %+v", view.RunError)
	}
	resume := agui.NewInput("t1", "r2")
	resume.Resume = []agui.ResumeEntry{{InterruptID: "x", Status: agui.ResumeResolved}}
	_, view = s.events(t, t.Context(), resume)
	if view.RunError == nil || view.RunError.Code != string(CodeCheckPointFailed) {
		t.Fatalf("resume error %+v", view.RunError)
	}
}

// A resume of a thread with no checkpoint fails with the checkpoint
// code, and the store's answer is in the log.
func TestAgentResumeUnknownThread(t *testing.T) {
	store, _ := NewCheckPointStore(new(MemoryKV))
	a, _ := NewAgent(chatAgent(t, "travel", NewFakeModel()), WithCheckPointStore(store))
	s := serve(t, a)
	resume := agui.NewInput("nobody", "r1")
	resume.Resume = []agui.ResumeEntry{{InterruptID: "x", Status: agui.ResumeResolved}}
	_, view := s.events(t, t.Context(), resume)
	if view.RunError == nil || view.RunError.Code != string(CodeCheckPointFailed) {
		t.Fatalf("resume error %+v", view.RunError)
	}
	if !strings.Contains(s.log.String(), "not exist") {
		t.Fatalf("log lacks the cause:\n%s", s.log.String())
	}
}

// Session values are the shared state: the client's state goes in, and
// what the agent adds comes out.
func TestAgentSessionValuesAreState(t *testing.T) {
	remember, err := utils.InferTool("remember", "Remember a city", func(ctx context.Context, in struct {
		City string `json:"city"`
	}) (string, error) {
		visits, _ := adk.GetSessionValue(ctx, "visits")
		n, _ := visits.(float64)
		adk.AddSessionValue(ctx, "city", in.City)
		adk.AddSessionValue(ctx, "visits", n+1)
		adk.AddSessionValue(ctx, "unencodable", make(chan int))
		return "ok", nil
	})
	if err != nil {
		t.Fatal(err)
	}
	m := NewFakeModel(CallTurn("call_r", "remember", `{"city":"Oslo"}`), TextTurn("Noted."))
	a, _ := NewAgent(chatAgent(t, "memo", m, remember))
	in := input("t1", "r1", "Remember Oslo.")
	in.State = map[string]any{"visits": 2}
	evs, view := serve(t, a).events(t, t.Context(), in)
	st, err := client.State[map[string]any](view)
	if err != nil {
		t.Fatal(err)
	}
	if st["city"] != "Oslo" || st["visits"] != float64(3) || len(st) != 2 {
		t.Fatalf("state %v (events %v)", st, types(evs))
	}
}

// An error the eino agent reports ends the run with a coded RUN_ERROR;
// the client sees a fixed message, the log the whole error.
func TestAgentFrameworkError(t *testing.T) {
	m := NewFakeModel(Turn{Err: errors.New("upstream 502 from 10.0.0.7")})
	a, _ := NewAgent(chatAgent(t, "weather", m))
	s := serve(t, a)
	_, view := s.events(t, t.Context(), input("t1", "r1", "hi"))
	if view.RunError == nil || view.RunError.Code != string(CodeRunnerFailed) || strings.Contains(view.RunError.Message, "10.0.0.7") {
		t.Fatalf("run error %+v", view.RunError)
	}
	if !strings.Contains(s.log.String(), "upstream 502 from 10.0.0.7") {
		t.Fatalf("log lacks the error:\n%s", s.log.String())
	}
}

// A panic inside eino's run (here in a tool) ends the run with a coded
// RUN_ERROR, not a crash, and leaves no goroutine behind (TestMain).
func TestAgentPanicInTool(t *testing.T) {
	boom, err := utils.InferTool("boom", "Panics", func(ctx context.Context, in struct{}) (string, error) {
		panic("tool exploded")
	})
	if err != nil {
		t.Fatal(err)
	}
	a, _ := NewAgent(chatAgent(t, "p", NewFakeModel(CallTurn("call_x", "boom", `{}`)), boom))
	s := serve(t, a)
	evs, view := s.events(t, t.Context(), input("t1", "r1", "hi"))
	if view.RunError == nil || view.RunError.Code != string(CodeRunnerPanic) {
		t.Fatalf("run error %+v (events %v)", view.RunError, types(evs))
	}
	if !strings.Contains(s.log.String(), "tool exploded") {
		t.Fatalf("log lacks the panic:\n%s", s.log.String())
	}
}

// A panic in the model, which eino calls from its own goroutine, is
// recovered the same way.
func TestAgentPanicInModel(t *testing.T) {
	a, _ := NewAgent(chatAgent(t, "p", NewFakeModel(Turn{Panic: "model exploded"})))
	_, view := serve(t, a).events(t, t.Context(), input("t1", "r1", "hi"))
	if view.RunError == nil || view.RunError.Code != string(CodeRunnerPanic) {
		t.Fatalf("run error %+v", view.RunError)
	}
}

// A client that leaves mid-answer cancels the run: the cancellation
// reaches the model through the runner, and every goroutine ends
// (TestMain's goleak).
func TestAgentCancelMidStream(t *testing.T) {
	sent := make(chan struct{})
	m := NewFakeModel(Turn{Chunks: TextTurn("Once upon").Chunks, Hang: true, Sent: sent})
	a, _ := NewAgent(chatAgent(t, "story", m))
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	var got []agui.EventType
	for ev, err := range core.Run(ctx, a, input("t1", "r1", "Tell a story.")) {
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, ev.Type())
		if ev.Type() == agui.TypeTextMessageContent {
			<-sent
			cancel()
		}
	}
	last := got[len(got)-1]
	if last != agui.TypeRunError || !slices.Contains(got, agui.TypeTextMessageContent) {
		t.Fatalf("events %v", got)
	}
}

// A panic in an eino callback (here a ChatModelAgent middleware's
// AfterChatModel) is recovered the same way.
func TestAgentPanicInCallback(t *testing.T) {
	chat, err := adk.NewChatModelAgent(t.Context(), &adk.ChatModelAgentConfig{
		Name: "p", Description: "p", Model: NewFakeModel(TextTurn("hello")),
		Middlewares: []adk.AgentMiddleware{{AfterChatModel: func(context.Context, *adk.ChatModelAgentState) error {
			panic("callback exploded")
		}}},
	})
	if err != nil {
		t.Fatal(err)
	}
	a, _ := NewAgent(chat)
	s := serve(t, a)
	evs, view := s.events(t, t.Context(), input("t1", "r1", "hi"))
	if view.RunError == nil || view.RunError.Code != string(CodeRunnerPanic) {
		t.Fatalf("run error %+v (events %v)", view.RunError, types(evs))
	}
	if !strings.Contains(s.log.String(), "callback exploded") {
		t.Fatalf("log lacks the panic:\n%s", s.log.String())
	}
}

// An interrupt inside an agent transferred to is attributed to its
// subagent, which ends suspended; the resume continues inside it.
func TestAgentInterruptInSubagent(t *testing.T) {
	store, _ := NewCheckPointStore(new(MemoryKV))
	parent, err := adk.SetSubAgents(t.Context(),
		chatAgent(t, "triage", NewFakeModel(CallTurn("call_t", transferTool, `{"agent_name":"travel"}`))),
		[]adk.Agent{chatAgent(t, "travel", NewFakeModel(CallTurn("call_b", "book_flight", `{"to":"Oslo"}`), TextTurn("Booked.")), approvalTool(t))})
	if err != nil {
		t.Fatal(err)
	}
	a, _ := NewAgent(parent, WithCheckPointStore(store))
	s := serve(t, a)
	evs, view := s.events(t, t.Context(), input("t1", "r1", "Book Oslo."))
	o := view.Outcome()
	if o == nil || o.Type != agui.OutcomeInterrupt || len(o.Interrupts) != 1 {
		t.Fatalf("outcome %+v, error %+v, events %v", o, view.RunError, types(evs))
	}
	in := o.Interrupts[0]
	var fin *agui.SubagentFinished
	for _, ev := range evs {
		if f, ok := ev.(*agui.SubagentFinished); ok {
			fin = f
		}
	}
	if fin == nil || fin.Outcome == nil || fin.Outcome.Type != "suspended" || in.SubagentRunID != fin.SubagentRunID || in.ToolCallID != "call_b" {
		t.Fatalf("interrupt %+v, subagent end %+v", in, fin)
	}

	resume := agui.NewInput("t1", "r2")
	resume.Messages = view.Messages
	resume.Resume = []agui.ResumeEntry{{InterruptID: in.ID, Status: agui.ResumeResolved}}
	evs, view = s.events(t, t.Context(), resume)
	if o := view.Outcome(); o == nil || o.Type != agui.OutcomeSuccess {
		t.Fatalf("resumed outcome %+v, error %+v, events %v", o, view.RunError, types(evs))
	}
	got := summary(view.Messages)
	if !strings.HasSuffix(got, "tool call_b: booked to Oslo (sub)\nassistant: Booked. (sub)\n") {
		t.Fatalf("messages after resume:\n%s", got)
	}
}

// scriptedAgent is an adk.Agent written by hand: it sends whole
// (unstreamed) messages and an output AG-UI has no event for.
type scriptedAgent struct{}

func (scriptedAgent) Name(context.Context) string        { return "hand" }
func (scriptedAgent) Description(context.Context) string { return "a hand-written agent" }

func (scriptedAgent) Run(ctx context.Context, in *adk.AgentInput, _ ...adk.AgentRunOption) *adk.AsyncIterator[*adk.AgentEvent] {
	it, gen := adk.NewAsyncIteratorPair[*adk.AgentEvent]()
	go func() {
		defer gen.Close()
		msg := &schema.Message{Role: schema.Assistant, ReasoningContent: "Easy.", Content: "You said: " + in.Messages[len(in.Messages)-1].Content}
		gen.Send(adk.EventFromMessage(msg, nil, schema.Assistant, ""))
		gen.Send(&adk.AgentEvent{Output: &adk.AgentOutput{CustomizedOutput: map[string]int{"n": 1}}})
		adk.AddSessionValue(ctx, "echoed", true)
		gen.Send(&adk.AgentEvent{Action: adk.NewExitAction()})
	}()
	return it
}

// Any adk.Agent is served, not only eino's prebuilt ones: whole messages
// stream as one delta each, and outputs without an AG-UI event are
// skipped.
func TestAgentHandWritten(t *testing.T) {
	a, _ := NewAgent(scriptedAgent{})
	evs, view := serve(t, a).events(t, t.Context(), input("t1", "r1", "hi"))
	if got := summary(view.Messages); got != "user: hi\nreasoning: Easy.\nassistant: You said: hi\n" {
		t.Fatalf("messages:\n%s", got)
	}
	if st, _ := client.State[map[string]any](view); st["echoed"] != true {
		t.Fatalf("state %v (events %v)", view.State, types(evs))
	}
}

// handInterrupter interrupts with an AgentAction built by hand (Data,
// no interrupt contexts), for which eino's runner saves no checkpoint.
type handInterrupter struct{}

func (handInterrupter) Name(context.Context) string        { return "hand" }
func (handInterrupter) Description(context.Context) string { return "interrupts by hand" }

func (handInterrupter) Run(context.Context, *adk.AgentInput, ...adk.AgentRunOption) *adk.AsyncIterator[*adk.AgentEvent] {
	it, gen := adk.NewAsyncIteratorPair[*adk.AgentEvent]()
	gen.Send(&adk.AgentEvent{Action: &adk.AgentAction{Interrupted: &adk.InterruptInfo{Data: "Continue?"}}})
	gen.Close()
	return it
}

// Such an interrupt could never be resumed, so the run says so rather
// than pausing the thread for good.
func TestAgentInterruptWithoutCheckpoint(t *testing.T) {
	a, _ := NewAgent(handInterrupter{}, WithCheckPointStore(must(NewCheckPointStore(new(MemoryKV)))))
	_, view := serve(t, a).events(t, t.Context(), input("t1", "r1", "go"))
	if view.RunError == nil || view.RunError.Code != string(CodeCheckPointFailed) {
		t.Fatalf("outcome %+v error %+v", view.Outcome(), view.RunError)
	}
}

func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}

// An agent used as a tool (adk.NewAgentTool) whose internal events are
// emitted is a subagent under the tool call that runs it.
func TestAgentToolIsSubagent(t *testing.T) {
	inner := chatAgent(t, "researcher", NewFakeModel(TextTurn("Oslo has ", "fjords.")))
	outer, err := adk.NewChatModelAgent(t.Context(), &adk.ChatModelAgentConfig{
		Name: "lead", Description: "lead", Instruction: "Delegate.",
		Model: NewFakeModel(CallTurn("call_r", "researcher", `{"request":"Oslo"}`), TextTurn("Done.")),
		ToolsConfig: adk.ToolsConfig{
			ToolsNodeConfig:    compose.ToolsNodeConfig{Tools: []tool.BaseTool{adk.NewAgentTool(t.Context(), inner)}},
			EmitInternalEvents: true,
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	a, _ := NewAgent(outer)
	evs, view := serve(t, a).events(t, t.Context(), input("t1", "r1", "Research Oslo."))
	if o := view.Outcome(); o == nil || o.Type != agui.OutcomeSuccess {
		t.Fatalf("outcome %+v error %+v events %v", o, view.RunError, types(evs))
	}
	var started *agui.SubagentStarted
	for _, ev := range evs {
		if s, ok := ev.(*agui.SubagentStarted); ok {
			started = s
		}
	}
	if started == nil || started.Name != "researcher" || started.ParentToolCallID != "call_r" {
		t.Fatalf("subagent %+v, events %v", started, types(evs))
	}
	got := summary(view.Messages)
	if !strings.Contains(got, "assistant: Oslo has fjords. (sub)\n") || !strings.HasSuffix(got, "assistant: Done.\n") {
		t.Fatalf("messages:\n%s", got)
	}
}
