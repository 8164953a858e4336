package model

import (
	"encoding/json"
	"flag"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/agui-go/agui"
	"github.com/agui-go/agui/loop"
	"github.com/agui-go/agui/loop/anthropic"
	"github.com/agui-go/agui/loop/openai"
)

// env is a fixed environment for Flags.Env.
func env(kv ...string) func(string) string {
	m := map[string]string{}
	for i := 0; i+1 < len(kv); i += 2 {
		m[kv[i]] = kv[i+1]
	}
	return func(k string) string { return m[k] }
}

// parse registers f on a new flag set and parses args.
func parse(t *testing.T, f *Flags, args ...string) {
	t.Helper()
	fs := flag.NewFlagSet("test", flag.ContinueOnError)
	f.Register(fs)
	if err := fs.Parse(args); err != nil {
		t.Fatal(err)
	}
}

func TestChosen(t *testing.T) {
	for _, tc := range []struct {
		name string
		env  []string
		args []string
		want string
	}{
		{"nothing set", nil, nil, Scripted},
		{"a key alone does not switch", []string{"OPENAI_API_KEY", "sk-x", "ANTHROPIC_API_KEY", "k"}, nil, Scripted},
		{"base URL variable", []string{"OPENAI_BASE_URL", "http://127.0.0.1:1/v1"}, nil, OpenAI},
		{"base URL flag", nil, []string{"-openai-base-url", "http://127.0.0.1:1/v1"}, OpenAI},
		{"explicit scripted wins over a base URL", []string{"OPENAI_BASE_URL", "http://x/v1"}, []string{"-model-provider", "scripted"}, Scripted},
		{"anthropic", []string{"ANTHROPIC_API_KEY", "k"}, []string{"-model-provider", "anthropic"}, Anthropic},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := Flags{Env: env(tc.env...)}
			parse(t, &f, tc.args...)
			if got := f.Chosen(); got != tc.want {
				t.Fatalf("Chosen() = %q, want %q", got, tc.want)
			}
		})
	}
}

func TestProvider(t *testing.T) {
	scripted := loop.Script(loop.Turn{Text: "hi"})
	p, err := (Flags{Env: env()}).New(scripted)
	if err != nil || p != loop.Provider(scripted) {
		t.Fatalf("default: %v, %v; want the scripted model", p, err)
	}
	if _, err := (Flags{Env: env()}).New(nil); err == nil {
		t.Fatal("no scripted model and nothing chosen: want an error")
	}
	if _, err := (Flags{Provider: "llama", Env: env()}).New(scripted); err == nil {
		t.Fatal("unknown provider: want an error")
	}
	p, err = (Flags{Provider: Anthropic, Env: env("ANTHROPIC_API_KEY", "k")}).New(scripted)
	if _, ok := p.(*anthropic.Provider); !ok || err != nil {
		t.Fatalf("anthropic: %T, %v", p, err)
	}
	p, err = (Flags{Provider: OpenAI, Env: env("OPENAI_API_KEY", "k")}).New(scripted)
	if _, ok := p.(*openai.Provider); !ok || err != nil {
		t.Fatalf("openai: %T, %v", p, err)
	}
}

// TestOpenAICompatibleServer points the flags at a local OpenAI-compatible
// server, as an Ollama or aimock would be, and checks that the loop's
// turn goes there with the model's name and comes back as the answer.
func TestOpenAICompatibleServer(t *testing.T) {
	var got struct {
		Model  string `json:"model"`
		Stream bool   `json:"stream"`
	}
	var auth string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/v1/chat/completions" {
			http.NotFound(w, r)
			return
		}
		auth = r.Header.Get("Authorization")
		body, _ := io.ReadAll(r.Body)
		_ = json.Unmarshal(body, &got)
		w.Header().Set("Content-Type", "text/event-stream")
		io.WriteString(w, `data: {"id":"c","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,"delta":{"content":"Hello from the local model."},"finish_reason":null}]}`+"\n\n"+
			`data: {"id":"c","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,"delta":{},"finish_reason":"stop"}]}`+"\n\ndata: [DONE]\n\n")
	}))
	defer srv.Close()

	f := Flags{Env: env()}
	parse(t, &f, "-openai-base-url", srv.URL+"/v1", "-model", "llama3.2")
	p, err := f.New(loop.Script(loop.Turn{Text: "scripted"}))
	if err != nil {
		t.Fatal(err)
	}
	agent, err := loop.New(p)
	if err != nil {
		t.Fatal(err)
	}
	res, err := agent.Execute(t.Context(), loop.Input{Messages: []agui.Message{loop.UserText("Hi")}})
	if err != nil {
		t.Fatal(err)
	}
	last, ok := res.Messages[len(res.Messages)-1].(*agui.AssistantMessage)
	if !ok || last.Content != "Hello from the local model." {
		t.Fatalf("last message %#v", res.Messages[len(res.Messages)-1])
	}
	if got.Model != "llama3.2" || !got.Stream {
		t.Fatalf("request model %q stream %v, want llama3.2 streamed", got.Model, got.Stream)
	}
	if !strings.HasPrefix(auth, "Bearer ") {
		t.Fatalf("Authorization %q: a local server gets a placeholder key", auth)
	}
}

func TestModelNameFromEnvironment(t *testing.T) {
	f := Flags{Env: env("OPENAI_MODEL", "b", "OPENAI_CHAT_MODEL_ID", "a")}
	parse(t, &f)
	if f.Name != "a" {
		t.Fatalf("Name %q: OPENAI_CHAT_MODEL_ID comes first", f.Name)
	}
	f = Flags{Env: env("OPENAI_MODEL", "b")}
	parse(t, &f, "-model", "c")
	if f.Name != "c" {
		t.Fatalf("Name %q: the flag wins", f.Name)
	}
}
