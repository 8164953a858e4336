package genkit

import (
	"bytes"
	"context"
	"errors"
	"log/slog"
	"slices"
	"strings"
	"testing"

	"github.com/agui-go/agui"
	"github.com/agui-go/agui/core"
	"github.com/agui-go/agui/loop"
	"github.com/firebase/genkit/go/ai"
	gk "github.com/firebase/genkit/go/genkit"
)

type city struct {
	City string `json:"city"`
}

// Text streams from chunks; the tool call gets START, ARGS, END and its
// RESULT; the second turn's answer, which the model did not stream,
// comes from its response; usage adds up on RUN_FINISHED.
func TestAgentStreamsTextAndToolCalls(t *testing.T) {
	g := newGenkit(t)
	m := &scriptedModel{turns: []modelTurn{
		{
			chunks: []*ai.Part{ai.NewReasoningPart("Weather needs a tool.", nil), ai.NewTextPart("Let me "), ai.NewTextPart("check.")},
			parts:  []*ai.Part{ai.NewTextPart("Let me check."), toolRequest("weather", map[string]any{"city": "Oslo"})},
			usage:  &ai.GenerationUsage{InputTokens: 10, OutputTokens: 4},
		},
		{parts: []*ai.Part{ai.NewTextPart("Sunny in Oslo.")}, usage: &ai.GenerationUsage{InputTokens: 20, OutputTokens: 3}},
	}}
	model := m.define(g, "test/weather")
	weather := gk.DefineTool(g, "weather", "Current weather", func(tc *ai.ToolContext, in city) (string, error) {
		return "sunny in " + in.City, nil
	})
	a, err := NewAgent(g, ai.WithModel(model), ai.WithTools(weather))
	if err != nil {
		t.Fatal(err)
	}
	evs := runAgent(t, t.Context(), a, userInput("run-1", "Weather in Oslo?"))
	want := []agui.EventType{
		agui.TypeRunStarted,
		agui.TypeReasoningStart, agui.TypeReasoningMessageStart, agui.TypeReasoningMessageContent, agui.TypeReasoningMessageEnd, agui.TypeReasoningEnd,
		agui.TypeTextMessageStart, agui.TypeTextMessageContent, agui.TypeTextMessageContent, agui.TypeTextMessageEnd,
		agui.TypeToolCallStart, agui.TypeToolCallArgs, agui.TypeToolCallEnd, agui.TypeToolCallResult,
		agui.TypeTextMessageStart, agui.TypeTextMessageContent, agui.TypeTextMessageEnd,
		agui.TypeRunFinished,
	}
	if got := types(evs); !slices.Equal(got, want) {
		t.Fatalf("events\n got %v\nwant %v", got, want)
	}
	if got := said(evs); got != "Let me check.Sunny in Oslo." {
		t.Fatalf("text %q", got)
	}
	var start *agui.ToolCallStart
	var args string
	var result *agui.ToolCallResult
	for _, ev := range evs {
		switch ev := ev.(type) {
		case *agui.ToolCallStart:
			start = ev
		case *agui.ToolCallArgs:
			args += ev.Delta
		case *agui.ToolCallResult:
			result = ev
		}
	}
	if start.ToolCallName != "weather" || args != `{"city":"Oslo"}` || result.ToolCallID != start.ToolCallID || result.Content.String() != "sunny in Oslo" {
		t.Fatalf("start %+v args %s result %+v", start, args, result)
	}
	fin := evs[len(evs)-1].(*agui.RunFinished)
	if len(fin.Usage) != 1 || *fin.Usage[0].InputTokens != 30 || *fin.Usage[0].OutputTokens != 7 {
		t.Fatalf("usage %+v", fin.Usage)
	}
	// The second model call saw the tool's response under the call's id.
	reqs := m.requests()
	last := reqs[1].Messages[len(reqs[1].Messages)-1]
	if last.Role != ai.RoleTool || last.Content[0].ToolResponse.Ref != start.ToolCallID {
		t.Fatalf("second request's last message %+v", last)
	}
}

