package agui

import (
	"encoding/json"
	"os"
	"reflect"
	"testing"

	"github.com/agui-go/agui/internal/jsonx"
	"github.com/agui-go/agui/internal/sharedtest"
)

// nullOmissionCases is how many cases shared/fixtures/null-omission.json,
// the cross-SDK contract for optional fields and meaningful nulls, holds.
// The fixture lives beside the repository, not in it; a different count
// means it changed, and this test and docs/wire.md's claim need a look.
const nullOmissionCases = 28

// TestNullOmissionFixture decodes every case's input, encodes it again and
// compares the result with the case's expected JSON, as JSON values. It
// fails, not skips, without the fixture when CI=true.
func TestNullOmissionFixture(t *testing.T) {
	nullOmissionFixture := sharedtest.Path(t, "fixtures/null-omission.json")
	data, err := os.ReadFile(nullOmissionFixture)
	if err != nil {
		t.Fatal(err)
	}
	var fixture struct {
		Stream []struct {
			Name     string          `json:"name"`
			Input    json.RawMessage `json:"input"`
			Expected json.RawMessage `json:"expected"`
		} `json:"stream"`
	}
	if err := json.Unmarshal(data, &fixture); err != nil {
		t.Fatalf("parse %s: %v", nullOmissionFixture, err)
	}
	if len(fixture.Stream) != nullOmissionCases {
		t.Fatalf("%s has %d cases, want %d", nullOmissionFixture, len(fixture.Stream), nullOmissionCases)
	}
	t.Logf("%d cases from %s", len(fixture.Stream), nullOmissionFixture)
	for _, c := range fixture.Stream {
		t.Run(c.Name, func(t *testing.T) {
			ev, err := DecodeEvent(c.Input)
			if err != nil {
				t.Fatalf("DecodeEvent: %v", err)
			}
			got, err := ev.AppendJSON(nil)
			if err != nil {
				t.Fatalf("AppendJSON: %v", err)
			}
			assertSameJSON(t, got, c.Expected)
		})
	}
}

// assertSameJSON fails unless got and want hold the same JSON value
// (member order and insignificant whitespace aside).
func assertSameJSON(t *testing.T, got, want []byte) {
	t.Helper()
	var g, w any
	if err := json.Unmarshal(got, &g); err != nil {
		t.Fatalf("output is not JSON: %v\n%s", err, got)
	}
	if err := json.Unmarshal(want, &w); err != nil {
		t.Fatalf("expected value is not JSON: %v", err)
	}
	if !reflect.DeepEqual(g, w) {
		t.Errorf("JSON differs\n got %s\nwant %s", got, compactJSON(t, want))
	}
}

func compactJSON(t *testing.T, data []byte) []byte {
	t.Helper()
	out, err := jsonx.AppendRaw(nil, data)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// TestEncodingDecodesBack checks that what the encoder writes for every
// event type, and for what 1.0 added, decodes to an event that encodes to
// the same bytes.
func TestEncodingDecodesBack(t *testing.T) {
	var cases []eventCase
	cases = append(cases, minimalEvents()...)
	cases = append(cases, fullEvents()...)
	cases = append(cases, protocol10Cases()...)
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			ev, err := DecodeEvent([]byte(c.want))
			if err != nil {
				t.Fatalf("DecodeEvent(%s): %v", c.want, err)
			}
			got, err := ev.AppendJSON(nil)
			if err != nil {
				t.Fatalf("AppendJSON: %v", err)
			}
			if string(got) != c.want {
				t.Errorf("re-encoded\n got %s\nwant %s", got, c.want)
			}
		})
	}
}
