package ginagui_test

import (
	"context"
	"encoding/json"
	"net/http"
	"testing"

	"github.com/gin-gonic/gin"

	"github.com/agui-go/agui/core"
	"github.com/agui-go/agui/ginagui"
)

func getCapabilities(t *testing.T, url string) map[string]any {
	t.Helper()
	resp, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK || resp.Header.Get("Content-Type") != "application/json" {
		t.Fatalf("GET %s: %d %s", url, resp.StatusCode, resp.Header.Get("Content-Type"))
	}
	var caps map[string]any
	if err := json.NewDecoder(resp.Body).Decode(&caps); err != nil {
		t.Fatal(err)
	}
	return caps
}

func TestRegisterCapabilities(t *testing.T) {
	t.Parallel()
	type draft struct{ Title string }
	stateful := core.AgentFunc[draft](func(context.Context, *core.RunContext[draft]) (core.Outcome, error) {
		return core.Success(), nil
	})
	r := gin.New()
	if err := ginagui.Register(r, "/plain", sayAgent("x")); err != nil {
		t.Fatal(err)
	}
	if err := ginagui.Register(r, "/stateful", stateful); err != nil {
		t.Fatal(err)
	}
	named := core.Capabilities{Identity: &core.IdentityCapabilities{Name: "named"}}
	if err := ginagui.Register(r, "/named/", sayAgent("x"), ginagui.WithCapabilities(named)); err != nil {
		t.Fatal(err)
	}
	srv := serve(t, r)

	plain := getCapabilities(t, srv.URL+"/plain/capabilities")
	if tr, _ := plain["transport"].(map[string]any); tr["streaming"] != true {
		t.Errorf("plain: %v, want transport.streaming", plain)
	}
	if _, ok := plain["state"]; ok {
		t.Errorf("plain: %v declares state for a NoState agent", plain)
	}
	if st, _ := getCapabilities(t, srv.URL+"/stateful/capabilities")["state"].(map[string]any); st["deltas"] != true {
		t.Errorf("stateful: state = %v, want deltas", st)
	}
	got := getCapabilities(t, srv.URL+"/named/capabilities")
	if id, _ := got["identity"].(map[string]any); id["name"] != "named" || len(got) != 1 {
		t.Errorf("named: %v, want exactly the configured capabilities", got)
	}
	resp := postRun(t, srv.URL+"/plain")
	if n := len(readEvents(t, resp.Body)); n != 5 {
		t.Errorf("POST /plain: %d events", n)
	}
	resp.Body.Close()
}