// A tool interrupt ends the run with an AG-UI interrupt on the call; the
// call that finished gets its result. The next run answers the
// interrupt: a payload becomes the tool's output (ai.WithToolResponses),
// and Genkit goes on from the interrupted turn.
func TestAgentInterruptAndRespond(t *testing.T) {
	g := newGenkit(t)
	m := &scriptedModel{turns: []modelTurn{
		{parts: []*ai.Part{toolRequest("book", map[string]any{"city": "Oslo"}), toolRequest("weather", map[string]any{"city": "Oslo"})}},
		{chunks: []*ai.Part{ai.NewTextPart("Booked, and sunny.")}},
	}}
	model := m.define(g, "test/booker")
	book := gk.DefineTool(g, "book", "Books a trip", func(tc *ai.ToolContext, in city) (string, error) {
		return "", tc.Interrupt(&ai.InterruptOptions{Metadata: map[string]any{"question": "Book " + in.City + "?"}})
	})
	weather := gk.DefineTool(g, "weather", "Current weather", func(tc *ai.ToolContext, in city) (string, error) {
		return "sunny", nil
	})
	a, err := NewAgent(g, ai.WithModel(model), ai.WithTools(book, weather))
	if err != nil {
		t.Fatal(err)
	}
	first := runAgent(t, t.Context(), a, userInput("run-1", "Book Oslo"))
	fin, ok := first[len(first)-1].(*agui.RunFinished)
	if !ok || fin.Outcome.Type != agui.OutcomeInterrupt || len(fin.Outcome.Interrupts) != 1 {
		t.Fatalf("first run ended %#v", first[len(first)-1])
	}
	in := fin.Outcome.Interrupts[0]
	if in.Reason != ReasonToolInterrupt || in.ToolCallID != in.ID || in.Metadata["question"] != "Book Oslo?" {
		t.Fatalf("interrupt %+v", in)
	}
	// What a client keeps of the first run: the assistant's two calls
	// and the weather call's result.
	msgs := []agui.Message{&agui.UserMessage{ID: "u1", Content: agui.TextContent("Book Oslo")}}
	assistant := &agui.AssistantMessage{ID: "a1"}
	for _, ev := range first {
		switch ev := ev.(type) {
		case *agui.ToolCallStart:
			assistant.ToolCalls = append(assistant.ToolCalls, agui.ToolCall{ID: ev.ToolCallID, Function: agui.FunctionCall{Name: ev.ToolCallName}})
		case *agui.ToolCallArgs:
			assistant.ToolCalls[len(assistant.ToolCalls)-1].Function.Arguments += ev.Delta
		}
	}
	msgs = append(msgs, assistant)
	var weatherResults int
	for _, ev := range first {
		if r, ok := ev.(*agui.ToolCallResult); ok {
			weatherResults++
			msgs = append(msgs, &agui.ToolMessage{ID: r.MessageID, ToolCallID: r.ToolCallID, Content: r.Content})
		}
	}
	if weatherResults != 1 {
		t.Fatalf("first run sent %d results, want the weather call's", weatherResults)
	}
	second := agui.NewInput("thread-1", "run-2")
	second.Messages = msgs
	second.Resume = []agui.ResumeEntry{{InterruptID: in.ID, Status: agui.ResumeResolved, Payload: "booked"}}
	evs := runAgent(t, t.Context(), a, second)
	if _, ok := evs[len(evs)-1].(*agui.RunFinished); !ok || said(evs) != "Booked, and sunny." {
		t.Fatalf("second run %v said %q", types(evs), said(evs))
	}
	var results []string
	for _, ev := range evs {
		if r, ok := ev.(*agui.ToolCallResult); ok {
			results = append(results, r.ToolCallID+"="+r.Content.String())
		}
	}
	if !slices.Equal(results, []string{in.ID + "=booked"}) {
		t.Fatalf("second run's results %v", results)
	}
	reqs := m.requests()
	tool := reqs[1].Messages[len(reqs[1].Messages)-1]
	if tool.Role != ai.RoleTool || len(tool.Content) != 2 {
		t.Fatalf("resumed request's tool message %+v", tool)
	}
}

