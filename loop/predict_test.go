package loop

import (
	"encoding/json"
	"testing"
)

func TestPartialObject(t *testing.T) {
	cases := map[string]string{
		``:                         ``,
		`{`:                        `{}`,
		`{"a":"hel`:                `{"a":"hel"}`,
		`{"a":"hel\`:               `{"a":"hel"}`,
		`{"a":"x","b":1`:           `{"a":"x","b":1}`,
		`{"a":"x","b":tr`:          `{"a":"x"}`,
		`{"a":"x","b`:              `{"a":"x"}`,
		`{"a":"x","b":`:            `{"a":"x"}`,
		`{"a":["p","q`:             `{"a":["p","q"]}`,
		`{"a":{"b":"c"},"d":"e`:    `{"a":{"b":"c"},"d":"e"}`,
		`{"a":"x, y","b":{"c":tru`: `{"a":"x, y"}`,
		`[1,2`:                     ``,
		`{"a":"x"}`:                `{"a":"x"}`,
	}
	for in, want := range cases {
		got := partialObject(in, true)
		if want == "" {
			if got != nil {
				t.Errorf("%s: got %v, want nil", in, got)
			}
			continue
		}
		var w map[string]json.RawMessage
		if err := json.Unmarshal([]byte(want), &w); err != nil {
			t.Fatal(err)
		}
		gb, _ := json.Marshal(got)
		wb, _ := json.Marshal(w)
		if string(gb) != string(wb) {
			t.Errorf("%s: got %s, want %s", in, gb, wb)
		}
	}
}

func FuzzPartialObject(f *testing.F) {
	f.Add(`{"a":"x","b":[1,{"c":"d`)
	f.Fuzz(func(t *testing.T, s string) {
		_ = partialObject(s, true) // never panics
	})
}
