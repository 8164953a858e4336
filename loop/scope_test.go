package loop

import "testing"

func TestScopeRoundTrip(t *testing.T) {
	if _, ok := scopeOf(t.Context()); ok {
		t.Fatal("scope in a bare context")
	}
	ctx := withScope(t.Context(), scope{toolCallID: "c1", line: lineage{depth: 2, maxDepth: 3}})
	s, ok := scopeOf(ctx)
	if !ok || s.toolCallID != "c1" || s.line.depth != 2 {
		t.Fatalf("%+v %v", s, ok)
	}
}
