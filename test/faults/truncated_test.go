package faults_test

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strconv"
	"testing"

	"github.com/gin-gonic/gin"

	"github.com/agui-go/agui"
	"github.com/agui-go/agui/core"
	"github.com/agui-go/agui/ginagui"
)

// TestBodyCutShort sends a request whose body stops before its
// Content-Length and then half-closes the connection, as a client that
// crashed mid-upload does. The handler must answer 400 MALFORMED_INPUT
// rather than run the agent or hang.
func TestBodyCutShort(t *testing.T) {
	ran := make(chan struct{}, 1)
	agent := core.AgentFunc[core.NoState](func(ctx context.Context, rc *core.RunContext[core.NoState]) (agui.Outcome, error) {
		ran <- struct{}{}
		return agui.Success(), nil
	})
	r := gin.New()
	if err := ginagui.Register(r, "/agent", agent, quiet()...); err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(r)
	defer srv.Close()

	body := runBody("cut")
	conn, err := net.Dial("tcp", srv.Listener.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	head := "POST /agent HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: " +
		strconv.Itoa(len(body)) + "\r\n\r\n"
	if _, err := io.WriteString(conn, head+string(body[:len(body)/2])); err != nil {
		t.Fatal(err)
	}
	if err := conn.(*net.TCPConn).CloseWrite(); err != nil {
		t.Fatal(err)
	}
	res, err := http.ReadResponse(bufio.NewReader(conn), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	var got struct{ Code string }
	if err := json.NewDecoder(res.Body).Decode(&got); err != nil {
		t.Fatal(err)
	}
	if res.StatusCode != http.StatusBadRequest || got.Code != string(core.CodeMalformedInput) {
		t.Errorf("got %d %q, want 400 %s", res.StatusCode, got.Code, core.CodeMalformedInput)
	}
	select {
	case <-ran:
		t.Error("the agent ran on a truncated body")
	default:
	}
}
