// Package langchaingo drives a [github.com/agui-go/agui/loop] agent with
// any langchaingo model ([github.com/tmc/langchaingo/llms.Model]): Ollama,
// Bedrock, Vertex, Mistral, OpenAI, Anthropic and every other backend
// langchaingo has, served over AG-UI with the loop's guarantees (verified
// streams, cancellation, approvals, checkpoints). It is a module of its own,
// so programs that do not use langchaingo never have it in their go.sum.
//
// Quick start:
//
//	llm, err := ollama.New(ollama.WithModel("llama3.2"))
//	if err != nil { … }
//	p, err := langchaingo.New(llm)
//	if err != nil { … }
//	agent, err := loop.New(p, loop.WithTools(weather))
//	if err != nil { … }
//	err = ginagui.Register(r.Group("/agents"), "/assistant", agent)
//
// A turn is one GenerateContent call with two streaming functions. Text
// chunks stream as they arrive, reasoning chunks (the reasoning streaming
// function, which the OpenAI and Anthropic backends call) too. The final
// response then supplies what the stream did not: text of a backend that
// does not stream, the choice's reasoning when none was streamed, the
// tool calls (ToolCalls, or the older FuncCall), the stop reason
// ("length"/"max_tokens" end the run with loop.FinishLength, a safety or
// content filter reason with loop.FinishContentFilter) and the token
// counts backends put in GenerationInfo under their own names.
//
// Some backends pass tool call fragments to the streaming function as
// JSON. A chunk that is a JSON object or array is therefore held back,
// and the turn's remaining text comes from the final response instead:
// text that merely looks like JSON arrives late, never lost.
//
// Settings map to call options: temperature, the output token limit,
// stop sequences, the tool choice, and JSON mode for a typed output
// (loop.WithOutput). ParallelToolCalls has no langchaingo option and is
// ignored. User content maps to text, image URL and binary parts; other
// parts fail the run with loop.CodeUnsupportedContent.
//
// A backend's error fails the run with loop's PROVIDER_ERROR, its fixed
// message on the wire and the full error in the log; errors carrying
// langchaingo's standard codes are [*APIError] values, which tell
// loop.Retry that rate limits, timeouts and an unavailable backend are
// worth another try. A model that panics fails the run the same way (a
// [*PanicError] with the stack) instead of ending the process.
// Cancelling the run cancels the context GenerateContent got.
package langchaingo
