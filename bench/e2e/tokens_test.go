package e2e_test

import (
	"bytes"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/agui-go/agui/bench/e2e"
)

// TestTokenPathShort is the token path's short mode: each provider's loop
// run streams the model server's tokens to complete streams, beside the
// plain route, and the report has its row.
func TestTokenPathShort(t *testing.T) {
	self := launcher(1)
	launch := func(name, modelURL string) (*exec.Cmd, error) {
		// launcher's commands carry ServeMain's arguments in the
		// environment: add the model's URL there.
		cmd, err := self(e2e.ServerNetHTTP)
		if err != nil {
			return nil, err
		}
		for i, kv := range cmd.Env {
			if v, ok := strings.CutPrefix(kv, serveEnv+"="); ok {
				cmd.Env[i] = serveEnv + "=" + strings.Replace(v, e2e.ServerNetHTTP, name, 1) + " -model " + modelURL
			}
		}
		return cmd, nil
	}
	var res []e2e.TokenResult
	for _, server := range []string{e2e.ServerLoopOpenAI, e2e.ServerLoopAnthropic} {
		r, err := e2e.TokenPath{Server: server, Tokens: 50, Flush: 8, Duration: 30 * time.Millisecond, Launch: launch}.Run(t.Context())
		if err != nil {
			t.Fatal(err)
		}
		if r.Runs.Streams == 0 || r.Runs.Failures != 0 || r.Plain.Streams == 0 || r.Plain.Failures != 0 {
			t.Fatalf("%s: runs %+v, plain %+v", server, r.Runs, r.Plain)
		}
		// A run carries at least its tokens, each a TEXT_MESSAGE_CONTENT.
		if r.Runs.Events < int64(r.Runs.Streams)*50 {
			t.Errorf("%s: %d events in %d runs of 50 tokens", server, r.Runs.Events, r.Runs.Streams)
		}
		res = append(res, r)
	}
	var md bytes.Buffer
	e2e.WriteTokens(&md, res)
	for _, s := range []string{e2e.ServerLoopOpenAI, e2e.ServerLoopAnthropic} {
		if !strings.Contains(md.String(), "| "+s+" | 50 | 8 | ") {
			t.Errorf("no row for %s in\n%s", s, md.String())
		}
	}
}

func TestModelServerNeedsTokens(t *testing.T) {
	if _, err := e2e.NewModelServer(0, 1); err == nil {
		t.Fatal("no error for 0 tokens")
	}
}
