package loop

import "testing"

func TestNewRejectsBadOptions(t *testing.T) {
	p := Script()
	echo := echoTool(t)
	for name, opts := range map[string][]Option{
		"max steps":   {WithMaxSteps(0)},
		"concurrency": {WithToolConcurrency(0)},
		"depth":       {WithMaxDelegationDepth(0)},
		"lease":       {WithLease(0)},
		"zero tool":   {WithTools(Tool{})},
		"dup tools":   {WithTools(echo, echo)},
		"nil store":   {WithCheckpoints(nil)},
	} {
		if _, err := New(p, opts...); err == nil {
			t.Errorf("%s: no error", name)
		}
	}
	if _, err := New(nil); err == nil {
		t.Error("nil provider: no error")
	}
}
