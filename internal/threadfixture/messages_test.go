package threadfixture_test

import (
	"encoding/json"
	"fmt"
	"testing"

	"go.uber.org/goleak"

	"github.com/agui-go/agui/internal/threadfixture"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

// TestMessagesShape checks the thread: n messages in the four roles, in
// order, about 300 bytes each, each tool result answering the call before it.
func TestMessagesShape(t *testing.T) {
	raw := threadfixture.Messages(100)
	var msgs []struct {
		ID         string `json:"id"`
		Role       string `json:"role"`
		ToolCallID string `json:"toolCallId"`
		ToolCalls  []struct {
			ID       string `json:"id"`
			Function struct {
				Arguments string `json:"arguments"`
			} `json:"function"`
		} `json:"toolCalls"`
	}
	if err := json.Unmarshal(raw, &msgs); err != nil {
		t.Fatal(err)
	}
	if len(msgs) != 100 {
		t.Fatalf("%d messages, want 100", len(msgs))
	}
	roles := [4]string{"user", "assistant", "tool", "assistant"}
	for i, m := range msgs {
		if m.Role != roles[i%4] || m.ID != fmt.Sprint("m-", i) {
			t.Fatalf("message %d: %s %s", i, m.ID, m.Role)
		}
		if i%4 == 2 && m.ToolCallID != msgs[i-1].ToolCalls[0].ID {
			t.Fatalf("message %d answers %q, the call before it is %q", i, m.ToolCallID, msgs[i-1].ToolCalls[0].ID)
		}
		if i%4 == 1 && !json.Valid([]byte(m.ToolCalls[0].Function.Arguments)) {
			t.Fatalf("message %d: arguments are not JSON", i)
		}
	}
	if per := len(raw) / 100; per < 250 || per > 350 {
		t.Errorf("%d bytes per message, want about 300", per)
	}
	if string(threadfixture.Messages(0)) != "[]" {
		t.Errorf("no messages: %s", threadfixture.Messages(0))
	}
}

func ExampleMessages() {
	var msgs []map[string]any
	_ = json.Unmarshal(threadfixture.Messages(8), &msgs)
	for _, m := range msgs[:4] {
		fmt.Println(m["role"])
	}
	// Output:
	// user
	// assistant
	// tool
	// assistant
}
