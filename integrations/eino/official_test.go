package eino

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/agui-go/agui"
	"github.com/agui-go/agui/internal/officialclient"
	"github.com/cloudwego/eino/adk"
	"github.com/cloudwego/eino/components/tool/utils"
	"github.com/cloudwego/eino/schema"
)

// These tests run the adapter's streams through the official
// @ag-ui/client (its verifier, schemas and event application) and assert
// what it reconstructed.

func user(id, text string) []agui.Message {
	return []agui.Message{&agui.UserMessage{ID: id, Content: agui.TextContent(text)}}
}

// clean fails t when the client did not accept a run without complaint.
func clean(t *testing.T, r officialclient.Result) {
	t.Helper()
	if err := r.Clean(); err != nil {
		t.Fatalf("%v\nevents %v", err, r.Types())
	}
}

func TestOfficialClientTextReasoningTools(t *testing.T) {
	m := NewFakeModel(
		Turn{Chunks: []*schema.Message{
			{Role: schema.Assistant, ReasoningContent: "Need the weather."},
			{Role: schema.Assistant, Content: "Let me "},
			{Role: schema.Assistant, Content: "check."},
			{Role: schema.Assistant, ToolCalls: []schema.ToolCall{{Index: new(0), ID: "call_1", Type: "function", Function: schema.FunctionCall{Name: "get_weather", Arguments: `{"city":`}}}},
			{Role: schema.Assistant, ToolCalls: []schema.ToolCall{{Index: new(0), Function: schema.FunctionCall{Arguments: `"Oslo"}`}}}},
		}},
		TextTurn("It is ", "sunny in Oslo."),
	)
	a, _ := NewAgent(chatAgent(t, "weather", m, weatherTool(t)))
	s := serve(t, a)
	res := officialclient.Run(t, s.url, officialclient.Session{Steps: []officialclient.Step{{Messages: user("u1", "Weather in Oslo?")}}})
	clean(t, res[0])
	want := `user: Weather in Oslo?
reasoning: Need the weather.
assistant: Let me check. [call_1 get_weather {"city":"Oslo"}]
tool call_1: sunny in Oslo
assistant: It is sunny in Oslo.
`
	if got := summary(res[0].Messages); got != want || res[0].Outcome != "success" {
		t.Fatalf("outcome %q, messages:\n%s\nwant:\n%s", res[0].Outcome, got, want)
	}
}

func TestOfficialClientTransfer(t *testing.T) {
	parent, err := adk.SetSubAgents(t.Context(),
		chatAgent(t, "triage", NewFakeModel(CallTurn("call_t", transferTool, `{"agent_name":"billing"}`))),
		[]adk.Agent{chatAgent(t, "billing", NewFakeModel(TextTurn("Your invoice ", "is paid.")))})
	if err != nil {
		t.Fatal(err)
	}
	a, _ := NewAgent(parent)
	res := officialclient.Run(t, serve(t, a).url, officialclient.Session{Steps: []officialclient.Step{{Messages: user("u1", "Is my invoice paid?")}}})
	clean(t, res[0])
	got := summary(res[0].Messages)
	if !strings.Contains(got, "[call_t transfer_to_agent") || !strings.HasSuffix(got, "assistant: Your invoice is paid. (sub)\n") {
		t.Fatalf("messages:\n%s\nevents %v", got, res[0].Types())
	}
}

// The official client pauses on the interrupt, answers it, and the
// resumed run completes the tool call it holds.
func TestOfficialClientInterruptResume(t *testing.T) {
	store, _ := NewCheckPointStore(new(MemoryKV))
	m := NewFakeModel(CallTurn("call_b", "book_flight", `{"to":"Oslo"}`), TextTurn("Booked."))
	a, _ := NewAgent(chatAgent(t, "travel", m, approvalTool(t)), WithCheckPointStore(store))
	res := officialclient.Run(t, serve(t, a).url, officialclient.Session{ThreadID: "t1", Steps: []officialclient.Step{
		{Messages: user("u1", "Book Oslo.")},
		{ResumeAll: json.RawMessage(`{"approved":true}`)},
	}})
	clean(t, res[0])
	if res[0].Outcome != "interrupt" || !strings.Contains(string(res[0].PendingInterrupts), `"toolCallId":"call_b"`) {
		t.Fatalf("first run %q pending %s", res[0].Outcome, res[0].PendingInterrupts)
	}
	clean(t, res[1])
	want := `user: Book Oslo.
assistant:  [call_b book_flight {"to":"Oslo"}]
tool call_b: booked to Oslo
assistant: Booked.
`
	if got := summary(res[1].Messages); got != want || res[1].Outcome != "success" {
		t.Fatalf("outcome %q, messages:\n%s\nwant:\n%s", res[1].Outcome, got, want)
	}
}

