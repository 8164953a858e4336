package a2ui_test

import (
	"encoding/json"
	"testing"

	"github.com/agui-go/agui/loop/a2ui"
)

// Whatever a model or a client sends, decoding and validating it neither
// panics nor reports more problems than the limit, and an operation that
// decodes encodes again.
func FuzzSurface(f *testing.F) {
	f.Add([]byte(hotels))
	f.Add([]byte(`{"surfaceId":"s","components":[{"id":"root","component":"Card","child":"root"}]}`))
	f.Add([]byte(`{"surfaceId":"s","components":[{"id":"root","children":[1,"x",{"a":1}]},{"id":"x","children":{"componentId":7}}]}`))
	f.Add([]byte(`{"version":"v0.9","updateDataModel":{"surfaceId":"s","path":"/a","value":[1,2]}}`))
	f.Fuzz(func(t *testing.T, b []byte) {
		var s a2ui.Surface
		if json.Unmarshal(b, &s) == nil {
			if ps := a2ui.Validate(s, catalog(t), a2ui.Limits{Problems: 5}); len(ps) > 5 {
				t.Fatalf("%d problems over the limit of 5", len(ps))
			}
			for _, op := range s.Operations() {
				if _, err := json.Marshal(op); err != nil {
					t.Fatalf("a surface's operation does not encode: %v", err)
				}
			}
		}
		var op a2ui.Operation
		if json.Unmarshal(b, &op) == nil {
			if _, err := json.Marshal(op); err != nil {
				t.Fatalf("a decoded operation does not encode: %v", err)
			}
		}
	})
}
