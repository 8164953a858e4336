package aguiotel

import (
	"context"
	"encoding/json"
	"errors"
	"iter"
	"net/http"

	"go.opentelemetry.io/otel"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/propagation"
	"go.opentelemetry.io/otel/trace"

	"github.com/agui-go/agui"
	"github.com/agui-go/agui/core"
	"github.com/agui-go/agui/loop"
)

// scope is the instrumentation scope name of every span.
const scope = "github.com/agui-go/agui/aguiotel"

// Attribute keys of the OpenTelemetry semantic conventions for generative
// AI (https://opentelemetry.io/docs/specs/semconv/gen-ai/gen-ai-spans/),
// and this package's AG-UI additions under agui.*.
const (
	keyOperation     = attribute.Key("gen_ai.operation.name")
	keyProvider      = attribute.Key("gen_ai.provider.name")
	keyRequestModel  = attribute.Key("gen_ai.request.model")
	keyConversation  = attribute.Key("gen_ai.conversation.id")
	keyAgentName     = attribute.Key("gen_ai.agent.name")
	keyInputTokens   = attribute.Key("gen_ai.usage.input_tokens")
	keyOutputTokens  = attribute.Key("gen_ai.usage.output_tokens")
	keyCacheRead     = attribute.Key("gen_ai.usage.cache_read.input_tokens")
	keyFinishReasons = attribute.Key("gen_ai.response.finish_reasons")
	keyToolName      = attribute.Key("gen_ai.tool.name")
	keyToolCallID    = attribute.Key("gen_ai.tool.call.id")
	keyToolArgs      = attribute.Key("gen_ai.tool.call.arguments")
	keyToolResult    = attribute.Key("gen_ai.tool.call.result")
	keyInputMessages = attribute.Key("gen_ai.input.messages")
	keySystem        = attribute.Key("gen_ai.system_instructions")
	keyErrorType     = attribute.Key("error.type")
	keyRunID         = attribute.Key("agui.run_id")
	keyOutcome       = attribute.Key("agui.outcome")
)

// Option configures the spans of [Agent], [Provider] and [Tool].
type Option func(*config)

type config struct {
	tp        trace.TracerProvider
	content   bool
	agentName string
	provider  string
}

func newConfig(opts []Option) config {
	c := config{agentName: "agent"}
	for _, o := range opts {
		o(&c)
	}
	if c.tp == nil {
		c.tp = otel.GetTracerProvider()
	}
	return c
}

func (c config) tracer() trace.Tracer { return c.tp.Tracer(scope) }

// WithTracerProvider sets where spans go. Default: the global provider,
// [otel.GetTracerProvider]().
func WithTracerProvider(tp trace.TracerProvider) Option {
	return func(c *config) { c.tp = tp }
}

// WithContent records message content, tool arguments and tool results on
// the spans. Default: off, since they may hold personal data; the semantic
// conventions make them opt-in for the same reason.
func WithContent(on bool) Option {
	return func(c *config) { c.content = on }
}

// WithAgentName names the agent in invoke_agent spans
// (gen_ai.agent.name). Default: "agent".
func WithAgentName(name string) Option {
	return func(c *config) { c.agentName = name }
}

// WithProviderName sets gen_ai.provider.name on chat spans, such as
// "openai" or "anthropic". Default: unset.
func WithProviderName(name string) Option {
	return func(c *config) { c.provider = name }
}

// Extract returns r with the trace context of its traceparent and
// tracestate headers (W3C Trace Context) in its context, through the global
// propagator, so that a run's span joins the caller's trace. Servers that
// already run OpenTelemetry HTTP middleware do not need it. With Gin:
//
//	r.Use(func(c *gin.Context) { c.Request = aguiotel.Extract(c.Request); c.Next() })
func Extract(r *http.Request) *http.Request {
	prop := otel.GetTextMapPropagator()
	if len(prop.Fields()) == 0 {
		prop = propagation.TraceContext{}
	}
	ctx := prop.Extract(r.Context(), propagation.HeaderCarrier(r.Header))
	return r.WithContext(ctx)
}

// Agent wraps a so that every run is an invoke_agent span, the
// parent of the spans of the model and tool calls made with the run's ctx.
// The span carries the thread id (gen_ai.conversation.id), the run id, the
// outcome and, for a failed run, the error's code (error.type).
//
// The returned agent is safe for concurrent use if a is. It is a
// [core.Admitter] answering as a does (a's refusals before the stream, a
// busy thread's 409 say, are not spans), or admitting every run if a is
// none.
func Agent[S any](a core.Agent[S], opts ...Option) core.Agent[S] {
	c := newConfig(opts)
	return admitting[S]{inner: a, AgentFunc: core.AgentFunc[S](func(ctx context.Context, rc *core.RunContext[S]) (agui.Outcome, error) {
		in := rc.Input()
		ctx, span := c.tracer().Start(ctx, "invoke_agent "+c.agentName,
			trace.WithSpanKind(trace.SpanKindInternal),
			trace.WithAttributes(
				keyOperation.String("invoke_agent"),
				keyAgentName.String(c.agentName),
				keyConversation.String(in.ThreadID),
				keyRunID.String(in.RunID),
			))
		defer span.End()
		out, err := a.Run(ctx, rc)
		if err != nil {
			fail(span, err)
			return out, err
		}
		span.SetAttributes(keyOutcome.String(string(out.Type)))
		return out, nil
	})}
}