// Resolving an interrupt without a payload runs the tool again, which
// sees the entry's metadata as its resumed metadata.
func TestAgentInterruptAndRestart(t *testing.T) {
	g := newGenkit(t)
	m := &scriptedModel{turns: []modelTurn{
		{parts: []*ai.Part{toolRequest("book", map[string]any{"city": "Oslo"})}},
		{parts: []*ai.Part{ai.NewTextPart("Done.")}},
	}}
	model := m.define(g, "test/restart")
	book := gk.DefineTool(g, "book", "Books a trip", func(tc *ai.ToolContext, in city) (string, error) {
		if tc.Resumed == nil {
			return "", tc.Interrupt(&ai.InterruptOptions{Metadata: map[string]any{"question": "Sure?"}})
		}
		return "booked by " + tc.Resumed["by"].(string), nil
	})
	a, err := NewAgent(g, ai.WithModel(model), ai.WithTools(book))
	if err != nil {
		t.Fatal(err)
	}
	first := runAgent(t, t.Context(), a, userInput("run-1", "Book Oslo"))
	fin := first[len(first)-1].(*agui.RunFinished)
	id := fin.Outcome.Interrupts[0].ID
	second := agui.NewInput("thread-1", "run-2")
	second.Messages = []agui.Message{
		&agui.UserMessage{ID: "u1", Content: agui.TextContent("Book Oslo")},
		&agui.AssistantMessage{ID: "a1", ToolCalls: []agui.ToolCall{{ID: id, Function: agui.FunctionCall{Name: "book", Arguments: `{"city":"Oslo"}`}}}},
	}
	second.Resume = []agui.ResumeEntry{{InterruptID: id, Status: agui.ResumeResolved, Metadata: map[string]any{"by": "Ada"}}}
	evs := runAgent(t, t.Context(), a, second)
	var result string
	for _, ev := range evs {
		if r, ok := ev.(*agui.ToolCallResult); ok {
			result = r.Content.String()
		}
	}
	if result != "booked by Ada" || said(evs) != "Done." {
		t.Fatalf("result %q said %q events %v", result, said(evs), types(evs))
	}
	// A resume naming no interrupted call is refused with a code.
	bad := agui.NewInput("thread-1", "run-3")
	bad.Messages = second.Messages
	bad.Resume = []agui.ResumeEntry{{InterruptID: "nope", Status: agui.ResumeResolved}}
	evs = runAgent(t, t.Context(), a, bad)
	if re, ok := evs[len(evs)-1].(*agui.RunError); !ok || re.Code != string(loop.CodeBadResume) {
		t.Fatalf("bad resume ended %#v", evs[len(evs)-1])
	}
}

// The model's error ends the run with GENKIT_ERROR, its fixed message on
// the wire and the cause in the log.
func TestAgentErrorIsCoded(t *testing.T) {
	g := newGenkit(t)
	m := &scriptedModel{turns: []modelTurn{{chunks: []*ai.Part{ai.NewTextPart("Hel")}, err: errors.New("quota exceeded for key k-123")}}}
	a, err := NewAgent(g, ai.WithModel(m.define(g, "test/failing")))
	if err != nil {
		t.Fatal(err)
	}
	var log bytes.Buffer
	evs := runAgent(t, t.Context(), a, userInput("run-1", "Hi"), core.WithLogger(slog.New(slog.NewTextHandler(&log, nil))))
	re, ok := evs[len(evs)-1].(*agui.RunError)
	if !ok || re.Code != string(CodeGenerate) || strings.Contains(re.Message, "k-123") {
		t.Fatalf("last event %#v", evs[len(evs)-1])
	}
	if !strings.Contains(log.String(), "quota exceeded for key k-123") {
		t.Fatalf("log lacks the cause: %s", log.String())
	}
}

