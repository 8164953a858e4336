package httptool

import (
	"context"
	"encoding/binary"
	"errors"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"golang.org/x/net/dns/dnsmessage"

	"github.com/agui-go/agui"
	"github.com/agui-go/agui/loop"
)

func newTestFetcher(t *testing.T, opts ...Option) *fetcher {
	t.Helper()
	cfg := defaults()
	for _, o := range opts {
		if err := o(&cfg); err != nil {
			t.Fatal(err)
		}
	}
	return newFetcher(cfg)
}

func wantBlocked(t *testing.T, err error, rng string) {
	t.Helper()
	var be *BlockedError
	if !errors.As(err, &be) {
		t.Fatalf("got %v, want a *BlockedError", err)
	}
	if be.Range != rng {
		t.Fatalf("refused as %s, want %s: %v", be.Range, rng, err)
	}
}

func TestRequestThroughAllow(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		w.Header().Set("X-Echo", r.Header.Get("X-Test"))
		w.Header().Add("X-Multi", "a")
		w.Header().Add("X-Multi", "b")
		w.WriteHeader(http.StatusTeapot)
		_, _ = io.WriteString(w, r.Method+" "+r.URL.Path+" "+string(b))
	}))
	defer srv.Close()
	f := newTestFetcher(t, WithAllow("127.0.0.1"))
	res, err := f.do(context.Background(), Request{Method: "post", URL: srv.URL + "/p", Headers: map[string]string{"X-Test": "yes"}, Body: "hi"})
	if err != nil {
		t.Fatal(err)
	}
	if res.Status != http.StatusTeapot || res.Body != "POST /p hi" || res.Headers["X-Echo"] != "yes" || res.Headers["X-Multi"] != "a, b" || res.Truncated {
		t.Fatalf("response %+v", res)
	}
}

func TestLoopbackRefusedByDefault(t *testing.T) {
	var hits atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { hits.Add(1) }))
	defer srv.Close()
	f := newTestFetcher(t)
	_, err := f.do(context.Background(), Request{URL: srv.URL})
	wantBlocked(t, err, "loopback")
	// A host name resolving to loopback is refused the same way.
	_, err = f.do(context.Background(), Request{URL: strings.Replace(srv.URL, "127.0.0.1", "localhost", 1)})
	wantBlocked(t, err, "loopback")
	if hits.Load() != 0 {
		t.Fatalf("the server got %d requests", hits.Load())
	}
}

func TestRedirectToBlockedAddressRefused(t *testing.T) {
	for _, target := range []string{"http://127.0.0.2:9/", "http://169.254.169.254/latest/meta-data/", "http://[::1]:9/"} {
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			http.Redirect(w, r, target, http.StatusFound)
		}))
		f := newTestFetcher(t, WithAllow("127.0.0.1"))
		_, err := f.do(context.Background(), Request{URL: srv.URL})
		srv.Close()
		var be *BlockedError
		if !errors.As(err, &be) {
			t.Fatalf("redirect to %s: got %v, want refused", target, err)
		}
	}
}

func TestRedirectCap(t *testing.T) {
	var srv *httptest.Server
	srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/3" {
			_, _ = io.WriteString(w, "arrived")
			return
		}
		next := map[string]string{"/": "/1", "/1": "/2", "/2": "/3"}[r.URL.Path]
		http.Redirect(w, r, srv.URL+next, http.StatusFound)
	}))
	defer srv.Close()
	res, err := newTestFetcher(t, WithAllow("127.0.0.1"), WithMaxRedirects(3)).do(context.Background(), Request{URL: srv.URL})
	if err != nil || res.Status != 200 || res.Body != "arrived" {
		t.Fatalf("3 redirects allowed: %+v %v", res, err)
	}
	res, err = newTestFetcher(t, WithAllow("127.0.0.1"), WithMaxRedirects(2)).do(context.Background(), Request{URL: srv.URL})
	if err != nil || res.Status != http.StatusFound || res.Headers["Location"] != srv.URL+"/3" {
		t.Fatalf("past the cap, want the redirect itself: %+v %v", res, err)
	}
}

