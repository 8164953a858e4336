package loop

import (
	"fmt"

	"github.com/agui-go/agui"
)

// WithMaxTranscript bounds a thread's transcript (default 0: unbounded). A
// transcript grows by every run's input, model turns and tool results;
// with this option, when a run adds new input to a thread and the
// transcript then holds more than n messages, its oldest messages are
// dropped, up to the first user message that keeps at most n: whole
// exchanges go, so every tool call keeps its result. The model then no
// longer sees them, and a client's history of the thread starts later.
// Instructions are not part of the transcript and stay. A transcript
// with no user message to cut at is kept whole.
func WithMaxTranscript(n int) Option {
	return func(c *config) error {
		if n < 0 {
			return fmt.Errorf("loop: WithMaxTranscript %d: negative", n)
		}
		c.maxTranscript = n
		return nil
	}
}

// trimTranscript drops msgs' oldest messages, up to the first user
// message from which at most n remain; n == 0, or no such user message,
// keeps them all. It returns a suffix of msgs.
func trimTranscript(msgs []agui.Message, n int) []agui.Message {
	if n <= 0 || len(msgs) <= n {
		return msgs
	}
	for i := len(msgs) - n; i < len(msgs); i++ {
		if _, ok := msgs[i].(*agui.UserMessage); ok {
			return msgs[i:]
		}
	}
	return msgs
}

// sinceTranscriptStart drops the messages of a client's input that come
// before the transcript's first message: a client sends the whole
// history it holds, and what [WithMaxTranscript] dropped must not come back as
// new input.
func sinceTranscriptStart(transcript, in []agui.Message) []agui.Message {
	if len(transcript) == 0 || transcript[0].MessageID() == "" {
		return in
	}
	first := transcript[0].MessageID()
	for i, m := range in {
		if m.MessageID() == first {
			return in[i:]
		}
	}
	return in
}
