package jsonx

import "testing"

func TestJSONPaths(t *testing.T) {
	tests := []struct{ got, want string }{
		{MemberPath("", "threadId"), "threadId"},
		{MemberPath("messages[2]", "role"), "messages[2].role"},
		{MemberPath("", "a b"), `["a b"]`},
		{MemberPath("tools[0]", "9lives"), `tools[0]["9lives"]`},
		{MemberPath("x", ""), `x[""]`},
		{MemberPath("x", "$ok_1"), "x.$ok_1"},
		{IndexPath("", 3), "[3]"},
		{IndexPath("content", 0), "content[0]"},
	}
	for _, tt := range tests {
		if tt.got != tt.want {
			t.Errorf("got %q, want %q", tt.got, tt.want)
		}
	}
}
