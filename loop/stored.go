package loop

import "github.com/agui-go/agui"

// storedTranscript is the transcript of a thread's checkpoint at the
// version a run holds, in an array of the run's own: what the kept of
// [Store.Save] is counted against. A run changes its working transcript
// by appends and, rarely, by replacing it (an edited call's arguments, a
// trim); comparing the very values finds either, so no code path has to
// report what it changed.
type storedTranscript struct{ msgs []agui.Message }

// reset records msgs, loaded or saved at the run's version.
func (s *storedTranscript) reset(msgs []agui.Message) {
	s.msgs = append(s.msgs[:0], msgs...)
	clear(s.msgs[len(s.msgs):cap(s.msgs)])
}

// kept is how many of msgs' first messages are the stored ones: the same
// values (messages are pointers, and immutable once in a transcript).
// It compares pointers only, never encodes.
func (s *storedTranscript) kept(msgs []agui.Message) int {
	n := min(len(s.msgs), len(msgs))
	for i := range n {
		if s.msgs[i] != msgs[i] {
			return i
		}
	}
	return n
}

// saved records msgs as saved, kept of them having been stored already:
// it copies the rest only.
func (s *storedTranscript) saved(msgs []agui.Message, kept int) {
	old := len(s.msgs)
	s.msgs = append(s.msgs[:kept], msgs[kept:]...)
	if len(s.msgs) < old {
		clear(s.msgs[len(s.msgs):old])
	}
}
