// Package aguiotel traces agent runs with OpenTelemetry, following the
// semantic conventions for generative AI
// (https://opentelemetry.io/docs/specs/semconv/gen-ai/): one invoke_agent
// span per run, one chat span per model turn, one execute_tool span per tool
// call, nested in that order and joined to the caller's trace.
//
// Wrap the parts; nothing else changes:
//
//	model := aguiotel.Provider(openaiModel, "gpt-4o", aguiotel.WithProviderName("openai"))
//	search, _ := aguiotel.Tool(searchTool)
//	agent, _ := loop.New(model, loop.WithTools(search))
//	ginagui.Register(api, "/agents/travel", aguiotel.Agent(agent, aguiotel.WithAgentName("travel")))
//
// Spans carry model names, token usage, finish reasons, tool names, the
// thread id and the run's outcome or error code; message content, tool
// arguments and tool results only with [WithContent]. Without a configured
// SDK the global tracer provider is a no-op and the wrappers cost almost
// nothing. [Extract] joins a request's traceparent header when no
// OpenTelemetry HTTP middleware does.
package aguiotel