func TestOfficialClientState(t *testing.T) {
	remember, err := utils.InferTool("remember", "Remember a city", func(ctx context.Context, in struct {
		City string `json:"city"`
	}) (string, error) {
		adk.AddSessionValue(ctx, "city", in.City)
		return "ok", nil
	})
	if err != nil {
		t.Fatal(err)
	}
	a, _ := NewAgent(chatAgent(t, "memo", NewFakeModel(CallTurn("call_r", "remember", `{"city":"Oslo"}`), TextTurn("Noted.")), remember))
	res := officialclient.Run(t, serve(t, a).url, officialclient.Session{
		State: json.RawMessage(`{"visits":2}`),
		Steps: []officialclient.Step{{Messages: user("u1", "Remember Oslo.")}},
	})
	clean(t, res[0])
	var st map[string]any
	if err := json.Unmarshal(res[0].State, &st); err != nil || st["city"] != "Oslo" || st["visits"] != float64(2) {
		t.Fatalf("state %s (%v)", res[0].State, err)
	}
}

// The client hangs up mid-answer: the run's cancellation reaches the
// model through eino's runner, and nothing is left running (goleak).
func TestOfficialClientAbortMidStream(t *testing.T) {
	cancelled := make(chan struct{})
	m := NewFakeModel(Turn{Chunks: TextTurn("Once ", "upon").Chunks, Hang: true, Cancelled: cancelled})
	a, _ := NewAgent(chatAgent(t, "story", m))
	res := officialclient.Run(t, serve(t, a).url, officialclient.Session{Steps: []officialclient.Step{
		{Messages: user("u1", "Tell a story."), AbortAfter: 4},
	}})
	// The client may read the RUN_ERROR (CANCELLED) the hang-up caused
	// before its abort lands.
	got := res[0].Types()
	if len(got) < 4 || got[2] != "TEXT_MESSAGE_CONTENT" || res[0].Outcome != "" || len(got) > 5 {
		t.Fatalf("events %v outcome %q", got, res[0].Outcome)
	}
	select {
	case <-cancelled:
	case <-t.Context().Done():
		t.Fatal("the model never saw the cancellation")
	}
}

// A framework error and a panic reach the official client as coded
// RUN_ERRORs, without the error's details.
func TestOfficialClientErrors(t *testing.T) {
	boom, err := utils.InferTool("boom", "Panics", func(ctx context.Context, in struct{}) (string, error) {
		panic("tool exploded at 10.0.0.7")
	})
	if err != nil {
		t.Fatal(err)
	}
	for code, m := range map[agui.Code]*FakeModel{
		CodeRunnerFailed: NewFakeModel(Turn{Err: errors.New("upstream 502 from 10.0.0.7")}),
		CodeRunnerPanic:  NewFakeModel(CallTurn("call_x", "boom", `{}`)),
	} {
		t.Run(string(code), func(t *testing.T) {
			a, _ := NewAgent(chatAgent(t, "e", m, boom))
			s := serve(t, a)
			res := officialclient.Run(t, s.url, officialclient.Session{Steps: []officialclient.Step{{Messages: user("u1", "hi")}}})
			if len(res[0].RunErrors) != 1 {
				t.Fatalf("run errors %s, events %v", res[0].RunErrors, res[0].Types())
			}
			var re struct{ Code, Message string }
			json.Unmarshal(res[0].RunErrors[0], &re)
			if re.Code != string(code) || strings.Contains(re.Message, "10.0.0.7") {
				t.Fatalf("run error %s", res[0].RunErrors[0])
			}
			if len(res[0].SchemaErrors) > 0 {
				t.Fatal(res[0].SchemaErrors)
			}
			if !strings.Contains(s.log.String(), "10.0.0.7") {
				t.Fatalf("log lacks the error:\n%s", s.log.String())
			}
		})
	}
}