// admitting is a traced agent that asks the agent it wraps to admit each
// run; a plain value.
type admitting[S any] struct {
	core.AgentFunc[S]
	inner core.Agent[S]
}

// AdmitRun implements [core.Admitter].
func (a admitting[S]) AdmitRun(ctx context.Context, in *agui.RunAgentInput) error {
	if ad, ok := a.inner.(core.Admitter); ok {
		return ad.AdmitRun(ctx, in)
	}
	return nil
}

// Provider wraps p so that every model turn is a chat span with the model's
// name, token usage and finish reason.
//
// The returned provider is safe for concurrent use if p is.
func Provider(p loop.Provider, model string, opts ...Option) loop.Provider {
	c := newConfig(opts)
	return loop.ProviderFunc(func(ctx context.Context, req loop.ModelRequest) iter.Seq2[loop.Delta, error] {
		return func(yield func(loop.Delta, error) bool) {
			attrs := []attribute.KeyValue{keyOperation.String("chat"), keyRequestModel.String(model)}
			if c.provider != "" {
				attrs = append(attrs, keyProvider.String(c.provider))
			}
			if c.content {
				if b, err := json.Marshal(req.Messages); err == nil {
					attrs = append(attrs, keyInputMessages.String(string(b)))
				}
				if req.Instructions != "" {
					attrs = append(attrs, keySystem.String(req.Instructions))
				}
			}
			ctx, span := c.tracer().Start(ctx, "chat "+model,
				trace.WithSpanKind(trace.SpanKindClient), trace.WithAttributes(attrs...))
			defer span.End()
			var usage loop.Usage
			toolCalls := false
			var early loop.FinishReason
			for d, err := range p.Stream(ctx, req) {
				if err != nil {
					fail(span, err)
					yield(d, err)
					return
				}
				if d.Usage != nil {
					usage = usage.Add(*d.Usage)
				}
				if d.ToolCall != nil {
					toolCalls = true
				}
				if d.Finish != "" {
					early = d.Finish
				}
				if !yield(d, nil) {
					span.SetAttributes(keyErrorType.String("abandoned"))
					return
				}
			}
			finish := "stop"
			switch {
			case early != "":
				finish = string(early) // the provider cut the turn short: length, content-filter
			case toolCalls:
				finish = "tool_calls"
			}
			span.SetAttributes(
				keyInputTokens.Int64(usage.InputTokens),
				keyOutputTokens.Int64(usage.OutputTokens),
				keyFinishReasons.StringSlice([]string{finish}),
			)
			if usage.CachedInputTokens > 0 {
				span.SetAttributes(keyCacheRead.Int64(usage.CachedInputTokens))
			}
		}
	})
}

// Tool wraps t so that every call is an execute_tool span with the tool's
// name and the call's id (gen_ai.tool.call.id).
func Tool(t loop.Tool, opts ...Option) (loop.Tool, error) {
	c := newConfig(opts)
	spec := t.Spec()
	return loop.RawTool(spec.Name, spec.Description, spec.Schema, func(ctx context.Context, args json.RawMessage) (string, error) {
		attrs := []attribute.KeyValue{keyOperation.String("execute_tool"), keyToolName.String(spec.Name)}
		if call, ok := loop.CallFrom(ctx); ok {
			attrs = append(attrs, keyToolCallID.String(call.ID))
		}
		if c.content {
			attrs = append(attrs, keyToolArgs.String(string(args)))
		}
		ctx, span := c.tracer().Start(ctx, "execute_tool "+spec.Name,
			trace.WithSpanKind(trace.SpanKindInternal), trace.WithAttributes(attrs...))
		defer span.End()
		out, err := t.Run(ctx, args)
		if err != nil {
			fail(span, err)
			return out, err
		}
		if c.content {
			span.SetAttributes(keyToolResult.String(out))
		}
		return out, nil
	})
}

// fail marks span failed with err's stable code as its error.type.
func fail(span trace.Span, err error) {
	code := string(agui.CodeOf(err))
	if errors.Is(err, context.Canceled) {
		code = string(agui.CodeCancelled)
	}
	span.SetAttributes(keyErrorType.String(code))
	span.SetStatus(codes.Error, code)
}
