package agui_test

import (
	"testing"

	"github.com/agui-go/agui"
)

func TestServedVersion(t *testing.T) {
	for client, want := range map[string]string{
		"1.1":   "1.1",
		"1.1.0": "1.1",
		"1.2":   "1.1",
		"1.10":  "1.1",
		"1.0":   "1.0",
		"1.0.2": "1.0",
		"1":     "1.0",
		"":      "1.0",
		"1.x":   "1.0",
		"1.+1":  "1.0",
		"1.-1":  "1.0",
		"2.1":   "1.0",
		"draft": "1.0",
	} {
		if got := agui.ServedVersion(client); got != want {
			t.Errorf("ServedVersion(%q) = %q, want %q", client, got, want)
		}
	}
}
