package a2ui

import "github.com/agui-go/agui"

// Codes of what is wrong with a surface ([Problem]) and of the tools'
// error results. Their values never change.
const (
	// CodeMalformed: a surface without an id, a component without an id
	// or a type, or children or child of the wrong shape.
	CodeMalformed agui.Code = "A2UI_MALFORMED"
	// CodeDuplicateID: two components of a surface share an id.
	CodeDuplicateID agui.Code = "A2UI_DUPLICATE_ID"
	// CodeNoRoot: no component of the surface has the id "root".
	CodeNoRoot agui.Code = "A2UI_NO_ROOT"
	// CodeUnresolvedChild: a child reference names no component.
	CodeUnresolvedChild agui.Code = "A2UI_UNRESOLVED_CHILD"
	// CodeCycle: a component is its own ancestor.
	CodeCycle agui.Code = "A2UI_CYCLE"
	// CodeUnknownCatalog: a surface names a catalog other than the one
	// the tool was given.
	CodeUnknownCatalog agui.Code = "A2UI_UNKNOWN_CATALOG"
	// CodeUnknownComponent: a component's type is not in the catalog.
	CodeUnknownComponent agui.Code = "A2UI_UNKNOWN_COMPONENT"
	// CodeMissingProperty: a component lacks a property its catalog type
	// requires.
	CodeMissingProperty agui.Code = "A2UI_MISSING_PROPERTY"
	// CodeTooLarge: a surface has more components than [Limits] allow.
	CodeTooLarge agui.Code = "A2UI_TOO_LARGE"
	// CodeNoRender: the generating model answered without calling the
	// render tool.
	CodeNoRender agui.Code = "A2UI_NO_RENDER"
	// CodeUnknownOperation: JSON that is not an A2UI v0.9 operation (an
	// unknown operation, another version, none or two in one envelope).
	CodeUnknownOperation agui.Code = "A2UI_UNKNOWN_OPERATION"
	// CodeInvalidSurface: the code of the render tool's error result for
	// an invalid surface; its message lists the problems for the model to
	// fix.
	CodeInvalidSurface agui.Code = "A2UI_INVALID_SURFACE"
)

// RecoveryExhausted is the code of the failure a tool returns when no
// attempt produced a valid surface ([Failure]). It is the value the A2UI
// middleware of the AG-UI runtime recognises to show its failed state,
// which is why it is not in this module's UPPER_SNAKE form nor an
// agui.Code: it is that middleware's wire value, not a code of ours.
const RecoveryExhausted = "a2ui_recovery_exhausted"
