package anthropic

import (
	"net/http"
	"testing"

	"github.com/agui-go/agui"
	"github.com/agui-go/agui/loop"
)

func TestOutputAsOutputFormat(t *testing.T) {
	s := newServer(t, play(t, "text.sse"))
	out := &loop.OutputSpec{Name: "output", Schema: []byte(`{"type":"object","properties":{"city":{"type":"string"}},"required":["city"]}`)}
	if _, err := collect(t, newProvider(t, s), loop.ModelRequest{Messages: []agui.Message{loop.UserText("x")}, Output: out}); err != nil {
		t.Fatal(err)
	}
	f := path(s.requests()[0], "output_config", "format")
	if path(f, "type") != "json_schema" || path(f, "schema", "properties", "city", "type") != "string" {
		t.Fatalf("output_config %v", s.requests()[0]["output_config"])
	}
}

// The whole loop: Claude's JSON answer becomes the typed output.
func TestLoopTypedOutput(t *testing.T) {
	s := newServer(t, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		w.Write([]byte("event: message_start\ndata: {\"type\":\"message_start\",\"message\":{\"id\":\"msg_1\",\"type\":\"message\",\"role\":\"assistant\",\"model\":\"claude-sonnet-5\",\"content\":[],\"usage\":{\"input_tokens\":5,\"output_tokens\":1}}}\n\n" +
			"event: content_block_start\ndata: {\"type\":\"content_block_start\",\"index\":0,\"content_block\":{\"type\":\"text\",\"text\":\"\"}}\n\n" +
			"event: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":\"text_delta\",\"text\":\"{\\\"city\\\": \\\"Os\"}}\n\n" +
			"event: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":\"text_delta\",\"text\":\"lo\\\", \\\"tempC\\\": 21}\"}}\n\n" +
			"event: content_block_stop\ndata: {\"type\":\"content_block_stop\",\"index\":0}\n\n" +
			"event: message_delta\ndata: {\"type\":\"message_delta\",\"delta\":{\"stop_reason\":\"end_turn\"},\"usage\":{\"output_tokens\":12}}\n\n" +
			"event: message_stop\ndata: {\"type\":\"message_stop\"}\n\n"))
	})
	type forecast struct {
		City  string `json:"city"`
		TempC int    `json:"tempC"`
	}
	a, err := loop.New(newProvider(t, s), loop.WithOutput[forecast]())
	if err != nil {
		t.Fatal(err)
	}
	res, err := a.Execute(t.Context(), loop.Input{Messages: []agui.Message{loop.UserText("Weather?")}})
	if err != nil || res.Output != (forecast{City: "Oslo", TempC: 21}) {
		t.Fatalf("output %#v err %v", res.Output, err)
	}
}
