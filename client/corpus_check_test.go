package client_test

import (
	"encoding/json"
	"fmt"
	"reflect"
	"strconv"
	"strings"

	"github.com/agui-go/agui"
)

// check returns every expectation of fx that r does not meet. Keys the
// client cannot observe are named in unobservable.
func check(fx *fixture, r *run) []string {
	var problems []string
	fail := func(format string, args ...any) { problems = append(problems, fmt.Sprintf(format, args...)) }
	var types []string
	for _, ev := range r.events {
		types = append(types, string(ev.Type()))
	}
	for key, raw := range fx.Expect {
		var want any
		if err := json.Unmarshal(raw, &want); err != nil {
			fail("expect.%s: %v", key, err)
			continue
		}
		switch key {
		case "outcome":
			got := "completed"
			if r.err != nil {
				got = "failed"
			}
			if got != want {
				fail("outcome %s, want %s (error: %v)", got, want, r.err)
			}
		case "errorContains":
			name, ok := corpusNames[fx.Name]
			switch {
			case r.err == nil:
				fail("no error, want one naming %q", want)
			case !ok:
				fail("error %q: corpusNames has no entity or rule for this fixture (TypeScript says %q)", r.err, want)
			case !strings.Contains(r.err.Error(), name):
				fail("error %q does not name %q", r.err, name)
			}
		case "runError":
			switch w := want.(type) {
			case bool:
				if (r.view.RunError != nil) != w {
					fail("runError %v, want %v", r.view.RunError != nil, w)
				}
			case string:
				if r.view.RunError == nil || !strings.Contains(r.view.RunError.Message, w) {
					fail("runError %+v, want a message containing %q", r.view.RunError, w)
				}
			}
		case "eventTypes":
			if !reflect.DeepEqual(anySlice(types), want) {
				fail("eventTypes %v, want %v", types, want)
			}
		case "eventTypesAbsent":
			for _, w := range want.([]any) {
				for _, ty := range types {
					if ty == w {
						fail("event type %s was delivered", w)
					}
				}
			}
		case "eventPaths":
			for p, w := range want.(map[string]any) {
				got, ok := eventPath(r, p)
				if !ok || !reflect.DeepEqual(got, w) {
					fail("event path %s = %v (present %v), want %v", p, got, ok, w)
				}
			}
		case "eventAbsentPaths":
			for _, p := range want.([]any) {
				if got, ok := eventPath(r, p.(string)); ok {
					fail("event path %s is present (%v)", p, got)
				}
			}
		case "warnings":
			if len(want.([]any)) > 0 && len(r.warnings) == 0 {
				fail("no warning, want one (TypeScript's mention %v)", want)
			}
		case "noWarnings":
			if want == true && len(r.warnings) > 0 {
				fail("warnings %+v, want none", r.warnings)
			}
		case "messageCount":
			if float64(len(r.view.Messages)) != want {
				fail("%d messages, want %v", len(r.view.Messages), want)
			}
		case "messages":
			got := messagesJSON(r.view.Messages)
			if p := subset(got, want, "messages"); p != "" {
				fail("%s (messages %s)", p, mustJSON(got))
			}
		case "state":
			got := normalize(r.view.State)
			if p := subset(got, want, "state"); p != "" {
				fail("%s (state %s)", p, mustJSON(got))
			}
		case "request":
			var got any
			_ = json.Unmarshal(r.request, &got)
			if p := subset(got, want, "request"); p != "" {
				fail("%s (request %s)", p, r.request)
			}
		case "requestAbsentPaths":
			var got any
			_ = json.Unmarshal(r.request, &got)
			for _, p := range want.([]any) {
				if _, ok := path(got, strings.Split(p.(string), ".")); ok {
					fail("request path %s is present", p)
				}
			}
		default:
			fail("expect.%s: a key this test does not read", key)
		}
	}
	return problems
}

func anySlice(s []string) []any {
	out := make([]any, len(s))
	for i, v := range s {
		out[i] = v
	}
	return out
}

// eventPath looks up "<index>.<dotted.path>" in the delivered events' JSON.
func eventPath(r *run, p string) (any, bool) {
	idx, rest, _ := strings.Cut(p, ".")
	i, err := strconv.Atoi(idx)
	if err != nil || i < 0 || i >= len(r.events) {
		return nil, false
	}
	b, err := r.events[i].AppendJSON(nil)
	if err != nil {
		return nil, false
	}
	var doc any
	if json.Unmarshal(b, &doc) != nil {
		return nil, false
	}
	return path(doc, strings.Split(rest, "."))
}

func path(doc any, keys []string) (any, bool) {
	for _, k := range keys {
		switch d := doc.(type) {
		case map[string]any:
			v, ok := d[k]
			if !ok {
				return nil, false
			}
			doc = v
		case []any:
			i, err := strconv.Atoi(k)
			if err != nil || i < 0 || i >= len(d) {
				return nil, false
			}
			doc = d[i]
		default:
			return nil, false
		}
	}
	return doc, true
}

// messagesJSON is the messages as the wire writes them, decoded.
func messagesJSON(ms []agui.Message) any {
	b, err := (&agui.MessagesSnapshot{Messages: ms}).AppendJSON(nil)
	if err != nil {
		return err.Error()
	}
	var doc struct {
		Messages any `json:"messages"`
	}
	_ = json.Unmarshal(b, &doc)
	return doc.Messages
}

func normalize(v any) any {
	b, err := json.Marshal(v)
	if err != nil {
		return err.Error()
	}
	var out any
	_ = json.Unmarshal(b, &out)
	return out
}

func mustJSON(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

// subset reports where got does not match want as the corpus defines it:
// arrays of the same length matched element by element, objects on want's
// keys only, everything else equal; "" when it matches.
func subset(got, want any, at string) string {
	switch w := want.(type) {
	case map[string]any:
		g, ok := got.(map[string]any)
		if !ok {
			return fmt.Sprintf("%s is %s, want an object", at, mustJSON(got))
		}
		for k, wv := range w {
			gv, ok := g[k]
			if !ok {
				return fmt.Sprintf("%s.%s is missing", at, k)
			}
			if p := subset(gv, wv, at+"."+k); p != "" {
				return p
			}
		}
		return ""
	case []any:
		g, ok := got.([]any)
		if !ok || len(g) != len(w) {
			return fmt.Sprintf("%s is %s, want %d elements", at, mustJSON(got), len(w))
		}
		for i := range w {
			if p := subset(g[i], w[i], at+"."+strconv.Itoa(i)); p != "" {
				return p
			}
		}
		return ""
	}
	if !reflect.DeepEqual(got, want) {
		return fmt.Sprintf("%s is %s, want %s", at, mustJSON(got), mustJSON(want))
	}
	return ""
}