func TestAllowHosts(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/away" {
			http.Redirect(w, r, "http://localhost:"+r.Host[strings.LastIndex(r.Host, ":")+1:]+"/", http.StatusFound)
			return
		}
		_, _ = io.WriteString(w, "ok")
	}))
	defer srv.Close()
	f := newTestFetcher(t, WithAllow("127.0.0.1", "::1"), WithAllowHosts("127.0.0.1"))
	if res, err := f.do(context.Background(), Request{URL: srv.URL}); err != nil || res.Body != "ok" {
		t.Fatalf("allowed host: %+v %v", res, err)
	}
	_, err := f.do(context.Background(), Request{URL: strings.Replace(srv.URL, "127.0.0.1", "localhost", 1)})
	if err == nil || !strings.Contains(err.Error(), "not in the allowed hosts") {
		t.Fatalf("other host: %v", err)
	}
	_, err = f.do(context.Background(), Request{URL: srv.URL + "/away"})
	if err == nil || !strings.Contains(err.Error(), "not in the allowed hosts") {
		t.Fatalf("redirect to other host: %v", err)
	}
}

func TestBadURL(t *testing.T) {
	f := newTestFetcher(t)
	for _, u := range []string{"file:///etc/passwd", "ftp://example.com/", "/relative", "http://", "::bad"} {
		if _, err := f.do(context.Background(), Request{URL: u}); err == nil {
			t.Errorf("%q: no error", u)
		}
	}
	if _, err := f.do(context.Background(), Request{Method: "BAD METHOD", URL: "http://example.invalid/"}); err == nil {
		t.Error("bad method: no error")
	}
}

func TestBodyLimit(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/text":
			_, _ = io.WriteString(w, "abcdé") // é is two bytes: a cut inside it is dropped
		case "/binary":
			_, _ = w.Write([]byte{0xff, 0xfe, 0x00, 0x01})
		}
	}))
	defer srv.Close()
	f := newTestFetcher(t, WithAllow("127.0.0.1"), WithMaxBodyBytes(5))
	res, err := f.do(context.Background(), Request{URL: srv.URL + "/text"})
	if err != nil || res.Body != "abcd" || !res.Truncated || res.BodyEncoding != "" {
		t.Fatalf("text: %+v %v", res, err)
	}
	res, err = f.do(context.Background(), Request{URL: srv.URL + "/binary"})
	if err != nil || res.Body != "//4AAQ==" || res.Truncated || res.BodyEncoding != "base64" {
		t.Fatalf("binary: %+v %v", res, err)
	}
}

// hanging returns a server whose handler reports its request on arrived
// and holds it until the client gives up.
func hanging(t *testing.T) (*httptest.Server, chan struct{}) {
	arrived := make(chan struct{}, 1)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		arrived <- struct{}{}
		<-r.Context().Done()
	}))
	t.Cleanup(srv.Close)
	return srv, arrived
}

func TestAbortCancelsRequest(t *testing.T) {
	srv, arrived := hanging(t)
	f := newTestFetcher(t, WithAllow("127.0.0.1"))
	ctx, cancel := context.WithCancel(context.Background())
	errc := make(chan error, 1)
	go func() {
		_, err := f.do(ctx, Request{URL: srv.URL})
		errc <- err
	}()
	<-arrived
	cancel()
	if err := <-errc; !errors.Is(err, context.Canceled) {
		t.Fatalf("got %v, want context.Canceled", err)
	}
}

func TestTimeout(t *testing.T) {
	srv, _ := hanging(t)
	f := newTestFetcher(t, WithAllow("127.0.0.1"), WithTimeout(50*time.Millisecond))
	if _, err := f.do(context.Background(), Request{URL: srv.URL}); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("got %v, want a deadline error", err)
	}
}

// A host name whose DNS answer is a private address is refused at
// connect time: the resolver here is an in-test DNS server that answers
// every A query with 10.0.0.7.
func TestHostResolvingToPrivateRefused(t *testing.T) {
	var wg sync.WaitGroup
	t.Cleanup(wg.Wait)
	res := &net.Resolver{PreferGo: true, Dial: func(ctx context.Context, network, address string) (net.Conn, error) {
		client, server := net.Pipe()
		wg.Go(func() { serveDNS(server, [4]byte{10, 0, 0, 7}) })
		return client, nil
	}}
	f := newTestFetcher(t, WithResolver(res))
	_, err := f.do(context.Background(), Request{URL: "http://internal.example.test/"})
	wantBlocked(t, err, "private")
}

