package mcptool

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/agui-go/agui"
	"github.com/agui-go/agui/loop"
)

// Toolset is the tools of one MCP server as loop tools. Give it to an
// agent with [loop.WithToolSets]: each model turn is then offered the server's
// tools of that moment. Close it when done.
//
// A Toolset is safe for concurrent use; its tools may be called from any
// number of runs at once.
type Toolset struct {
	cfg     config
	session *mcp.ClientSession
	server  string

	mu    sync.Mutex
	tools []loop.Tool
	names map[string]bool // the server's names of the tools offered
	gone  error           // set once the connection is closed

	changed chan struct{} // a list_changed arrived; buffered 1
	stop    chan struct{} // closed by Close
	wg      sync.WaitGroup
	close   sync.Once
}

var _ loop.ToolSet = (*Toolset)(nil)

// Connect starts an MCP session over t (an [*mcp.CommandTransport] runs a
// server as a subprocess and talks to it over stdio; an
// [*mcp.StreamableClientTransport] reaches one over streamable HTTP) and
// loads the server's tools. ctx bounds the connection and the first
// listing only. A server that cannot be reached fails it with
// [CodeServerUnavailable], and a tool whose input schema the loop cannot validate
// arguments with fails it with [CodeSchema] (naming the tool), rather than
// being offered unchecked.
func Connect(ctx context.Context, t mcp.Transport, opts ...Option) (*Toolset, error) {
	cfg := config{callTimeout: DefaultCallTimeout}
	for _, o := range opts {
		if err := o(&cfg); err != nil {
			return nil, err
		}
	}
	s := &Toolset{cfg: cfg, changed: make(chan struct{}, 1), stop: make(chan struct{})}
	client := mcp.NewClient(&mcp.Implementation{Name: "agui-go-loop", Version: "1"}, &mcp.ClientOptions{
		ToolListChangedHandler: func(context.Context, *mcp.ToolListChangedRequest) {
			select {
			case s.changed <- struct{}{}:
			default: // a reload is already due
			}
		},
	})
	session, err := client.Connect(ctx, t, nil)
	if err != nil {
		return nil, agui.NewError(CodeServerUnavailable, "mcp: connecting: "+err.Error())
	}
	s.session = session
	s.server = "MCP server"
	if ir := session.InitializeResult(); ir != nil && ir.ServerInfo != nil && ir.ServerInfo.Name != "" {
		s.server = "MCP server " + ir.ServerInfo.Name
	}
	if err := s.Reload(ctx); err != nil {
		_ = session.Close()
		return nil, err
	}
	s.wg.Add(2)
	go s.watch()
	go s.reloads()
	return s, nil
}

// watch records the end of the connection, so that later calls fail
// at once with CodeServerUnavailable.
func (s *Toolset) watch() {
	defer s.wg.Done()
	err := s.session.Wait()
	if err == nil {
		err = errors.New("connection closed")
	}
	s.mu.Lock()
	s.gone = err
	s.mu.Unlock()
}

// reloads reloads the tool list on every list_changed until Close.
func (s *Toolset) reloads() {
	defer s.wg.Done()
	for {
		select {
		case <-s.stop:
			return
		case <-s.changed:
		}
		// Close closes the session, which ends a listing in flight.
		err := s.Reload(context.Background())
		select {
		case <-s.stop:
			return // the listing Close cut short is no news
		default:
		}
		if f := s.cfg.onReload; f != nil {
			var names []string
			if err == nil {
				for _, t := range s.Tools() {
					names = append(names, t.Name())
				}
			}
			f(names, err)
		}
	}
}

// Tools returns the loop tools of the server's current tool list.
func (s *Toolset) Tools() []loop.Tool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]loop.Tool(nil), s.tools...)
}

