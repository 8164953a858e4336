package httptool

import (
	"context"
	"encoding/base64"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"strings"
	"unicode/utf8"

	"github.com/agui-go/agui"
	"github.com/agui-go/agui/loop"
)

// Request is the tool's arguments: the request the model asks for; a
// plain value.
type Request struct {
	Method  string            `json:"method,omitempty" jsonschema:"the HTTP method, GET when empty"`
	URL     string            `json:"url" jsonschema:"the absolute http or https URL"`
	Headers map[string]string `json:"headers,omitempty" jsonschema:"request headers by name"`
	Body    string            `json:"body,omitempty" jsonschema:"the request body"`
}

// Response is the tool's result, returned to the model as JSON; a plain
// value.
type Response struct {
	Status int `json:"status"`
	// Headers are the response's headers, several values of one name
	// joined with ", ".
	Headers map[string]string `json:"headers"`
	// Body is the response body, cut at the body limit; base64 when
	// BodyEncoding says so (a body that is not UTF-8 text).
	Body         string `json:"body"`
	BodyEncoding string `json:"bodyEncoding,omitempty"`
	// Truncated is set when the body was longer than the limit.
	Truncated bool `json:"truncated,omitempty"`
}

// New returns the HTTP tool: a loop tool that makes the request its
// arguments describe ([Request]) and returns a [Response]. The call's
// context is the request's, so an aborted run cancels it.
//
// Every address the tool would connect to is checked just before it
// connects, after name resolution and for each redirect: an address in a
// blocked range (see [WithAllow]) fails the call with a [*BlockedError].
// Non-2xx statuses are results, not errors; a failed request (refused,
// unreachable, timed out) is the call's error result, code
// [CodeRequestFailed], and a URL it will not follow is [CodeBadURL]: the
// model and the client read the code and a message that names no
// address, the loop's log the full error.
//
// The tool keeps no idle connection between calls, so it needs no Close.
func New(opts ...Option) (loop.Tool, error) {
	cfg := defaults()
	for _, o := range opts {
		if err := o(&cfg); err != nil {
			return loop.Tool{}, err
		}
	}
	f := newFetcher(cfg)
	return loop.NewTool(cfg.name, cfg.description, f.do)
}

// fetcher makes the tool's requests; it is immutable and safe for
// concurrent use.
type fetcher struct {
	cfg    config
	client *http.Client
}

func newFetcher(cfg config) *fetcher {
	p := &policy{allow: cfg.allow, blocked: blockedRanges()}
	dialer := &net.Dialer{Timeout: cfg.timeout, Control: p.control, Resolver: cfg.resolver}
	transport := &http.Transport{
		Proxy:               nil, // a proxy would connect on the tool's behalf, past the check
		DialContext:         dialer.DialContext,
		ForceAttemptHTTP2:   true,
		DisableKeepAlives:   true,
		TLSHandshakeTimeout: cfg.timeout,
	}
	f := &fetcher{cfg: cfg}
	f.client = &http.Client{Transport: transport, CheckRedirect: f.checkRedirect}
	return f
}

func (f *fetcher) checkRedirect(req *http.Request, via []*http.Request) error {
	if len(via) > f.cfg.maxRedirects {
		return http.ErrUseLastResponse
	}
	if err := f.checkURL(req.URL); err != nil {
		return &agui.Error{Code: CodeBadURL, Message: "redirect: " + err.Error(), Err: err}
	}
	return nil
}

// checkURL refuses schemes other than http and https, and hosts outside
// the allow-list.
func (f *fetcher) checkURL(u *url.URL) error {
	if u.Scheme != "http" && u.Scheme != "https" {
		return fmt.Errorf("URL scheme %q: only http and https are allowed", u.Scheme)
	}
	if u.Host == "" {
		return errors.New("URL has no host")
	}
	if f.cfg.hosts != nil && !f.cfg.hosts[strings.ToLower(u.Hostname())] {
		return fmt.Errorf("host %q is not in the allowed hosts", u.Hostname())
	}
	return nil
}

func (f *fetcher) do(ctx context.Context, in Request) (Response, error) {
	u, err := url.Parse(in.URL)
	if err != nil {
		return Response{}, &agui.Error{Code: CodeBadURL, Message: "the URL does not parse", Err: err}
	}
	if err := f.checkURL(u); err != nil {
		return Response{}, &agui.Error{Code: CodeBadURL, Message: err.Error(), Err: err}
	}
	method := strings.ToUpper(in.Method)
	if method == "" {
		method = http.MethodGet
	}
	ctx, cancel := context.WithTimeout(ctx, f.cfg.timeout)
	defer cancel()
	var body io.Reader
	if in.Body != "" {
		body = strings.NewReader(in.Body)
	}
	req, err := http.NewRequestWithContext(ctx, method, u.String(), body)
	if err != nil {
		return Response{}, &agui.Error{Code: CodeBadURL, Message: "the request cannot be made (bad method or URL)", Err: err}
	}
	for k, v := range in.Headers {
		req.Header.Set(k, v)
	}
	resp, err := f.client.Do(req)
	if err != nil {
		return Response{}, requestFailed(err)
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(io.LimitReader(resp.Body, f.cfg.maxBody+1))
	if err != nil {
		return Response{}, &agui.Error{Code: CodeRequestFailed, Message: "reading the response body failed", Err: err}
	}
	out := Response{Status: resp.StatusCode, Headers: make(map[string]string, len(resp.Header))}
	for k, vs := range resp.Header {
		out.Headers[k] = strings.Join(vs, ", ")
	}
	if int64(len(data)) > f.cfg.maxBody {
		data, out.Truncated = data[:f.cfg.maxBody], true
	}
	if text, ok := utf8Text(data, out.Truncated); ok {
		out.Body = text
	} else {
		out.Body, out.BodyEncoding = base64.StdEncoding.EncodeToString(data), "base64"
	}
	return out, nil
}

// requestFailed is the error of a request that did not complete: a
// refusal by the guard as it is, else CodeRequestFailed with the full
// error as its cause.
func requestFailed(err error) error {
	var (
		be *BlockedError
		ae *agui.Error
	)
	if errors.As(err, &be) || errors.As(err, &ae) {
		return err // a refusal, or a redirect's bad URL: coded already
	}
	msg := "the request failed"
	if errors.Is(err, context.DeadlineExceeded) {
		msg = "the request timed out"
	}
	return &agui.Error{Code: CodeRequestFailed, Message: msg, Err: err}
}

// utf8Text returns data as text when it is UTF-8; a truncated body may end
// inside a character, which is then dropped.
func utf8Text(data []byte, truncated bool) (string, bool) {
	for cut := 0; cut < utf8.UTFMax && cut <= len(data); cut++ {
		if utf8.Valid(data[:len(data)-cut]) {
			return string(data[:len(data)-cut]), true
		}
		if !truncated {
			break
		}
	}
	return "", false
}
