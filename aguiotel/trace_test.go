package aguiotel_test

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"
	"go.opentelemetry.io/otel/trace/noop"

	"github.com/agui-go/agui"
	"github.com/agui-go/agui/aguiotel"
	"github.com/agui-go/agui/aguitest"
	"github.com/agui-go/agui/core"
	"github.com/agui-go/agui/loop"
)

type cityIn struct {
	City string `json:"city"`
}

// traced builds a loop agent with one tool whose provider, tool and agent
// are all wrapped, served by core's handler behind Extract.
func traced(t *testing.T, exp *tracetest.InMemoryExporter, model loop.Provider, opts ...aguiotel.Option) http.Handler {
	t.Helper()
	tp := sdktrace.NewTracerProvider(sdktrace.WithSyncer(exp))
	t.Cleanup(func() { _ = tp.Shutdown(context.Background()) })
	opts = append([]aguiotel.Option{aguiotel.WithTracerProvider(tp), aguiotel.WithAgentName("weather")}, opts...)
	tool, err := loop.NewTool("get_weather", "Weather", func(ctx context.Context, in cityIn) (string, error) {
		if in.City == "Atlantis" {
			return "", errors.New("no such city")
		}
		return "sunny in " + in.City, nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if tool, err = aguiotel.Tool(tool, opts...); err != nil {
		t.Fatal(err)
	}
	agent, err := loop.New(aguiotel.Provider(model, "test-model", append(opts, aguiotel.WithProviderName("scripted"))...), loop.WithTools(tool))
	if err != nil {
		t.Fatal(err)
	}
	h, err := core.NewHandler(aguiotel.Agent[core.NoState](agent, opts...))
	if err != nil {
		t.Fatal(err)
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { h.ServeHTTP(w, aguiotel.Extract(r)) })
}

func post(t *testing.T, h http.Handler, header map[string]string) []agui.Event {
	t.Helper()
	body := `{"threadId":"thread-9","runId":"run-1","messages":[{"id":"u1","role":"user","content":"Weather in Oslo? secret-words"}]}`
	req := httptest.NewRequest(http.MethodPost, "/", strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	for k, v := range header {
		req.Header.Set(k, v)
	}
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	return aguitest.ReadSSE(t, rec.Body)
}

func attrs(s tracetest.SpanStub) map[string]string {
	out := map[string]string{}
	for _, kv := range s.Attributes {
		out[string(kv.Key)] = kv.Value.String()
	}
	return out
}

func byName(t *testing.T, spans tracetest.SpanStubs, prefix string) []tracetest.SpanStub {
	t.Helper()
	var out []tracetest.SpanStub
	for _, s := range spans {
		if strings.HasPrefix(s.Name, prefix) {
			out = append(out, s)
		}
	}
	return out
}

// TestSpansNestAndJoinTheCallersTrace: a run with two model turns and a
// tool call gives invoke_agent > chat, chat, execute_tool, all in the trace
// of the request's traceparent, with the GenAI attributes and no content.
func TestSpansNestAndJoinTheCallersTrace(t *testing.T) {
	exp := tracetest.NewInMemoryExporter()
	model := loop.Script(
		loop.Turn{Calls: []loop.ScriptedCall{{ID: "call-1", Name: "get_weather", Args: `{"city":"Oslo"}`}}, Usage: loop.Usage{InputTokens: 10, OutputTokens: 3}},
		loop.Turn{Text: "Sunny.", Usage: loop.Usage{InputTokens: 20, OutputTokens: 2, CachedInputTokens: 8}},
	)
	h := traced(t, exp, model)
	const parent = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01"
	evs := post(t, h, map[string]string{"traceparent": parent})
	if evs[len(evs)-1].Type() != agui.TypeRunFinished {
		t.Fatalf("stream %v", aguitest.Types(evs))
	}
	spans := exp.GetSpans()
	runs := byName(t, spans, "invoke_agent weather")
	chats := byName(t, spans, "chat test-model")
	tools := byName(t, spans, "execute_tool get_weather")
	if len(runs) != 1 || len(chats) != 2 || len(tools) != 1 {
		t.Fatalf("spans: %d runs, %d chats, %d tools; want 1, 2, 1", len(runs), len(chats), len(tools))
	}
	run := runs[0]
	if got := run.SpanContext.TraceID().String(); got != "4bf92f3577b34da6a3ce929d0e0e4736" {
		t.Errorf("run span in trace %s, not the caller's", got)
	}
	if got := run.Parent.SpanID().String(); got != "00f067aa0ba902b7" || !run.Parent.IsRemote() {
		t.Errorf("run span's parent %s (remote %v), want the caller's span", got, run.Parent.IsRemote())
	}
	for _, s := range append(chats, tools...) {
		if s.Parent.SpanID() != run.SpanContext.SpanID() {
			t.Errorf("%s is not a child of the run span", s.Name)
		}
	}
	ra := attrs(run)
	for k, v := range map[string]string{"gen_ai.operation.name": "invoke_agent", "gen_ai.agent.name": "weather",
		"gen_ai.conversation.id": "thread-9", "agui.run_id": "run-1", "agui.outcome": "success"} {
		if ra[k] != v {
			t.Errorf("run span %s = %q, want %q", k, ra[k], v)
		}
	}
	first, second := attrs(chats[0]), attrs(chats[1])
	for k, v := range map[string]string{"gen_ai.operation.name": "chat", "gen_ai.request.model": "test-model",
		"gen_ai.provider.name": "scripted", "gen_ai.usage.input_tokens": "10", "gen_ai.usage.output_tokens": "3",
		"gen_ai.response.finish_reasons": `["tool_calls"]`} {
		if first[k] != v {
			t.Errorf("first chat span %s = %q, want %q", k, first[k], v)
		}
	}
	if second["gen_ai.response.finish_reasons"] != `["stop"]` || second["gen_ai.usage.cache_read.input_tokens"] != "8" {
		t.Errorf("second chat span %v", second)
	}
	if ta := attrs(tools[0]); ta["gen_ai.tool.name"] != "get_weather" || ta["gen_ai.operation.name"] != "execute_tool" || ta["gen_ai.tool.call.id"] != "call-1" {
		t.Errorf("tool span %v", ta)
	}
	for _, s := range spans {
		for k, v := range attrs(s) {
			if strings.Contains(v, "secret-words") || strings.Contains(v, "Oslo") {
				t.Errorf("span %s records content in %s without WithContent", s.Name, k)
			}
		}
	}
}

// TestSpansRecordContentWhenAsked: WithContent adds the messages, the
// tool's arguments and its result.
func TestSpansRecordContentWhenAsked(t *testing.T) {
	exp := tracetest.NewInMemoryExporter()
	model := loop.Script(
		loop.Turn{Calls: []loop.ScriptedCall{{ID: "call-1", Name: "get_weather", Args: `{"city":"Oslo"}`}}},
		loop.Turn{Text: "Sunny."},
	)
	post(t, traced(t, exp, model, aguiotel.WithContent(true)), nil)
	spans := exp.GetSpans()
	if a := attrs(byName(t, spans, "chat")[0]); !strings.Contains(a["gen_ai.input.messages"], "secret-words") {
		t.Errorf("chat span without its input messages: %v", a)
	}
	a := attrs(byName(t, spans, "execute_tool")[0])
	if a["gen_ai.tool.call.arguments"] != `{"city":"Oslo"}` || a["gen_ai.tool.call.result"] != "sunny in Oslo" {
		t.Errorf("tool span %v", a)
	}
	if run := byName(t, spans, "invoke_agent")[0]; run.Parent.IsValid() {
		t.Errorf("with no traceparent the run span is a root, got parent %v", run.Parent)
	}
}

// TestSpansRecordFailures: a failing tool and a failing model mark their
// spans with a status and error.type, and the run span with the run's code.
func TestSpansRecordFailures(t *testing.T) {
	exp := tracetest.NewInMemoryExporter()
	model := loop.Script(
		loop.Turn{Calls: []loop.ScriptedCall{{ID: "call-1", Name: "get_weather", Args: `{"city":"Atlantis"}`}}},
		loop.Turn{Err: errors.New("model down at 10.0.0.7")},
	)
	evs := post(t, traced(t, exp, model), nil)
	if evs[len(evs)-1].Type() != agui.TypeRunError {
		t.Fatalf("stream %v, want a RUN_ERROR", aguitest.Types(evs))
	}
	spans := exp.GetSpans()
	for _, name := range []string{"execute_tool", "invoke_agent"} {
		s := byName(t, spans, name)[0]
		if s.Status.Code.String() != "Error" || attrs(s)["error.type"] == "" {
			t.Errorf("%s span: status %v, error.type %q", name, s.Status, attrs(s)["error.type"])
		}
		if strings.Contains(s.Status.Description, "10.0.0.7") {
			t.Errorf("%s span status carries the error message: %q", name, s.Status.Description)
		}
	}
	if chat := byName(t, spans, "chat")[1]; chat.Status.Code.String() != "Error" {
		t.Errorf("failed chat span status %v", chat.Status)
	}
}

// TestNoSDKIsANoOp: with the global no-op provider, wrapping changes no
// event of the stream.
func TestNoSDKIsANoOp(t *testing.T) {
	model := loop.Script(loop.Turn{Text: "Hi."})
	agent, err := loop.New(aguiotel.Provider(model, "m", aguiotel.WithTracerProvider(noop.NewTracerProvider())))
	if err != nil {
		t.Fatal(err)
	}
	h, err := core.NewHandler(aguiotel.Agent[core.NoState](agent))
	if err != nil {
		t.Fatal(err)
	}
	evs := post(t, h, nil)
	if evs[len(evs)-1].Type() != agui.TypeRunFinished {
		t.Fatalf("stream %v", aguitest.Types(evs))
	}
}

// refusing is an agent that admits no run.
type refusing struct{ core.AgentFunc[core.NoState] }

func (refusing) AdmitRun(context.Context, *agui.RunAgentInput) error {
	return &core.RequestError{Status: http.StatusConflict, Code: loop.CodeBusy, Message: "busy"}
}

// A traced agent admits runs as the agent it wraps does: its refusal is
// answered before the stream, and an agent without one admits every run.
func TestAgentKeepsAdmission(t *testing.T) {
	ad, ok := aguiotel.Agent[core.NoState](refusing{}).(core.Admitter)
	if !ok {
		t.Fatal("the traced agent is no core.Admitter")
	}
	var re *core.RequestError
	if err := ad.AdmitRun(t.Context(), agui.NewInput("t", "r")); !errors.As(err, &re) || re.Status != http.StatusConflict {
		t.Fatalf("AdmitRun: %v, want the wrapped agent's 409", err)
	}
	plain := aguiotel.Agent[core.NoState](core.AgentFunc[core.NoState](func(ctx context.Context, rc *core.RunContext[core.NoState]) (agui.Outcome, error) {
		return agui.Success(), nil
	}))
	if err := plain.(core.Admitter).AdmitRun(t.Context(), agui.NewInput("t", "r")); err != nil {
		t.Fatalf("AdmitRun of an agent without admission: %v", err)
	}
}
