package a2ui_test

import (
	"encoding/json"
	"testing"

	"github.com/agui-go/agui"
	"github.com/agui-go/agui/loop/a2ui"
)

func TestOperationRoundTrip(t *testing.T) {
	ops := []a2ui.Operation{
		a2ui.CreateSurfaceOp("s", "cat"),
		a2ui.UpdateComponentsOp("s", a2ui.Component{ID: "root", Type: "Text", Props: map[string]any{"text": "hi"}}),
		a2ui.UpdateDataModelOp("s", "/", map[string]any{"a": 1.0}),
		a2ui.DeleteSurfaceOp("s"),
	}
	want := []string{
		`{"version":"v0.9","createSurface":{"surfaceId":"s","catalogId":"cat"}}`,
		`{"version":"v0.9","updateComponents":{"surfaceId":"s","components":[{"component":"Text","id":"root","text":"hi"}]}}`,
		`{"version":"v0.9","updateDataModel":{"surfaceId":"s","path":"/","value":{"a":1}}}`,
		`{"version":"v0.9","deleteSurface":{"surfaceId":"s"}}`,
	}
	for i, op := range ops {
		b, err := json.Marshal(op)
		if err != nil {
			t.Fatal(err)
		}
		if string(b) != want[i] {
			t.Errorf("op %d:\n got %s\nwant %s", i, b, want[i])
		}
		var back a2ui.Operation
		if err := json.Unmarshal(b, &back); err != nil {
			t.Fatalf("op %d: %v", i, err)
		}
		if back.SurfaceID() != "s" {
			t.Errorf("op %d: surface %q after a round trip", i, back.SurfaceID())
		}
		again, _ := json.Marshal(back)
		if string(again) != want[i] {
			t.Errorf("op %d: round trip gives %s", i, again)
		}
	}
}

// Hostile or foreign operations are refused with CodeUnknownOperation.
func TestOperationRefused(t *testing.T) {
	for _, in := range []string{
		`{"version":"v0.9","beginRendering":{"surfaceId":"s"}}`,
		`{"version":"v0.8","createSurface":{"surfaceId":"s","catalogId":"c"}}`,
		`{"createSurface":{"surfaceId":"s","catalogId":"c"}}`,
		`{"version":"v0.9"}`,
		`{"version":"v0.9","createSurface":{"surfaceId":"s","catalogId":"c"},"deleteSurface":{"surfaceId":"s"}}`,
		`{"version":"v0.9","deleteSurface":"s"}`,
		`[1,2]`,
	} {
		var op a2ui.Operation
		err := json.Unmarshal([]byte(in), &op)
		if agui.CodeOf(err) != a2ui.CodeUnknownOperation {
			t.Errorf("%s: err %v, want code %s", in, err, a2ui.CodeUnknownOperation)
		}
	}
	if _, err := json.Marshal(a2ui.Operation{}); err == nil {
		t.Error("an empty operation encoded")
	}
	two := a2ui.CreateSurfaceOp("s", "c")
	two.DeleteSurface = &a2ui.DeleteSurface{SurfaceID: "s"}
	if _, err := json.Marshal(two); err == nil {
		t.Error("an operation with two operations encoded")
	}
}

func TestSurfaceOperations(t *testing.T) {
	s := a2ui.Surface{ID: "s", CatalogID: "c", Components: []a2ui.Component{{ID: "root", Type: "Text"}}}
	if ops := s.Operations(); len(ops) != 2 || ops[0].CreateSurface == nil || ops[1].UpdateComponents == nil {
		t.Fatalf("without data: %+v", ops)
	}
	s.Data = map[string]any{"x": 1}
	ops := s.Operations()
	if len(ops) != 3 || ops[2].UpdateDataModel == nil || ops[2].UpdateDataModel.Path != "/" {
		t.Fatalf("with data: %+v", ops)
	}
}

func TestComponentFlatForm(t *testing.T) {
	var c a2ui.Component
	if err := json.Unmarshal([]byte(`{"id":"card","component":"HotelCard","name":{"path":"name"},"rating":4}`), &c); err != nil {
		t.Fatal(err)
	}
	if c.ID != "card" || c.Type != "HotelCard" || len(c.Props) != 2 {
		t.Fatalf("decoded %+v", c)
	}
	// Props named id or component never override the fields.
	c.Props["id"] = "evil"
	b, _ := json.Marshal(c)
	if string(b) != `{"component":"HotelCard","id":"card","name":{"path":"name"},"rating":4}` {
		t.Fatalf("encoded %s", b)
	}
	b, _ = json.Marshal(a2ui.Component{ID: "root", Type: "Row", Props: map[string]any{"children": a2ui.Template("card", "/items"), "title": a2ui.Path("/t")}})
	if string(b) != `{"children":{"componentId":"card","path":"/items"},"component":"Row","id":"root","title":{"path":"/t"}}` {
		t.Fatalf("helpers encode as %s", b)
	}
}