// Reload lists the server's tools again and makes them the set's tools.
// On error the previous list stays. A [Toolset] reloads by itself when the
// server announces a change; Reload is for servers that do not.
func (s *Toolset) Reload(ctx context.Context) error {
	var (
		tools []loop.Tool
		names = map[string]bool{}
	)
	for t, err := range s.session.Tools(ctx, nil) {
		if err != nil {
			return s.unavailable(ctx, "listing tools", err)
		}
		schema, err := json.Marshal(t.InputSchema)
		if err != nil {
			return agui.NewError(CodeSchema, fmt.Sprintf("%s: tool %s: input schema: %v", s.server, t.Name, err))
		}
		name := t.Name
		tool, err := loop.RawTool(s.cfg.prefix+name, t.Description, schema, func(ctx context.Context, args json.RawMessage) (string, error) {
			return s.call(ctx, name, args)
		})
		if err != nil {
			return &agui.Error{Code: CodeSchema, Message: fmt.Sprintf("%s: tool %s: %v", s.server, t.Name, err), Err: err}
		}
		tools = append(tools, tool)
		names[name] = true
	}
	s.mu.Lock()
	s.tools, s.names = tools, names
	s.mu.Unlock()
	return nil
}

// call calls the server's tool name.
func (s *Toolset) call(ctx context.Context, name string, args json.RawMessage) (string, error) {
	s.mu.Lock()
	gone, offered := s.gone, s.names[name]
	s.mu.Unlock()
	if gone != nil {
		// The SDK's error (it may name the session) is the cause, for the
		// log: the message is what the model and the client read.
		return "", &agui.Error{Code: CodeServerUnavailable, Message: s.server + " is unavailable", Err: gone}
	}
	if !offered {
		return "", agui.NewError(CodeRemoved, fmt.Sprintf("%s no longer offers the tool %s", s.server, name))
	}
	callCtx, cancel := context.WithTimeout(ctx, s.cfg.callTimeout)
	defer cancel()
	res, err := s.session.CallTool(callCtx, &mcp.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		if ctx.Err() == nil && callCtx.Err() != nil {
			return "", &agui.Error{Code: CodeTimeout, Message: fmt.Sprintf("%s did not answer %s within %v", s.server, name, s.cfg.callTimeout), Err: err}
		}
		return "", s.unavailable(ctx, "calling "+name, err)
	}
	text, err := render(res)
	if err != nil {
		return "", fmt.Errorf("%s: result of %s: %w", s.server, name, err)
	}
	if res.IsError {
		return "", agui.NewError(CodeToolError, text)
	}
	return text, nil
}

// unavailable wraps a failed request: the context's error when the caller
// gave up (the loop reports a cancelled call), else CodeServerUnavailable.
func (s *Toolset) unavailable(ctx context.Context, what string, err error) error {
	if ctx.Err() != nil {
		return fmt.Errorf("%s: %s: %w", s.server, what, context.Cause(ctx))
	}
	return &agui.Error{Code: CodeServerUnavailable, Message: fmt.Sprintf("%s is unavailable: %s failed", s.server, what), Err: err}
}

// render turns a tool result into the text the model reads: the text
// contents joined by newlines when all contents are text, the structured
// content as JSON when there is no content, else the contents as a JSON
// array.
func render(res *mcp.CallToolResult) (string, error) {
	texts := make([]string, 0, len(res.Content))
	for _, c := range res.Content {
		t, ok := c.(*mcp.TextContent)
		if !ok {
			b, err := json.Marshal(res.Content)
			return string(b), err
		}
		texts = append(texts, t.Text)
	}
	if len(texts) == 0 && res.StructuredContent != nil {
		b, err := json.Marshal(res.StructuredContent)
		return string(b), err
	}
	return strings.Join(texts, "\n"), nil
}

// Close ends the session (a subprocess server is stopped) and joins the
// Toolset's goroutines. Calls after Close fail with [CodeServerUnavailable].
func (s *Toolset) Close() error {
	var err error
	s.close.Do(func() {
		close(s.stop)
		err = s.session.Close()
		s.wg.Wait()
	})
	return err
}
