package model

import (
	"cmp"
	"flag"
	"fmt"
	"os"

	"github.com/agui-go/agui/loop"
	"github.com/agui-go/agui/loop/anthropic"
	"github.com/agui-go/agui/loop/openai"
	anthropicopt "github.com/anthropics/anthropic-sdk-go/v2/option"
	"github.com/openai/openai-go/v3/option"
)

// The provider names -model-provider takes.
const (
	Scripted  = "scripted"
	OpenAI    = "openai"
	Anthropic = "anthropic"
)

// Default model names, when neither -model nor its variables name one.
const (
	DefaultOpenAIModel    = "gpt-4o-mini"
	DefaultAnthropicModel = "claude-sonnet-4-5"
)

// Flags are the model settings of an example's command line. The zero
// value chooses the scripted model. A Flags is a plain value: set it
// before use, and share it read-only.
type Flags struct {
	// Provider is Scripted, OpenAI, Anthropic, or empty: OpenAI when
	// BaseURL is set, Scripted otherwise.
	Provider string
	// Name is the model's name; empty, the provider's default.
	Name string
	// BaseURL is the OpenAI-compatible server's URL, such as
	// http://127.0.0.1:11434/v1; empty, OpenAI's own.
	BaseURL string
	// Env reads an environment variable; nil reads the process's
	// (os.Getenv). Tests set it.
	Env func(string) string
}

// Register adds the flags to fs, their defaults read from the
// environment when Register runs:
//
//   - -model-provider scripted|openai|anthropic (default empty: openai
//     when a base URL is set, scripted otherwise);
//   - -model NAME (default $OPENAI_CHAT_MODEL_ID, then $OPENAI_MODEL,
//     then gpt-4o-mini, or claude-sonnet-4-5 for anthropic);
//   - -openai-base-url URL (default $OPENAI_BASE_URL).
//
// The API keys are read from OPENAI_API_KEY and ANTHROPIC_API_KEY only,
// never from a flag, so that they stay out of process listings.
func (f *Flags) Register(fs *flag.FlagSet) {
	fs.StringVar(&f.Provider, "model-provider", "", "the model: scripted, openai (any OpenAI-compatible server) or anthropic (default: openai when -openai-base-url or $OPENAI_BASE_URL is set, scripted otherwise)")
	fs.StringVar(&f.Name, "model", f.getenv("OPENAI_CHAT_MODEL_ID", "OPENAI_MODEL"), "the model's name (default $OPENAI_CHAT_MODEL_ID or $OPENAI_MODEL; else gpt-4o-mini, or claude-sonnet-4-5 for anthropic)")
	fs.StringVar(&f.BaseURL, "openai-base-url", f.getenv("OPENAI_BASE_URL"), "an OpenAI-compatible server's URL, e.g. http://127.0.0.1:11434/v1 for Ollama (default $OPENAI_BASE_URL)")
}

// Chosen returns the provider name f chooses: Provider, or its default.
func (f Flags) Chosen() string {
	if f.Provider != "" {
		return f.Provider
	}
	if f.BaseURL != "" {
		return OpenAI
	}
	return Scripted
}

// New returns the chosen model: scripted itself for Scripted, else a
// loop/openai or loop/anthropic provider. An unknown provider name is an
// error.
func (f Flags) New(scripted loop.Provider) (loop.Provider, error) {
	switch p := f.Chosen(); p {
	case Scripted:
		if scripted == nil {
			return nil, fmt.Errorf("model: this example has no scripted model: choose -model-provider %s or %s", OpenAI, Anthropic)
		}
		return scripted, nil
	case OpenAI:
		var opts []option.RequestOption
		if f.BaseURL != "" {
			opts = append(opts, option.WithBaseURL(f.BaseURL))
			if f.getenv("OPENAI_API_KEY") == "" {
				// Local servers (Ollama, vLLM, LM Studio) take any key,
				// and the client wants one.
				opts = append(opts, option.WithAPIKey("unused"))
			}
		}
		return openai.New(cmp.Or(f.Name, DefaultOpenAIModel), openai.WithClientOptions(opts...))
	case Anthropic:
		var opts []anthropicopt.RequestOption
		if key := f.getenv("ANTHROPIC_API_KEY"); key != "" {
			opts = append(opts, anthropicopt.WithAPIKey(key))
		}
		return anthropic.New(cmp.Or(f.Name, DefaultAnthropicModel), anthropic.WithClientOptions(opts...))
	default:
		return nil, fmt.Errorf("model: -model-provider %q: want %s, %s or %s", p, Scripted, OpenAI, Anthropic)
	}
}

// getenv returns the first non-empty of the named variables.
func (f Flags) getenv(names ...string) string {
	get := f.Env
	if get == nil {
		get = os.Getenv
	}
	for _, n := range names {
		if v := get(n); v != "" {
			return v
		}
	}
	return ""
}
