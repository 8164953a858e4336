package jsonx_test

import (
	"fmt"

	"github.com/agui-go/agui/internal/jsonx"
)

func ExampleDecoder() {
	for _, data := range []string{
		`{"id":"a1","items":[{"role":"user"},{"role":"assistant"}]}`,
		`{"id":"a1","items":[{"role":"user"},{"role":"robot"}]}`,
		`{"id":"a1","items":[{"role":"user"}],"extra":1}`,
		`{"id":"a1",`,
	} {
		root, perr := jsonx.ParseObject([]byte(data))
		if perr != nil {
			fmt.Println("malformed:", perr)
			continue
		}
		d := &jsonx.Decoder{Strict: true}
		o := d.Object(root)
		id := o.Str("id")
		var roles []string
		for _, item := range o.Array("items", true) {
			io := d.Object(item)
			roles = append(roles, io.Enum("role", true, "role", "user", "assistant"))
			io.Finish()
		}
		o.Finish()
		if err := d.Err(); err != nil {
			fmt.Println("invalid:", err)
			continue
		}
		fmt.Println(id, roles)
	}
	// Output:
	// a1 [user assistant]
	// invalid: items[1].role: unknown role "robot"
	// invalid: extra: unknown field
	// malformed: invalid JSON at offset 11: unexpected end of JSON input
}

func ExampleAppendValue() {
	buf := jsonx.AppendString(nil, "<b>\"hi\"</b>\n")
	buf = append(buf, ' ')
	buf, err := jsonx.AppendValue(buf, map[string]any{"z": []any{1.5, nil}, "a": map[string]string{"k": "v"}})
	fmt.Println(string(buf), err)

	_, err = jsonx.AppendValue(nil, map[string]any{"list": []any{"ok", func() {}}})
	fmt.Println(err)
	// Output:
	// "<b>\"hi\"</b>\n" {"a":{"k":"v"},"z":[1.5,null]} <nil>
	// list[1]: json: unsupported type: func()
}
