package agui_test

import (
	"encoding/json"
	"testing"

	"github.com/agui-go/agui"
)

func TestCapabilitiesToolItems(t *testing.T) {
	caps := agui.Capabilities{Tools: &agui.ToolsCapabilities{
		Supported: new(true),
		Items:     []agui.Tool{{Name: "search", Description: "Search the web"}},
	}}
	got, err := json.Marshal(caps)
	if err != nil {
		t.Fatal(err)
	}
	const want = `{"tools":{"supported":true,"items":[{"name":"search","description":"Search the web"}]}}`
	if string(got) != want {
		t.Fatalf("got  %s\nwant %s", got, want)
	}
}
