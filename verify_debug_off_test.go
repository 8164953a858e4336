//go:build !agui_debug && !agui_noverify

package agui

import "testing"

// Outside a debug build the message carries no open-set dump.
func TestVerifierMessageWithoutDump(t *testing.T) {
	v := NewVerifier()
	var err error
	for _, ev := range []Event{evRun, evMsgStart("msg-1", ""), evMsgContent("msg-2", "")} {
		err = v.Observe(ev)
	}
	const want = "TEXT_MESSAGE_CONTENT breaks rule `not-open` (content and terminators require a matching start): message \"msg-2\" is not open"
	if err == nil || err.Error() != want {
		t.Errorf("got  %v\nwant %s", err, want)
	}
}
