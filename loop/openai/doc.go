// Package openai is a loop.Provider for OpenAI-compatible chat completion
// servers (OpenAI, Azure OpenAI, Ollama, vLLM, LM Studio, OpenRouter and
// gateways), built on github.com/openai/openai-go/v3. It lives in its own
// package so that programs using the loop with another provider do not
// link the OpenAI client.
//
// Quick start:
//
//	p, err := openai.New("gpt-4o-mini",
//		option.WithBaseURL("http://127.0.0.1:11434/v1"), // any compatible server
//		option.WithAPIKey(key))
//	if err != nil { … }
//	agent, err := loop.New(p, loop.WithTools(weather))
//
// The provider streams text, reasoning (the reasoning_content or reasoning
// delta field that compatible servers send), tool calls with their
// argument fragments, and usage (it asks for stream usage). It does not
// retry: the client's own retries are off by default, so that
// loop.Retry, which never retries an abort, owns retrying.
package openai
