package anthropic

import (
	"bytes"
	"encoding/json"
	"unicode/utf8"
)

// event is what the provider reads of a streamed Messages API event:
// plain fields that encoding/json fills without reflection-driven
// metadata. The SDK's MessageStreamEventUnion records every field's raw
// JSON and presence as well, which cost several times the rest of a
// token's path (the token path of BENCHMARKS.md; issue 26). Members it
// does not read are skipped whatever their type; one it reads holding the
// wrong type fails the stream, as a malformed event does.
type event struct {
	Type    string `json:"type"`
	Index   int64  `json:"index"`
	Message struct {
		Usage usage `json:"usage"`
	} `json:"message"`
	ContentBlock struct {
		Type     string `json:"type"`
		Text     string `json:"text"`
		Thinking string `json:"thinking"`
		Data     string `json:"data"`
		ID       string `json:"id"`
		Name     string `json:"name"`
	} `json:"content_block"`
	Delta struct {
		Type        string `json:"type"`
		Text        string `json:"text"`
		Thinking    string `json:"thinking"`
		Signature   string `json:"signature"`
		PartialJSON string `json:"partial_json"`
		StopReason  string `json:"stop_reason"`
	} `json:"delta"`
	Usage usage `json:"usage"`
}

// usage is the token counts of message_start's message and of
// message_delta.
type usage struct {
	InputTokens              int64 `json:"input_tokens"`
	CacheReadInputTokens     int64 `json:"cache_read_input_tokens"`
	CacheCreationInputTokens int64 `json:"cache_creation_input_tokens"`
	OutputTokens             int64 `json:"output_tokens"`
	OutputTokensDetails      struct {
		ThinkingTokens int64 `json:"thinking_tokens"`
	} `json:"output_tokens_details"`
}

// textDeltaPrefix and textDeltaSuffix frame a content_block_delta event
// carrying a text_delta as the API lays it out; [event.UnmarshalJSON]
// reads such an event, nearly every event of a streamed answer, without
// reflection.
const (
	textDeltaPrefix = `{"type":"content_block_delta","index":`
	textDeltaMiddle = `,"delta":{"type":"text_delta","text":`
	textDeltaSuffix = `}}`
)

// UnmarshalJSON reads a text delta in the API's layout directly: the
// profile of the token path showed encoding/json's reflective decoding of
// these events at a quarter of the server's CPU. Any other event, or a
// text delta laid out otherwise, is decoded by encoding/json.
func (e *event) UnmarshalJSON(data []byte) error {
	if index, text, ok := textDelta(data); ok {
		*e = event{Type: "content_block_delta", Index: index}
		e.Delta.Type, e.Delta.Text = "text_delta", text
		return nil
	}
	type plain event
	return json.Unmarshal(data, (*plain)(e))
}

// textDelta returns the index and text of data when it is a text delta in
// the API's layout; ok is false otherwise.
func textDelta(data []byte) (index int64, text string, ok bool) {
	rest, found := bytes.CutPrefix(bytes.TrimSpace(data), []byte(textDeltaPrefix))
	if !found {
		return 0, "", false
	}
	n := 0
	for n < len(rest) && n < 9 && '0' <= rest[n] && rest[n] <= '9' {
		index = index*10 + int64(rest[n]-'0')
		n++
	}
	if n == 0 || (n > 1 && rest[0] == '0') {
		return 0, "", false
	}
	if rest, found = bytes.CutPrefix(rest[n:], []byte(textDeltaMiddle)); !found {
		return 0, "", false
	}
	lit, found := bytes.CutSuffix(rest, []byte(textDeltaSuffix))
	if !found {
		return 0, "", false
	}
	text, ok = jsonString(lit)
	return index, text, ok
}

// jsonString returns the string lit spells when lit is exactly one JSON
// string literal; ok is false otherwise. A literal without escapes is
// read directly, one with escapes by encoding/json.
func jsonString(lit []byte) (string, bool) {
	if len(lit) < 2 || lit[0] != '"' || lit[len(lit)-1] != '"' {
		return "", false
	}
	body := lit[1 : len(lit)-1]
	plain, ascii := true, true
	for _, c := range body {
		switch {
		case c == '"' || c < 0x20:
			return "", false // a second string, or not JSON
		case c == '\\':
			plain = false
		case c >= 0x80:
			ascii = false
		}
	}
	// encoding/json replaces invalid UTF-8 with U+FFFD: leave that to it.
	if plain && (ascii || utf8.Valid(body)) {
		return string(body), true
	}
	var s string
	if json.Unmarshal(lit, &s) != nil {
		return "", false
	}
	return s, true
}
