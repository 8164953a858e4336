package anthropic

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/agui-go/agui/loop"
)

// FuzzStreamEvents feeds arbitrary event sequences (one JSON event a
// line, in any order) to the stream mapping: it never panics, and tool
// argument fragments only go to calls it announced.
func FuzzStreamEvents(f *testing.F) {
	for _, name := range []string{"text.sse", "tools.sse", "thinking.sse", "max_tokens.sse"} {
		data, err := os.ReadFile(filepath.Join("testdata", name))
		if err != nil {
			f.Fatal(err)
		}
		var lines [][]byte
		for _, l := range bytes.Split(data, []byte("\n")) {
			if d, ok := bytes.CutPrefix(l, []byte("data: ")); ok {
				lines = append(lines, d)
			}
		}
		f.Add(bytes.Join(lines, []byte("\n")))
	}
	f.Add([]byte(`{"type":"content_block_delta","index":7,"delta":{"type":"input_json_delta","partial_json":"{"}}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		var s stream
		announced := map[int]bool{}
		yield := func(d loop.Delta, err error) bool {
			if tc := d.ToolCall; tc != nil {
				if tc.Args == "" { // a block start announces the call
					announced[tc.Index] = true
				} else if !announced[tc.Index] {
					t.Fatalf("fragment for unannounced call %d", tc.Index)
				}
			}
			return true
		}
		for _, line := range bytes.Split(data, []byte("\n")) {
			var ev event
			if json.Unmarshal(line, &ev) != nil {
				continue
			}
			s.forward(&ev, yield)
		}
	})
}
