package loop

import "testing"

func TestUsageAddAndToken(t *testing.T) {
	u := Usage{InputTokens: 1, OutputTokens: 2}.Add(Usage{InputTokens: 3, ReasoningTokens: 4})
	if u != (Usage{InputTokens: 4, OutputTokens: 2, ReasoningTokens: 4}) || u.IsZero() || !(Usage{}).IsZero() {
		t.Fatalf("%+v", u)
	}
	tok := u.Token()
	if *tok.InputTokens != 4 || *tok.OutputTokens != 2 || *tok.TotalTokens != 6 || *tok.ReasoningTokens != 4 {
		t.Fatalf("%+v", tok)
	}
	if tok.CachedInputTokens != nil {
		t.Fatal("an unreported count must stay absent")
	}
}

func TestUsageBoxConcurrent(t *testing.T) {
	var b usageBox
	done := make(chan struct{})
	for range 8 {
		go func() {
			b.add(Usage{InputTokens: 1})
			done <- struct{}{}
		}()
	}
	for range 8 {
		<-done
	}
	if b.total().InputTokens != 8 {
		t.Fatalf("%+v", b.total())
	}
}
