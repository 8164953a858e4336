package model_test

import (
	"flag"
	"fmt"

	"github.com/agui-go/agui/examples/internal/model"
	"github.com/agui-go/agui/loop"
)

// Two flags point an example at a local OpenAI-compatible server (here
// Ollama's); without them it keeps its scripted model.
func ExampleFlags_New() {
	var m model.Flags
	fs := flag.NewFlagSet("gin-app", flag.ContinueOnError)
	m.Register(fs)
	_ = fs.Parse([]string{"-openai-base-url", "http://127.0.0.1:11434/v1", "-model", "llama3.2"})
	provider, err := m.New(loop.Script(loop.Turn{Text: "scripted"}))
	if err != nil {
		panic(err)
	}
	fmt.Printf("%s %s %T\n", m.Chosen(), m.Name, provider)
	// Output: openai llama3.2 *openai.Provider
}