// A model that panics inside Genkit ends the run with a coded RUN_ERROR,
// and the process lives.
func TestAgentModelPanicIsCoded(t *testing.T) {
	g := newGenkit(t)
	m := &scriptedModel{turns: []modelTurn{{chunks: []*ai.Part{ai.NewTextPart("Hel")}, panic: "boom"}}}
	a, err := NewAgent(g, ai.WithModel(m.define(g, "test/panicking")))
	if err != nil {
		t.Fatal(err)
	}
	var log bytes.Buffer
	evs := runAgent(t, t.Context(), a, userInput("run-1", "Hi"), core.WithLogger(slog.New(slog.NewTextHandler(&log, nil))))
	re, ok := evs[len(evs)-1].(*agui.RunError)
	if !ok || re.Code != string(agui.CodePanic) {
		t.Fatalf("last event %#v", evs[len(evs)-1])
	}
	if !strings.Contains(log.String(), "boom") {
		t.Fatalf("log lacks the panic: %s", log.String())
	}
}

// Cancelling the run mid-stream reaches the model's context and ends the
// run with RUN_ERROR CANCELLED.
func TestAgentCancelMidStream(t *testing.T) {
	g := newGenkit(t)
	m := &scriptedModel{turns: []modelTurn{{chunks: []*ai.Part{ai.NewTextPart("Hel")}, block: true}}}
	a, err := NewAgent(g, ai.WithModel(m.define(g, "test/blocking")))
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	v := agui.NewVerifier()
	var last agui.Event
	for ev, err := range core.Run(ctx, a, userInput("run-1", "Hi")) {
		if err != nil {
			t.Fatal(err)
		}
		if err := v.Observe(ev); err != nil {
			t.Fatal(err)
		}
		if c, ok := ev.(*agui.TextMessageContent); ok && c.Delta == "Hel" {
			cancel()
		}
		last = ev
	}
	if re, ok := last.(*agui.RunError); !ok || re.Code != string(agui.CodeCancelled) {
		t.Fatalf("last event %#v", last)
	}
}

func TestNewAgentRefusesNil(t *testing.T) {
	if _, err := NewAgent(nil); err == nil {
		t.Fatal("NewAgent(nil) succeeded")
	}
}

// A model that reports no tokens adds no usage entry.
func TestAgentWithoutTokensReportsNoUsage(t *testing.T) {
	g := newGenkit(t)
	m := &scriptedModel{turns: []modelTurn{{parts: []*ai.Part{ai.NewTextPart("Hi.")}}}}
	a, err := NewAgent(g, ai.WithModel(m.define(g, "test/nousage")))
	if err != nil {
		t.Fatal(err)
	}
	evs := runAgent(t, t.Context(), a, userInput("run-1", "Hello"))
	if fin, ok := evs[len(evs)-1].(*agui.RunFinished); !ok || len(fin.Usage) != 0 || said(evs) != "Hi." {
		t.Fatalf("last event %#v, said %q", evs[len(evs)-1], said(evs))
	}
}

// An emit of the agent's that fails inside Genkit keeps its own code: a
// tool result too large for an event is SERIALIZATION's, not GENKIT_ERROR.
func TestAgentKeepsItsOwnCodes(t *testing.T) {
	g := newGenkit(t)
	m := &scriptedModel{turns: []modelTurn{
		{parts: []*ai.Part{toolRequest("huge", map[string]any{})}},
		{parts: []*ai.Part{ai.NewTextPart("unreached")}},
	}}
	huge := gk.DefineTool(g, "huge", "Returns too much", func(tc *ai.ToolContext, in struct{}) (string, error) {
		return strings.Repeat("x", agui.MaxEventSize+1), nil
	})
	a, err := NewAgent(g, ai.WithModel(m.define(g, "test/huge")), ai.WithTools(huge))
	if err != nil {
		t.Fatal(err)
	}
	evs := runAgent(t, t.Context(), a, userInput("run-1", "Hi"))
	re, ok := evs[len(evs)-1].(*agui.RunError)
	if !ok || re.Code != string(agui.CodeSerialization) {
		t.Fatalf("last event %#v", evs[len(evs)-1])
	}
}
