package ginagui_test

import (
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"github.com/gin-gonic/gin"

	"github.com/agui-go/agui"
	"github.com/agui-go/agui/aguitest"
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
	stateful := core.AgentFunc[draft](func(context.Context, *core.RunContext[draft]) (agui.Outcome, error) {
		return agui.Success(), nil
	})
	r := gin.New()
	if err := ginagui.Register(r, "/plain", sayAgent("x")); err != nil {
		t.Fatal(err)
	}
	if err := ginagui.Register(r, "/stateful", stateful); err != nil {
		t.Fatal(err)
	}
	named := agui.Capabilities{Identity: &agui.IdentityCapabilities{Name: "named"}}
	if err := ginagui.Register(r, "/named/", sayAgent("x"), core.WithCapabilities(named)); err != nil {
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
	if n := len(aguitest.ReadSSE(t, resp.Body)); n != 5 {
		t.Errorf("POST /plain: %d events", n)
	}
	resp.Body.Close()
}

// Methods other than POST on an agent route get 405 with Allow: POST and
// the JSON refusal body, not Gin's 404; the capabilities route still
// answers GET.
func TestRegisterRefusesOtherMethods(t *testing.T) {
	t.Parallel()
	r := gin.New()
	if err := ginagui.Register(r, "/agent", sayAgent("x")); err != nil {
		t.Fatal(err)
	}
	srv := serve(t, r)
	for _, method := range []string{http.MethodGet, http.MethodPut, http.MethodPatch, http.MethodDelete} {
		req, err := http.NewRequestWithContext(context.Background(), method, srv.URL+"/agent", strings.NewReader(runBody))
		if err != nil {
			t.Fatal(err)
		}
		req.Header.Set("Content-Type", "application/json")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		var body struct{ Error, Code string }
		err = json.NewDecoder(resp.Body).Decode(&body)
		resp.Body.Close()
		if resp.StatusCode != http.StatusMethodNotAllowed || resp.Header.Get("Allow") != http.MethodPost {
			t.Errorf("%s: %d, Allow %q; want 405 and POST", method, resp.StatusCode, resp.Header.Get("Allow"))
		}
		if err != nil || body.Code != string(core.CodeMethodNotAllowed) || body.Error == "" {
			t.Errorf("%s: body %+v (%v), want a METHOD_NOT_ALLOWED refusal", method, body, err)
		}
	}
	getCapabilities(t, srv.URL+"/agent/capabilities")
}
