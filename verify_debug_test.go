//go:build agui_debug && !agui_noverify

package agui

import "testing"

// In a debug build a rejection ends with the dump of everything open.
func TestVerifierDebugDump(t *testing.T) {
	for _, c := range []struct {
		events []Event
		want   string
	}{
		{
			[]Event{evRun, evMsgStart("msg-1", ""), evMsgContent("msg-2", "")},
			"TEXT_MESSAGE_CONTENT breaks rule `not-open` (content and terminators require a matching start): " +
				`message "msg-2" is not open [open: messages={"msg-1"}]`,
		},
		{
			[]Event{evRun, evMsgStart("b", ""), evMsgStart("a", "s1"), evCallStart("tc", "a", ""), evStepStart("plan", ""), evStepStart("plan", "s1"),
				evSpanStart("r", ""), evThoughtStart("r", ""), evSubStart("s1", ""), evSubStart("s0", ""), evSubEnd("s0"), evRunFinished()},
			"RUN_FINISHED breaks rule `open-at-finish` (" + RuleOpenAtFinish.Describe() + "): " +
				`step "plan" is still open (and 7 more) [open: messages={"a", "b"}, tool-calls={"tc"}, ` +
				`steps={"plan", "plan" (subagent "s1")}, reasoning={"r"}, reasoning-messages={"r"}, subagents={"s1"}]`,
		},
		{
			[]Event{evRun, evRunFinished(), evRunFinished()},
			"RUN_FINISHED breaks rule `run-ended` (" + RuleRunEnded.Describe() + `): run "r" has already finished [open: nothing]`,
		},
	} {
		v := NewVerifier()
		var err error
		for _, ev := range c.events {
			if err = v.Observe(ev); err != nil {
				break
			}
		}
		if err == nil || err.Error() != c.want {
			t.Errorf("got  %v\nwant %s", err, c.want)
		}
	}
}
