package loop

import "testing"

func TestNewRejectsBadOptions(t *testing.T) {
	p := Script()
	echo := echoTool(t)
	for name, opts := range map[string][]Option{
		"max steps":   {MaxSteps(0)},
		"concurrency": {ToolConcurrency(0)},
		"depth":       {MaxDelegationDepth(0)},
		"lease":       {Lease(0)},
		"zero tool":   {Tools(Tool{})},
		"dup tools":   {Tools(echo, echo)},
		"nil store":   {Checkpoints(nil)},
	} {
		if _, err := New(p, opts...); err == nil {
			t.Errorf("%s: no error", name)
		}
	}
	if _, err := New(nil); err == nil {
		t.Error("nil provider: no error")
	}
}
