package e2e

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"os/exec"
	"runtime/pprof"
	"strconv"
	"time"

	anthropicopt "github.com/anthropics/anthropic-sdk-go/v2/option"
	openaiopt "github.com/openai/openai-go/v3/option"

	"github.com/agui-go/agui/core"
	"github.com/agui-go/agui/loop"
	"github.com/agui-go/agui/loop/anthropic"
	"github.com/agui-go/agui/loop/openai"
)

// The token path: ours on net/http serving a loop agent whose provider
// streams from a model server in the load process (ModelServer), beside
// PathFixture, the plain route, in the same server process.
const (
	ServerLoopOpenAI    = "loop-openai"    // loop/openai against ModelServer's /v1/chat/completions
	ServerLoopAnthropic = "loop-anthropic" // loop/anthropic against ModelServer's /v1/messages
	// PathTokens runs the loop agent: one model turn of the model
	// server's tokens, each a TEXT_MESSAGE_CONTENT.
	PathTokens = "/tokens"
)

// ModelServer is a local OpenAI- and Anthropic-compatible model server on
// a loopback port: every chat completion (POST /v1/chat/completions) and
// every message (POST /v1/messages) streams Tokens text tokens, then the
// end of the turn with its usage. Flush is how many tokens each write
// carries (1: a write per token, as a model's tokens arrive apart). Its
// methods are safe for concurrent use.
type ModelServer struct {
	// URL is the server's base URL, such as http://127.0.0.1:PORT.
	URL string
	srv *http.Server
}

// tokenText is every token's text: a word and a space, as a model's
// tokens mostly are.
const tokenText = "token "

// NewModelServer starts a model server streaming tokens tokens per turn,
// flush tokens per write (at least 1); Close stops it.
func NewModelServer(tokens, flush int) (*ModelServer, error) {
	if tokens <= 0 {
		return nil, errors.New("e2e: NewModelServer needs tokens > 0")
	}
	flush = max(flush, 1)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	const oaChunk = `data: {"id":"c","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,"delta":{"content":"` + tokenText + `"},"finish_reason":null}]}` + "\n\n"
	oaHead := `data: {"id":"c","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,"delta":{"role":"assistant","content":""},"finish_reason":null}]}` + "\n\n"
	oaTail := `data: {"id":"c","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,"delta":{},"finish_reason":"stop"}]}` + "\n\n" +
		`data: {"id":"c","object":"chat.completion.chunk","created":1,"model":"m","choices":[],"usage":{"prompt_tokens":10,"completion_tokens":` + strconv.Itoa(tokens) + `,"total_tokens":` + strconv.Itoa(tokens+10) + `}}` + "\n\ndata: [DONE]\n\n"
	const anChunk = "event: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":\"text_delta\",\"text\":\"" + tokenText + "\"}}\n\n"
	anHead := "event: message_start\ndata: {\"type\":\"message_start\",\"message\":{\"id\":\"msg_1\",\"type\":\"message\",\"role\":\"assistant\",\"model\":\"m\",\"content\":[],\"stop_reason\":null,\"stop_sequence\":null,\"usage\":{\"input_tokens\":10,\"output_tokens\":1}}}\n\n" +
		"event: content_block_start\ndata: {\"type\":\"content_block_start\",\"index\":0,\"content_block\":{\"type\":\"text\",\"text\":\"\"}}\n\n"
	anTail := "event: content_block_stop\ndata: {\"type\":\"content_block_stop\",\"index\":0}\n\n" +
		"event: message_delta\ndata: {\"type\":\"message_delta\",\"delta\":{\"stop_reason\":\"end_turn\",\"stop_sequence\":null},\"usage\":{\"output_tokens\":" + strconv.Itoa(tokens) + "}}\n\n" +
		"event: message_stop\ndata: {\"type\":\"message_stop\"}\n\n"
	stream := func(head, chunk, tail string) http.HandlerFunc {
		return func(w http.ResponseWriter, r *http.Request) {
			_, _ = io.Copy(io.Discard, r.Body)
			w.Header().Set("Content-Type", "text/event-stream")
			buf := make([]byte, 0, len(head)+flush*len(chunk)+len(tail))
			buf = append(buf, head...)
			rc := http.NewResponseController(w)
			for i := range tokens {
				buf = append(buf, chunk...)
				if (i+1)%flush == 0 && i+1 < tokens {
					if _, err := w.Write(buf); err != nil {
						return
					}
					if err := rc.Flush(); err != nil {
						return
					}
					buf = buf[:0]
				}
			}
			_, _ = w.Write(append(buf, tail...))
		}
	}
	mux := http.NewServeMux()
	mux.Handle("POST /v1/chat/completions", stream(oaHead, oaChunk, oaTail))
	mux.Handle("POST /v1/messages", stream(anHead, anChunk, anTail))
	m := &ModelServer{URL: "http://" + ln.Addr().String(), srv: &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second}}
	go func() { _ = m.srv.Serve(ln) }()
	return m, nil
}

// Close stops the model server.
func (m *ModelServer) Close() error { return m.srv.Close() }

