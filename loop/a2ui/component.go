package a2ui

import (
	"encoding/json"
	"maps"
)

// Component is one component of a surface in A2UI v0.9's flat form: its
// id, its type from the surface's catalog, and the type's properties
// beside them. It encodes as {"id":…,"component":…,<props>…}; a property
// named id or component is ignored.
//
// Components refer to their children by id, never by nesting: the
// property children holds a list of ids ([]string) or a template
// ([Template]: one component repeated for each item of a data model
// list), and child holds one id. A property bound to the data model is
// an object {"path": …} ([Path]).
//
// A Component is a plain value; its Props map is the caller's.
type Component struct {
	ID    string
	Type  string
	Props map[string]any
}

// ChildTemplate repeats the component ComponentID for each item of the
// list at Path of the data model; its bindings are relative to the item.
type ChildTemplate struct {
	ComponentID string `json:"componentId"`
	Path        string `json:"path"`
}

// Template returns a children property that repeats componentID over the
// list at path.
func Template(componentID, path string) ChildTemplate {
	return ChildTemplate{ComponentID: componentID, Path: path}
}

// Binding is a property value read from the data model at Path.
type Binding struct {
	Path string `json:"path"`
}

// Path returns a property bound to the data model at path.
func Path(path string) Binding { return Binding{Path: path} }

// MarshalJSON encodes c in the flat form.
func (c Component) MarshalJSON() ([]byte, error) {
	m := make(map[string]any, len(c.Props)+2)
	maps.Copy(m, c.Props)
	m["id"] = c.ID
	m["component"] = c.Type
	return json.Marshal(m)
}

// UnmarshalJSON decodes the flat form: id and component (strings, either
// may be missing) and every other key as a property.
func (c *Component) UnmarshalJSON(b []byte) error {
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		return err
	}
	id, _ := m["id"].(string)
	typ, _ := m["component"].(string)
	delete(m, "id")
	delete(m, "component")
	*c = Component{ID: id, Type: typ, Props: m}
	return nil
}
