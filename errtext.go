package agui

import (
	"fmt"
	"reflect"
)

// ErrorText returns err.Error(), made safe for any error a caller might
// return: "" for nil, and a fixed text naming err's type when err is a nil
// pointer inside a non-nil error (a nil [*Error] included) whose Error
// method cannot handle it, or when err's Error method panics. Transports
// and runners format errors from code they do not control with it, so a
// broken error type ends one run, never the process.
func ErrorText(err error) (s string) {
	if err == nil {
		return ""
	}
	defer func() {
		if p := recover(); p != nil {
			if v := reflect.ValueOf(err); v.Kind() == reflect.Pointer && v.IsNil() {
				s = fmt.Sprintf("error (a nil %T)", err)
				return
			}
			s = fmt.Sprintf("error (the Error method of %T panicked)", err)
		}
	}()
	return err.Error()
}
