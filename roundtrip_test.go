package agui

import (
	"encoding/json"
	"reflect"
	"testing"
)

// eventSamples returns one fully populated JSON literal per event type, in
// the order of EventTypes. They also seed the fuzz targets.
func eventSamples() []string {
	return []string{
		`{"type":"TEXT_MESSAGE_START","timestamp":1700000000000,"rawEvent":{"id":"up-1","n":[1,2.5,null]},"metadata":{"trace":"t1","n":3},"subagentRunId":"sa1","messageId":"m1","role":"assistant","name":"helper"}`,
		`{"type":"TEXT_MESSAGE_CONTENT","subagentRunId":"sa1","messageId":"m1","delta":"Hello, \u003cb\u003eworld\u003c/b\u003e \u2028 \ud83d\ude00 \"quoted\"\n"}`,
		`{"type":"TEXT_MESSAGE_END","timestamp":1,"messageId":"m1"}`,
		`{"type":"TEXT_MESSAGE_CHUNK","messageId":"m2","role":"developer","delta":"d","name":"n"}`,
		`{"type":"TOOL_CALL_START","metadata":{},"toolCallId":"tc1","toolCallName":"search","parentMessageId":"m1"}`,
		`{"type":"TOOL_CALL_ARGS","toolCallId":"tc1","delta":"{\"q\":\"ag-ui\"}"}`,
		`{"type":"TOOL_CALL_END","toolCallId":"tc1"}`,
		`{"type":"TOOL_CALL_CHUNK","toolCallId":"tc2","toolCallName":"f","parentMessageId":"m1","delta":"{}"}`,
		`{"type":"TOOL_CALL_RESULT","messageId":"m3","toolCallId":"tc1","content":[{"type":"text","text":"two hits","id":"p1","metadata":{"score":0.5}},{"type":"image","source":{"type":"data","value":"iVBORw0KGgo=","mimeType":"image/png"}},{"type":"audio","id":"p3","source":{"type":"url","value":"https://example.com/a.mp3","mimeType":"audio/mpeg"}},{"type":"video","source":{"type":"url","value":"https://example.com/v.mp4"}},{"type":"document","source":{"type":"file","value":"file-abc","provider":"openai","mimeType":"application/pdf"},"metadata":["x"]}],"role":"tool"}`,
		`{"type":"STATE_SNAPSHOT","snapshot":{"selectedId":null,"items":[null,1,{"deep":[true,false]}],"big":12345678901234567890}}`,
		`{"type":"STATE_DELTA","delta":[{"op":"add","path":"/a","value":{"x":1}},{"op":"remove","path":"/b"},{"op":"replace","path":"/c~0d~1e","value":null},{"op":"move","from":"/f","path":"/g"},{"op":"copy","from":"","path":"/h"},{"op":"test","path":"/i","value":"v"}]}`,
		`{"type":"MESSAGES_SNAPSHOT","messages":[{"id":"d1","role":"developer","content":"dev","name":"n","encryptedValue":"e","metadata":{"k":1},"subagentRunId":"s"},{"id":"s1","role":"system","content":"Be brief."},{"id":"u1","role":"user","content":[{"type":"text","text":"see"},{"type":"image","source":{"type":"url","value":"https://x/i.png"}}],"name":"bob"},{"id":"a1","role":"assistant","content":"calling","toolCalls":[{"id":"tc1","type":"function","function":{"name":"search","arguments":"{}"},"encryptedValue":"ev","metadata":{"m":true}}],"subagentRunId":"s"},{"id":"t1","role":"tool","content":"{\"hits\":2}","toolCallId":"tc1","error":"partial"},{"id":"ac1","role":"activity","activityType":"SEARCH","content":{"q":"x","n":null}},{"id":"r1","role":"reasoning","content":"hmm","encryptedValue":"zz"}]}`,
		`{"type":"ACTIVITY_SNAPSHOT","messageId":"ac1","activityType":"SEARCH","content":{"query":"ag-ui","resultCount":null},"replace":false}`,
		`{"type":"ACTIVITY_DELTA","messageId":"ac1","activityType":"SEARCH","patch":[{"op":"add","path":"/resultCount","value":2}]}`,
		`{"type":"RAW","event":{"kind":"probe","detail":null},"source":"langgraph"}`,
		`{"type":"CUSTOM","name":"ping","value":null}`,
		`{"type":"RUN_STARTED","threadId":"th1","runId":"r1","parentRunId":"r0","protocolVersion":"1.0","input":{"threadId":"th1","runId":"r1","protocolVersion":"1.0","parentRunId":"r0","state":{"count":1},"messages":[{"id":"u1","role":"user","content":"hi"}],"tools":[{"name":"search","description":"Search the web","parameters":{"type":"object","properties":{}},"metadata":{"x":1}}],"context":[{"description":"locale","value":"en-US"}],"forwardedProps":{"a":[1]},"resume":[{"interruptId":"i1","status":"resolved","payload":{"approved":true},"metadata":{"by":"u"}},{"interruptId":"i2","status":"cancelled"}]}}`,
		`{"type":"RUN_FINISHED","threadId":"th1","runId":"r1","result":{"answer":42},"outcome":{"type":"success","pendingToolCallIds":["tc9"]},"usage":[{"provider":"openai","model":"gpt","inputTokens":100,"outputTokens":20,"totalTokens":120,"reasoningTokens":5,"cachedInputTokens":50,"cacheWriteInputTokens":10}]}`,
		`{"type":"RUN_ERROR","message":"upstream timed out","code":"TIMEOUT","usage":[{"inputTokens":0}]}`,
		`{"type":"STEP_STARTED","stepName":"plan"}`,
		`{"type":"STEP_FINISHED","subagentRunId":"sa1","stepName":"plan"}`,
		`{"type":"REASONING_START","messageId":"rs1"}`,
		`{"type":"REASONING_MESSAGE_START","messageId":"rm1","role":"reasoning"}`,
		`{"type":"REASONING_MESSAGE_CONTENT","messageId":"rm1","delta":""}`,
		`{"type":"REASONING_MESSAGE_END","messageId":"rm1"}`,
		`{"type":"REASONING_MESSAGE_CHUNK","messageId":"rm2","delta":"x"}`,
		`{"type":"REASONING_END","messageId":"rs1"}`,
		`{"type":"REASONING_ENCRYPTED_VALUE","subtype":"message","entityId":"m1","encryptedValue":"b64=="}`,
		`{"type":"SUBAGENT_STARTED","subagentRunId":"sa1","name":"researcher","description":"d","parentSubagentRunId":"sa0","parentToolCallId":"tc1","parentMessageId":"m1"}`,
		`{"type":"SUBAGENT_FINISHED","subagentRunId":"sa1","result":[1,2],"outcome":{"type":"suspended","interruptIds":["i1"]}}`,
		`{"type":"SUBAGENT_ERROR","subagentRunId":"sa1","message":"failed","code":"E"}`,
	}
}

