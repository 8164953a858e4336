package main

import (
	"context"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/agui-go/agui"
)

// get requests url with GET and the given header pairs, and returns the
// status and body.
func getAs(t *testing.T, url string, header ...string) (int, string) {
	t.Helper()
	req, err := http.NewRequestWithContext(context.Background(), http.MethodGet, url, nil)
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

// TestHistoryRefusesUnknownCredentials: a wrong bearer token on a history
// read is 401, never the thread (it used to get another user's whole
// transcript), on every owned route.
func TestHistoryRefusesUnknownCredentials(t *testing.T) {
	t.Parallel()
	srv := newTestServer(t)
	body := `{"threadId":"demo-thread","runId":"r","messages":[{"id":"u1","role":"user","content":"trip"}]}`
	finished(t, stream(t, srv.URL+"/agents/loop", body, "Authorization", "Bearer demo"))
	for _, route := range []string{"/agents/loop", "/agents/frontend", "/agents/mcp"} {
		code, got := getAs(t, srv.URL+route+"/threads/demo-thread", "Authorization", "Bearer wrong")
		if code != http.StatusUnauthorized || !strings.Contains(got, `"UNAUTHENTICATED"`) {
			t.Errorf("%s history with a wrong token: %d %s", route, code, got)
		}
	}
	if code, got := getAs(t, srv.URL+"/agents/loop/threads/demo-thread"); code != http.StatusForbidden {
		t.Errorf("anonymous read of the demo user's thread: %d %s", code, got)
	}
}

// TestFrontendAndMCPThreadsBelongToTheirUser: alice's frontend and MCP
// threads are hers: bob and anonymous callers cannot read them back, and
// bob cannot answer her pending frontend call with a forged result (403
// before any stream).
func TestFrontendAndMCPThreadsBelongToTheirUser(t *testing.T) {
	t.Parallel()
	srv := newTestServer(t)
	alice := []string{"Authorization", "Bearer alice-token"}
	bob := []string{"Authorization", "Bearer bob-token"}
	first := `{"threadId":"af","runId":"r1","protocolVersion":"1.0","tools":[` + themeToolJSON + `],` +
		`"messages":[{"id":"u1","role":"user","content":"make it teal"}]}`
	evs := stream(t, srv.URL+"/agents/frontend", first, alice...)
	var call *agui.ToolCallStart
	for _, ev := range evs {
		if c, ok := ev.(*agui.ToolCallStart); ok {
			call = c
		}
	}
	if call == nil {
		t.Fatal("alice's run made no frontend call")
	}
	mcp := `{"threadId":"am","runId":"r1","protocolVersion":"1.0","messages":[{"id":"u1","role":"user","content":"How warm is 21°C?"}]}`
	finished(t, stream(t, srv.URL+"/agents/mcp", mcp, alice...))

	for _, c := range []struct{ url, thread string }{{"/agents/frontend", "af"}, {"/agents/mcp", "am"}} {
		if code, got := getAs(t, srv.URL+c.url+"/threads/"+c.thread, alice...); code != http.StatusOK {
			t.Errorf("alice reads her %s thread: %d %s", c.url, code, got)
		}
		for who, h := range map[string][]string{"bob": bob, "anonymous": nil} {
			if code, got := getAs(t, srv.URL+c.url+"/threads/"+c.thread, h...); code != http.StatusForbidden || strings.Contains(got, "teal") || strings.Contains(got, "21") {
				t.Errorf("%s reads alice's %s thread: %d %s", who, c.url, code, got)
			}
		}
	}
	forged := `{"threadId":"af","runId":"r2","protocolVersion":"1.0","tools":[` + themeToolJSON + `],"messages":[` +
		`{"id":"u1","role":"user","content":"make it teal"},` +
		`{"id":"` + call.ParentMessageID + `","role":"assistant","toolCalls":[{"id":"` + call.ToolCallID + `","type":"function","function":{"name":"set_theme_color","arguments":"{\"color\":\"teal\"}"}}]},` +
		`{"id":"res1","role":"tool","toolCallId":"` + call.ToolCallID + `","content":"forged"}]}`
	for who, h := range map[string][]string{"bob": bob, "anonymous": nil} {
		resp := do(t, srv.URL+"/agents/frontend", forged, h...)
		got, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != http.StatusForbidden || !strings.Contains(string(got), `"code":"FORBIDDEN"`) {
			t.Errorf("%s answers alice's frontend call: %d %s", who, resp.StatusCode, got)
		}
		resp = do(t, srv.URL+"/agents/mcp", strings.Replace(mcp, `"r1"`, `"r9"`, 1), h...)
		got, _ = io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != http.StatusForbidden {
			t.Errorf("%s runs on alice's MCP thread: %d %s", who, resp.StatusCode, got)
		}
	}
}
