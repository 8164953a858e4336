package loop

import (
	"context"
	"fmt"
	"log/slog"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/agui-go/agui"
)

// TitleEvent is the name of the CUSTOM event that carries a thread's
// generated title to the client: its value is {"threadId", "title"}.
const TitleEvent = "thread.title"

// titleAttempts is how many model calls may name a thread before the
// fallback does.
const titleAttempts = 3

// titlePrompt is the fixed instruction of the naming call.
const titlePrompt = "Name this conversation for a list of chats: at most six words, " +
	"in the language of the user's message. Answer with the title alone, " +
	"without quotes or a final period."

// WithTitles names each thread after its first exchange (default off):
// when a run ends with its answer and the transcript holds exactly one
// user message, a side call to the agent's provider, with a fixed prompt
// and that exchange, asks for a title (up to three attempts), and a
// title from the user's first words stands in when none comes. The title
// is saved with [ThreadStore.UpdateThread] (a store that is none is left
// untitled) and sent as a CUSTOM event [TitleEvent] just before
// RUN_FINISHED. Its tokens count in the run's usage.
//
// The call runs on the run's goroutine after the answer has streamed,
// bounded by timeout (which must be positive): only the terminal event
// waits, at most timeout, and nothing outlives the run. It never fails
// the run: a provider error or a timeout gives the fallback title, and a
// store error is logged.
func WithTitles(timeout time.Duration) Option {
	return func(c *config) error {
		if timeout <= 0 {
			return fmt.Errorf("loop: WithTitles %v: the timeout must be positive", timeout)
		}
		c.titleTimeout = timeout
		return nil
	}
}

// nameThread gives the thread of a finished run its title when the run
// was the thread's first exchange (see [WithTitles]).
func (a *Agent) nameThread(ctx context.Context, s sink, threadID string, res *Result) {
	if a.cfg.titleTimeout <= 0 || ctx.Err() != nil {
		return
	}
	switch res.FinishReason {
	case FinishStop, FinishLength, FinishMaxSteps:
	default:
		return
	}
	ts, ok := a.cfg.store.(ThreadStore)
	if !ok {
		return
	}
	var user *agui.UserMessage
	var answer *agui.AssistantMessage
	for _, m := range res.Messages {
		switch m := m.(type) {
		case *agui.UserMessage:
			if user != nil {
				return // not the first exchange
			}
			user = m
		case *agui.AssistantMessage:
			if m.Content != "" {
				answer = m
			}
		}
	}
	if user == nil {
		return
	}
	title := a.askTitle(ctx, user, answer, res)
	if title == "" {
		title = fallbackTitle(user.Content.String())
	}
	if _, err := ts.UpdateThread(ctx, threadID, ThreadUpdate{Title: &title}); err != nil {
		a.logger().WarnContext(ctx, "loop: the thread's title could not be saved", "threadId", threadID, "error", err)
		return
	}
	_ = s.emit(&agui.Custom{Name: TitleEvent, Value: map[string]any{"threadId": threadID, "title": title}})
}

// askTitle asks the provider for a title of the exchange, up to
// titleAttempts times within the title timeout; "" when none came.
func (a *Agent) askTitle(ctx context.Context, user *agui.UserMessage, answer *agui.AssistantMessage, res *Result) string {
	ctx, cancel := context.WithTimeout(ctx, a.cfg.titleTimeout)
	defer cancel()
	msgs := []agui.Message{user}
	if answer != nil {
		// The answer's text alone: its calls were answered in turns the
		// naming call does not see.
		msgs = append(msgs, &agui.AssistantMessage{ID: answer.ID, Content: answer.Content})
	}
	req := ModelRequest{Instructions: titlePrompt, Messages: msgs, Settings: a.cfg.settings}
	for range titleAttempts {
		var text strings.Builder
		var err error
		for d, derr := range a.provider.Stream(ctx, req) {
			if derr != nil {
				err = derr
				break
			}
			if d.Usage != nil {
				res.Usage = res.Usage.Add(*d.Usage)
			}
			text.WriteString(d.Text)
			if text.Len() > 4*MaxTitle {
				break // a title it is not
			}
		}
		if t := cleanTitle(text.String()); err == nil && t != "" {
			return t
		}
		if ctx.Err() != nil {
			break
		}
	}
	return ""
}

// cleanTitle takes a model's answer to the naming prompt to a title: its
// first non-empty line without a "Title:" label, quotes, markup or final
// punctuation, its spaces collapsed, cut to [MaxTitle] bytes.
func cleanTitle(s string) string {
	s = strings.ToValidUTF8(s, "")
	for line := range strings.Lines(s) {
		if line = strings.TrimSpace(line); line != "" {
			s = line
			break
		}
	}
	if label, rest, ok := strings.Cut(s, ":"); ok && strings.EqualFold(strings.TrimSpace(label), "title") {
		s = rest
	}
	s = strings.Join(titleWords(s), " ")
	for {
		t := strings.TrimRight(strings.Trim(s, "\"'`*#_“”‘’ "), ".!;:, ")
		if t == s {
			break
		}
		s = t
	}
	return cut(s, MaxTitle)
}

// titleWords splits s into words at white space and control characters,
// so that a title is one line of UTF-8 the thread API would also accept
// (and PostgreSQL's text can hold: no NUL).
func titleWords(s string) []string {
	return strings.FieldsFunc(strings.ToValidUTF8(s, ""), func(r rune) bool { return unicode.IsSpace(r) || unicode.IsControl(r) })
}

// fallbackTitle is a title from the user's first words: at most eight,
// at most 60 bytes, "New conversation" for none.
func fallbackTitle(text string) string {
	words := titleWords(text)
	cutWords := len(words) > 8
	if cutWords {
		words = words[:8]
	}
	s := strings.Join(words, " ")
	if s == "" {
		return "New conversation"
	}
	if len(s) > 60 || cutWords {
		return cut(s, 60) + "…"
	}
	return s
}

// cut returns s's longest prefix of at most n bytes that ends on a
// character boundary.
func cut(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n]
}

func (a *Agent) logger() *slog.Logger {
	if a.cfg.logger != nil {
		return a.cfg.logger
	}
	return slog.Default()
}
