package loop

import (
	"context"
	"errors"
	"iter"
	"testing"
	"testing/synctest"
	"time"

	"github.com/agui-go/agui"
	"github.com/agui-go/agui/core"
)

// runEvents runs one exchange on thread as alice and returns the run's
// events.
func runEvents(t *testing.T, a *Agent, thread, text string) ([]agui.Event, Result) {
	t.Helper()
	var evs []agui.Event
	res, err := a.Execute(core.ContextWithPrincipal(t.Context(), "alice"), Input{ThreadID: thread, Messages: []agui.Message{UserText(text)},
		OnEvent: func(ev agui.Event) error { evs = append(evs, ev); return nil }})
	if err != nil {
		t.Fatal(err)
	}
	return evs, res
}

// titleOf returns the title of the run's thread.title event, "" for none,
// failing unless it comes just before RUN_FINISHED.
func titleOf(t *testing.T, evs []agui.Event) string {
	t.Helper()
	for i, ev := range evs {
		c, ok := ev.(*agui.Custom)
		if !ok || c.Name != TitleEvent {
			continue
		}
		if i != len(evs)-2 || evs[len(evs)-1].Type() != agui.TypeRunFinished {
			t.Fatalf("the title event is not just before RUN_FINISHED: %v", types(evs))
		}
		v, _ := c.Value.(map[string]any)
		title, _ := v["title"].(string)
		return title
	}
	return ""
}

func listedTitle(t *testing.T, a *Agent, thread string) string {
	t.Helper()
	page, err := a.cfg.store.(ThreadStore).Threads(t.Context(), "alice", ThreadQuery{Limit: MaxThreadPage})
	if err != nil {
		t.Fatal(err)
	}
	for _, x := range page.Threads {
		if x.ID == thread {
			return x.Title
		}
	}
	t.Fatalf("thread %s is not listed", thread)
	return ""
}

// After the first exchange a side call names the thread: the client gets
// the title as a CUSTOM event, the list has it, and later runs leave it.
func TestTitles(t *testing.T) {
	a := mustNew(t, Script(
		Turn{Text: "Oslo is lovely in May."},
		Turn{Text: "Title: \"Trip to Oslo.\"\nmore", Usage: Usage{InputTokens: 7}},
		Turn{Text: "Pack a raincoat."},
	), WithTitles(time.Second))
	evs, res := runEvents(t, a, "t1", "plan a trip to Oslo")
	if got := titleOf(t, evs); got != "Trip to Oslo" {
		t.Fatalf("title event %q, want Trip to Oslo", got)
	}
	if got := listedTitle(t, a, "t1"); got != "Trip to Oslo" {
		t.Fatalf("listed title %q", got)
	}
	if res.Usage.InputTokens != 7 {
		t.Fatalf("usage %+v, want the naming call's 7 input tokens", res.Usage)
	}
	// The second exchange asks for no title (the script has no turn for
	// one) and keeps the first.
	evs, _ = runEvents(t, a, "t1", "what should I pack?")
	if got := titleOf(t, evs); got != "" {
		t.Fatalf("second run named the thread %q", got)
	}
	if got := listedTitle(t, a, "t1"); got != "Trip to Oslo" {
		t.Fatalf("listed title after the second run %q", got)
	}
}

// A model that fails or answers nothing three times: the user's first
// words name the thread, and the run finishes as it would have.
func TestTitleFallback(t *testing.T) {
	a := mustNew(t, Script(
		Turn{Text: "Sure."},
		Turn{Err: errors.New("model down")},
		Turn{Text: "   "},
		Turn{Text: `""`},
	), WithTitles(time.Second))
	evs, res := runEvents(t, a, "t1", "please plan a long weekend trip to Oslo in May for two")
	if res.FinishReason != FinishStop {
		t.Fatalf("finish %s", res.FinishReason)
	}
	if got, want := titleOf(t, evs), "please plan a long weekend trip to Oslo…"; got != want {
		t.Fatalf("title %q, want %q", got, want)
	}
}

// A model that never answers the naming call holds RUN_FINISHED for the
// title timeout at most, then the fallback names the thread.
func TestTitleTimeout(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		calls := 0
		p := ProviderFunc(func(ctx context.Context, req ModelRequest) iter.Seq2[Delta, error] {
			calls++
			first := calls == 1
			return func(yield func(Delta, error) bool) {
				if first {
					yield(Delta{Text: "answer"}, nil)
					return
				}
				<-ctx.Done()
				yield(Delta{}, ctx.Err())
			}
		})
		a := mustNew(t, p, WithTitles(5*time.Second))
		start := time.Now()
		evs, res := runEvents(t, a, "t1", "hello there")
		if took := time.Since(start); took != 5*time.Second {
			t.Errorf("the run took %v, want the title timeout, 5s", took)
		}
		if got := titleOf(t, evs); got != "hello there" || res.FinishReason != FinishStop {
			t.Fatalf("title %q finish %s", got, res.FinishReason)
		}
		if calls != 2 {
			t.Fatalf("%d provider calls, want the answer and one naming call cut by the timeout", calls)
		}
	})
}

// Off by default: no naming call, no event.
func TestTitlesOffByDefault(t *testing.T) {
	a := mustNew(t, Script(Turn{Text: "hi"}))
	evs, _ := runEvents(t, a, "t1", "hello")
	if got := titleOf(t, evs); got != "" {
		t.Fatalf("title %q without WithTitles", got)
	}
	if _, err := New(Script(), WithTitles(0)); err == nil {
		t.Fatal("WithTitles(0) accepted")
	}
}

func TestCleanTitle(t *testing.T) {
	for in, want := range map[string]string{
		"Trip to Oslo":                  "Trip to Oslo",
		"  \n\"Trip   to Oslo.\"\nmore": "Trip to Oslo",
		"Title: **Weekend plans**!":     "Weekend plans",
		"“Résumé tips”":                 "Résumé tips",
		"":                              "",
		"...":                           "",
		"Trip\x00to Oslo\x07":           "Trip to Oslo",
	} {
		if got := cleanTitle(in); got != want {
			t.Errorf("cleanTitle(%q) = %q, want %q", in, got, want)
		}
	}
	long := cleanTitle(string(make([]rune, 300)) + "é")
	if len(long) > MaxTitle {
		t.Errorf("a long title is %d bytes", len(long))
	}
	if got := fallbackTitle("he\x00llo\tthere"); got != "he llo there" {
		t.Errorf("fallback of a text with control characters: %q", got)
	}
	if got := fallbackTitle("  "); got != "New conversation" {
		t.Errorf("fallback of nothing: %q", got)
	}
}
