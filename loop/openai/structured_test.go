package openai

import (
	"testing"

	"github.com/agui-go/agui"
	"github.com/agui-go/agui/loop"
)

func TestOutputAsResponseFormat(t *testing.T) {
	s := newServer(t, play(t, "text.sse"))
	out := &loop.OutputSpec{Name: "output", Schema: []byte(`{"type":"object","properties":{"city":{"type":"string"}},"required":["city"]}`)}
	if _, err := collect(t, newProvider(t, s), loop.ModelRequest{Messages: []agui.Message{loop.UserText("x")}, Output: out}); err != nil {
		t.Fatal(err)
	}
	rf := get(s.requests()[0], "response_format")
	if get(rf, "type") != "json_schema" || get(rf, "json_schema", "name") != "output" ||
		get(rf, "json_schema", "strict") != false || get(rf, "json_schema", "schema", "properties", "city", "type") != "string" {
		t.Fatalf("response_format %v", rf)
	}
}
