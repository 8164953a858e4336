package jsonx

import "testing"

func TestDecodeErrorText(t *testing.T) {
	cases := []struct {
		err  *DecodeError
		want string
	}{
		{&DecodeError{Path: "messages[2].role", Reason: `unknown role "robot"`}, `messages[2].role: unknown role "robot"`},
		{&DecodeError{Reason: "invalid JSON", Malformed: true}, "invalid JSON"},
	}
	for _, c := range cases {
		if got := c.err.Error(); got != c.want {
			t.Errorf("got %q, want %q", got, c.want)
		}
	}
}

func TestSyntaxErrorWording(t *testing.T) {
	cases := map[string]string{
		`{"a":}`: "invalid JSON at offset 6: invalid character '}' looking for beginning of value",
		`{"a":1`: "invalid JSON at offset 6: unexpected end of JSON input",
	}
	for doc, want := range cases {
		if err := syntaxError([]byte(doc)); err.Error() != want || !err.Malformed {
			t.Errorf("%s: %v, want %q (malformed)", doc, err, want)
		}
	}
}
