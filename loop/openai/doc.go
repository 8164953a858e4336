// Package openai is a [github.com/agui-go/agui/loop.Provider] for
// OpenAI-compatible chat completion servers (OpenAI, Azure OpenAI, Ollama,
// vLLM, LM Studio, OpenRouter and gateways), built on
// github.com/openai/openai-go/v3. It lives in its own package so that
// programs using the loop with another provider do not link the OpenAI
// client.
//
// Quick start:
//
//	p, err := openai.New("gpt-4o-mini", openai.WithClientOptions(
//		option.WithBaseURL("http://127.0.0.1:11434/v1"), // any compatible server
//		option.WithAPIKey(key)))
//	if err != nil { … }
//	agent, err := loop.New(p, loop.WithTools(weather))
//
// The provider streams text, reasoning (the reasoning_content or reasoning
// delta field that compatible servers send), tool calls with their
// argument fragments, and usage (it asks for stream usage). A choice
// that finishes with "length" ends the run with loop.FinishLength, one
// with "content_filter" or a refusal with loop.FinishContentFilter.
//
// Every loop.ModelSettings field is mapped: temperature,
// max_completion_tokens, stop, tool_choice (auto, none, required, a named
// function) and parallel_tool_calls; the tool settings are sent only with
// tools. A typed output (loop.WithOutput) is asked for with response_format
// json_schema, not strict (the loop validates the answer).
//
// User content parts map to the API's parts: images (a URL, or base64
// data sent as a data URL) to image_url, documents (base64 data, or an
// OpenAI file id) to file, WAV and MP3 audio data to input_audio. Video,
// image file ids, document URLs, other audio formats and media in tool
// results fail the run with loop.CodeUnsupportedContent rather than being
// dropped.
//
// It does not retry: the client's own retries are off by default, so that
// loop.Retry, which never retries an abort, owns retrying. HTTP failures
// are [*APIError] values, which tell loop.Retry that 429 and 5xx are worth
// another try and other statuses are not.
package openai