// tokenHandler serves PathFixture (the plain route) and PathTokens (the
// loop agent on the named provider, its model at modelURL) with
// core.NewHandler.
func tokenHandler(name, modelURL string) (http.Handler, error) {
	var (
		p   loop.Provider
		err error
	)
	switch name {
	case ServerLoopOpenAI:
		p, err = openai.New("m", openai.WithClientOptions(openaiopt.WithBaseURL(modelURL+"/v1"), openaiopt.WithAPIKey("key")))
	case ServerLoopAnthropic:
		p, err = anthropic.New("m", anthropic.WithClientOptions(anthropicopt.WithBaseURL(modelURL), anthropicopt.WithAPIKey("key")))
	default:
		return nil, fmt.Errorf("e2e: no token server named %q", name)
	}
	if err != nil {
		return nil, err
	}
	agent, err := loop.New(p)
	if err != nil {
		return nil, err
	}
	quiet := core.WithHandlerLogger(slog.New(slog.DiscardHandler))
	tokens, err := core.NewHandler(agent, quiet)
	if err != nil {
		return nil, err
	}
	texts, args := fixtureStrings()
	plain, err := core.NewHandler(oursFixture(texts, args), quiet)
	if err != nil {
		return nil, err
	}
	mux := http.NewServeMux()
	mux.Handle("POST "+PathTokens, labelled("tokens", tokens))
	mux.Handle("POST "+PathFixture, labelled("plain", plain))
	return mux, nil
}

// labelled serves h under the pprof label route=route when the process
// writes a CPU profile (CPUProfileEnv), so that the profile of the two
// routes sharing the process splits with -tagfocus route=tokens: the
// run's goroutines inherit the label from the handler's.
func labelled(route string, h http.Handler) http.Handler {
	if os.Getenv(CPUProfileEnv) == "" {
		return h
	}
	labels := pprof.Labels("route", route)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		pprof.Do(r.Context(), labels, func(ctx context.Context) { h.ServeHTTP(w, r.WithContext(ctx)) })
	})
}

// TokenPath measures the token path of one provider: a fresh server
// process (Launch, given the name and the model server's URL) serves the
// loop agent at PathTokens and the plain route at PathFixture; in each of
// Rounds rounds both get a Duration of load at Concurrency 1, in turn
// (the first alternating), and the server's CPU is split between them.
// It is a plain value.
type TokenPath struct {
	// Server is ServerLoopOpenAI or ServerLoopAnthropic.
	Server string
	// Tokens per model turn (default 1,000) and Flush tokens per write
	// of the model server (default 1).
	Tokens, Flush int
	Rounds        int           // default 1
	Duration      time.Duration // each route's turn (default 1 s)
	// Launch returns the server process's command for a name and a
	// model URL (required).
	Launch func(name, modelURL string) (*exec.Cmd, error)
	Stderr io.Writer // the server's stderr (nil: discarded)
}

// TokenResult is what TokenPath measured. Values are immutable.
type TokenResult struct {
	Server        string
	Tokens, Flush int
	// Runs and Plain are the loop runs' and the plain streams' samples;
	// TokenCPU and PlainCPU the server's CPU time during each.
	Runs, Plain        Sample
	TokenCPU, PlainCPU time.Duration
}

// CPUPerToken is the server's CPU time per delivered model token.
func (r TokenResult) CPUPerToken() time.Duration {
	n := int64(r.Runs.Streams-r.Runs.Failures) * int64(r.Tokens)
	if n == 0 {
		return 0
	}
	return r.TokenCPU / time.Duration(n)
}

// CPUPerEvent is the server's CPU time per event of the plain route.
func (r TokenResult) CPUPerEvent() time.Duration {
	if r.Plain.Events == 0 {
		return 0
	}
	return r.PlainCPU / time.Duration(r.Plain.Events)
}

// Run runs the measurement.
func (t TokenPath) Run(ctx context.Context) (res TokenResult, err error) {
	if t.Launch == nil {
		return TokenResult{}, errors.New("e2e: TokenPath needs a Launch")
	}
	if t.Tokens <= 0 {
		t.Tokens = 1000
	}
	t.Flush = max(t.Flush, 1)
	t.Rounds = max(t.Rounds, 1)
	if t.Duration <= 0 {
		t.Duration = time.Second
	}
	if t.Stderr == nil {
		t.Stderr = io.Discard
	}
	model, err := NewModelServer(t.Tokens, t.Flush)
	if err != nil {
		return TokenResult{}, err
	}
	defer model.Close()
	p, err := startNamed(ctx, func(name string) (*exec.Cmd, error) { return t.Launch(name, model.URL) }, t.Server, t.Stderr)
	if err != nil {
		return TokenResult{}, err
	}
	defer func() { err = errors.Join(err, p.Stop()) }()
	res = TokenResult{Server: t.Server, Tokens: t.Tokens, Flush: t.Flush}
	// Each turn: the route, its sample and its CPU.
	turn := func(path string, events int, s *Sample, cpu *time.Duration) error {
		c0, err := p.CPU()
		if err != nil {
			return err
		}
		got, err := Load{URL: "http://" + p.Addr + path, Duration: t.Duration, Events: events}.Run(ctx)
		if err != nil {
			return err
		}
		c1, err := p.CPU()
		if err != nil {
			return err
		}
		*s, *cpu = s.merge(got), *cpu+c1-c0
		s.Elapsed += got.Elapsed
		return nil
	}
	// A warm-up of each route, not counted.
	var warm Sample
	var warmCPU time.Duration
	if err := turn(PathTokens, -1, &warm, &warmCPU); err != nil {
		return res, err
	}
	if err := turn(PathFixture, FixtureEvents, &warm, &warmCPU); err != nil {
		return res, err
	}
	if warm.Failures > 0 {
		return res, fmt.Errorf("e2e: %s warm-up: %d failures: %q", t.Server, warm.Failures, warm.Errors)
	}
	for round := range t.Rounds {
		tokensFirst := round%2 == 0
		for k := range 2 {
			if (k == 0) == tokensFirst {
				err = turn(PathTokens, -1, &res.Runs, &res.TokenCPU)
			} else {
				err = turn(PathFixture, FixtureEvents, &res.Plain, &res.PlainCPU)
			}
			if err != nil {
				return res, err
			}
		}
	}
	return res, nil
}
