// Package model picks the examples' model from flags and environment
// variables, so that one command line runs an example on its scripted
// model, on any OpenAI-compatible server (OpenAI, Ollama, vLLM, LM Studio,
// aimock) or on Anthropic's Claude.
//
// Quick start:
//
//	var m model.Flags
//	m.Register(flag.CommandLine) // -model-provider, -model, -openai-base-url
//	flag.Parse()
//	provider, err := m.New(scripted) // scripted unless a real model was chosen
//	if err != nil { … }
//	agent, err := loop.New(provider, loop.WithTools(weather))
//
// With nothing set the example keeps its scripted model and needs no
// network. A base URL (-openai-base-url or OPENAI_BASE_URL) chooses the
// OpenAI-compatible provider by itself, so a local server takes two flags:
//
//	go run ./examples/gin-app -openai-base-url http://127.0.0.1:11434/v1 -model llama3.2
//
// An API key alone never switches the model: a key exported in the shell
// for other programs should not make a demo spend money. See
// [Flags.Register] for each flag's variable and default.
package model
