package client

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"iter"
	"mime"
	"net/http"
	"net/url"
	"slices"
	"strings"

	"github.com/agui-go/agui"
)

// Agent is an AG-UI agent at a URL, run over HTTP as @ag-ui/client's
// HttpAgent runs one: each run POSTs a [agui.RunAgentInput] and reads the
// event stream the agent answers with (SSE, or protobuf with
// [WithProtobuf]), verified by an [agui.Verifier] and reduced into a
// [View].
//
// An Agent is safe for concurrent use; each run has its own stream,
// verifier and view.
type Agent struct {
	url string
	cfg config
}

// New returns the agent at rawURL, an absolute http or https URL.
func New(rawURL string, opts ...Option) (*Agent, error) {
	u, err := url.Parse(rawURL)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, errOption("New: " + rawURL + " is not an absolute http(s) URL")
	}
	cfg := defaultConfig()
	for _, o := range opts {
		if err := o(&cfg); err != nil {
			return nil, err
		}
	}
	return &Agent{url: rawURL, cfg: cfg}, nil
}

// Run runs the agent on in to the end of its stream and returns the view
// it reduces to: in's messages and state with everything the run added.
// The error is the stream's rejection (a request the agent refused, as a
// [*StatusError] inside an [*agui.Error] with its code; a stream that
// breaks the protocol, with code PROTOCOL_VIOLATION naming the rule and the
// id; a stream that ends before its terminal event, code DISCONNECTED) or
// ctx's end (code CANCELLED). A run that ends in RUN_ERROR is no error
// here: the view's RunError holds it.
func (a *Agent) Run(ctx context.Context, in *agui.RunAgentInput) (*View, error) {
	view, err := NewView(in)
	if err != nil {
		return nil, err
	}
	for _, err := range a.Events(ctx, in, view) {
		if err != nil {
			return view, err
		}
	}
	return view, nil
}

// Events runs the agent on in and yields its events as they arrive, after
// verification and chunk expansion, so a TEXT_MESSAGE_CHUNK arrives as the
// start, content and end events it stands for. Before each event is
// yielded it is applied to view, unless view is nil (start one with
// [NewView]). The last pair carries the error, if the stream is rejected
// or ctx ends; see [Agent.Run] for the codes. Breaking out of the loop
// ends the request; on a resumable route that keeps runs going without
// their connection the run goes on, as with resumableFetch, while
// cancelling ctx stops it (see [WithReconnects]).
func (a *Agent) Events(ctx context.Context, in *agui.RunAgentInput, view *View) iter.Seq2[agui.Event, error] {
	return func(yield func(agui.Event, error) bool) {
		resp, err := a.post(ctx, in)
		if err != nil {
			yield(nil, err)
			return
		}
		p := &pipeline{agent: a, view: view}
		p.read(ctx, resp, func(ev agui.Event, err error) bool {
			if err != nil {
				return yield(nil, contextError(ctx, err))
			}
			return yield(ev, nil)
		})
	}
}

// post sends the run request and returns a 2xx response.
func (a *Agent) post(ctx context.Context, in *agui.RunAgentInput) (*http.Response, error) {
	body, err := json.Marshal(a.cfg.request(withoutActivities(in)))
	if err != nil {
		return nil, err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, a.url, bytes.NewReader(body))
	if err != nil {
		return nil, errOption(err.Error())
	}
	a.header(req)
	req.Header.Set("Content-Type", "application/json")
	accept := agui.SSEContentType
	if a.cfg.protobuf {
		accept = agui.ProtoContentType + ", " + agui.SSEContentType + ";q=0.5"
	}
	req.Header.Set("Accept", accept)
	resp, err := a.cfg.httpClient.Do(req)
	if err != nil {
		return nil, contextError(ctx, &agui.Error{Code: agui.CodeDisconnected, Message: "client: " + err.Error(), Err: err})
	}
	if resp.StatusCode/100 != 2 {
		defer resp.Body.Close()
		return nil, statusError(resp)
	}
	return resp, nil
}

// statusError reads a refusal's body into a *StatusError.
func statusError(resp *http.Response) error {
	b, _ := io.ReadAll(io.LimitReader(resp.Body, 64<<10))
	se := &StatusError{StatusCode: resp.StatusCode}
	var body struct {
		Error string    `json:"error"`
		Code  agui.Code `json:"code"`
		Field string    `json:"field"`
	}
	if mt, _, _ := mime.ParseMediaType(resp.Header.Get("Content-Type")); mt == "application/json" && json.Unmarshal(b, &body) == nil {
		se.Code, se.Message, se.Field = body.Code, body.Error, body.Field
	} else {
		se.Message = strings.TrimSpace(string(b[:min(len(b), 200)]))
	}
	code := se.Code
	if code == "" {
		code = agui.CodeProtocol
	}
	return &agui.Error{Code: code, Message: "client: the agent refused the run: " + se.Error(), Err: se}
}

// contextError turns an error after ctx ended into a CANCELLED error.
func contextError(ctx context.Context, err error) error {
	if ctx.Err() == nil || agui.IsCancelled(err) {
		return err
	}
	return &agui.Error{Code: agui.CodeCancelled, Message: "client: the run was cancelled: " + context.Cause(ctx).Error(), Err: errors.Join(ctx.Err(), err)}
}

// header adds the headers of [WithHeader] to req.
func (a *Agent) header(req *http.Request) {
	for k, vs := range a.cfg.header {
		req.Header[k] = vs
	}
}

// withoutActivities is in without its activity messages: they are the
// client's view of a run's progress, never input to the agent, and
// @ag-ui/client leaves them out of every request in the same way.
func withoutActivities(in *agui.RunAgentInput) *agui.RunAgentInput {
	isActivity := func(m agui.Message) bool { _, ok := m.(*agui.ActivityMessage); return ok }
	if !slices.ContainsFunc(in.Messages, isActivity) {
		return in
	}
	out := *in
	out.Messages = slices.DeleteFunc(slices.Clone(in.Messages), isActivity)
	return &out
}