// serveDNS answers the DNS queries read from c (TCP framing: a two-byte
// length before each message) until c is closed: A queries with addr, any
// other with no answer.
func serveDNS(c net.Conn, addr [4]byte) {
	defer c.Close()
	for {
		var n [2]byte
		if _, err := io.ReadFull(c, n[:]); err != nil {
			return
		}
		buf := make([]byte, binary.BigEndian.Uint16(n[:]))
		if _, err := io.ReadFull(c, buf); err != nil {
			return
		}
		var p dnsmessage.Parser
		h, err := p.Start(buf)
		if err != nil {
			return
		}
		q, err := p.Question()
		if err != nil {
			return
		}
		b := dnsmessage.NewBuilder(nil, dnsmessage.Header{ID: h.ID, Response: true, Authoritative: true})
		b.EnableCompression()
		_ = b.StartQuestions()
		_ = b.Question(q)
		_ = b.StartAnswers()
		if q.Type == dnsmessage.TypeA {
			_ = b.AResource(dnsmessage.ResourceHeader{Name: q.Name, Class: dnsmessage.ClassINET, TTL: 60}, dnsmessage.AResource{A: addr})
		}
		msg, err := b.Finish()
		if err != nil {
			return
		}
		binary.BigEndian.PutUint16(n[:], uint16(len(msg)))
		if _, err := c.Write(append(n[:], msg...)); err != nil {
			return
		}
	}
}

// Through the loop: aborting the run cancels the tool's request, and the
// call gets a cancelled result.
func TestAbortThroughLoop(t *testing.T) {
	srv, arrived := hanging(t)
	tool, err := New(WithAllow("127.0.0.1"))
	if err != nil {
		t.Fatal(err)
	}
	model := loop.Script(loop.Turn{Calls: []loop.ScriptedCall{{ID: "c1", Name: "http_request", Args: `{"url":"` + srv.URL + `"}`}}}, loop.Turn{Text: "ok"})
	agent, err := loop.New(model, loop.WithTools(tool))
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan loop.Result, 1)
	go func() {
		res, _ := agent.Execute(ctx, loop.Input{Messages: []agui.Message{loop.UserText("go")}})
		done <- res
	}()
	<-arrived
	cancel()
	res := <-done
	if res.FinishReason != loop.FinishAborted {
		t.Fatalf("finish %s", res.FinishReason)
	}
	tm := res.Messages[2].(*agui.ToolMessage)
	if !strings.Contains(tm.Content.String(), `"cancelled"`) {
		t.Fatalf("result %s", tm.Content.String())
	}
}

// A request that fails reaches the model and the client as a code and a
// message naming no address: HTTP_REQUEST_FAILED for a refused
// connection, HTTP_BAD_URL for a URL it will not follow. Before, the dial
// error, with the address and port, was the call's result.
func TestFailureResultNamesNoAddress(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close() // nothing listens there now: the connection is refused
	tool, err := New(WithAllow("127.0.0.1"))
	if err != nil {
		t.Fatal(err)
	}
	model := loop.Script(loop.Turn{Calls: []loop.ScriptedCall{
		{ID: "c1", Name: "http_request", Args: `{"url":"http://` + addr + `/x"}`},
		{ID: "c2", Name: "http_request", Args: `{"url":"ftp://example.com/x"}`},
	}}, loop.Turn{Text: "ok"})
	agent, err := loop.New(model, loop.WithTools(tool), loop.WithLogger(slog.New(slog.DiscardHandler)))
	if err != nil {
		t.Fatal(err)
	}
	res, err := agent.Execute(t.Context(), loop.Input{Messages: []agui.Message{loop.UserText("go")}})
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{"c1": string(CodeRequestFailed), "c2": string(CodeBadURL)}
	for _, m := range res.Messages {
		tm, ok := m.(*agui.ToolMessage)
		if !ok {
			continue
		}
		c := tm.Content.String()
		if !strings.Contains(c, `"code":"`+want[tm.ToolCallID]+`"`) || strings.Contains(c, addr) || strings.Contains(c, "dial") {
			t.Errorf("%s: result %s", tm.ToolCallID, c)
		}
	}
}