// moreSamples covers outcomes and shapes the per-type samples do not.
func moreSamples() []string {
	return []string{
		`{"type":"RUN_FINISHED","threadId":"th1","runId":"r1","outcome":{"type":"interrupt","interrupts":[{"id":"i1","reason":"approval","message":"OK?","toolCallId":"tc1","responseSchema":{"type":"object"},"expiresAt":"2030-01-01T00:00:00Z","metadata":{"traceId":null},"subagentRunId":"sa1"}]}}`,
		`{"type":"RUN_FINISHED","threadId":"th1","runId":"r1","outcome":{"type":"cancelled"}}`,
		`{"type":"RUN_FINISHED","threadId":"th1","runId":"r1"}`,
		`{"type":"SUBAGENT_FINISHED","subagentRunId":"sa1","outcome":{"type":"success"}}`,
		`{"type":"TOOL_CALL_RESULT","messageId":"m3","toolCallId":"tc1","content":"plain"}`,
		`{"type":"TOOL_CALL_RESULT","messageId":"m3","toolCallId":"tc1","content":[]}`,
		`{"type":"RUN_STARTED","threadId":"th1","runId":"r1","input":{"threadId":"th1","runId":"r1","messages":[],"tools":[],"context":[]}}`,
		`{"type":"TEXT_MESSAGE_CHUNK"}`,
		`{"type":"STATE_SNAPSHOT","snapshot":null}`,
		`{"type":"RAW","event":"just a string"}`,
		`{"type":"CUSTOM","name":"c","value":{"nested":{"deep":[[[]]]}}}`,
	}
}

// semanticJSON decodes s for comparison regardless of key order and
// spacing.
func semanticJSON(t *testing.T, s []byte) any {
	t.Helper()
	var v any
	if err := json.Unmarshal(s, &v); err != nil {
		t.Fatalf("invalid JSON %s: %v", s, err)
	}
	return v
}

func TestRoundTripEveryEventType(t *testing.T) {
	samples := eventSamples()
	types := EventTypes()
	if len(samples) != len(types) {
		t.Fatalf("%d samples for %d event types", len(samples), len(types))
	}
	for i, s := range append(samples, moreSamples()...) {
		ev, err := DecodeEvent([]byte(s))
		if err != nil {
			t.Errorf("DecodeEvent(%s): %v", s, err)
			continue
		}
		if i < len(types) && ev.Type() != types[i] {
			t.Errorf("sample %d decodes as %s, want %s", i, ev.Type(), types[i])
		}
		out, err := ev.AppendJSON(nil)
		if err != nil {
			t.Errorf("%s: AppendJSON: %v", ev.Type(), err)
			continue
		}
		if got, want := semanticJSON(t, out), semanticJSON(t, []byte(s)); !reflect.DeepEqual(got, want) {
			t.Errorf("%s does not round-trip\n  in: %s\n out: %s", ev.Type(), s, out)
		}
	}
}
