// Package codes holds docs/errors.md, the registry of the error codes the
// project can emit, to the source: it parses every Go file of the
// repository (tests excluded) and checks that each code is declared once,
// as an agui.Code constant, that every code the source gives an error is
// one of those, and that the registry lists exactly the declared codes
// with the constant and HTTP statuses they have in the source.
package codes

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"net/http"
	"os"
	"path"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// root is the repository's root, from this package's directory.
var root = filepath.Join("..", "..")

// constant is one declared code.
type constant struct {
	pkg   string // qualifier: the package's name, or a main package's directory
	name  string
	value string
	typed bool // of type agui.Code
	pos   string
}

// qualified is the constant as a Go user writes it: core.CodeForbidden.
func (c constant) qualified() string { return c.pkg + "." + c.name }

// literal is a code written as a string where an error is built.
type literal struct {
	value string
	pos   string
}

// answer is a refusal the source builds: a RequestError literal whose
// Status is an http.Status constant and whose Code a code constant.
type answer struct {
	pkg, name string // the code constant, as referenced
	status    int
	pos       string
}

// source is what the scan finds in the repository.
type source struct {
	consts   []constant
	literals []literal
	answers  []answer
	// refs counts the references to each qualified constant outside
	// its declaration.
	refs map[string]int
	// bodies are composite literals of structs tagged like the JSON
	// error body ("error" and "code"), by the function holding them.
	bodies []literal
	// ginJSON are calls of gin's JSON writers that abort with a body.
	ginJSON []literal
}

// scanRepo parses every non-test Go file under root.
func scanRepo(t *testing.T) *source {
	t.Helper()
	src := &source{refs: map[string]int{}}
	fset := token.NewFileSet()
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		name := d.Name()
		if d.IsDir() {
			if p != root && (strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_") || name == "node_modules" || name == "testdata") {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(name, ".go") || strings.HasSuffix(name, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(fset, p, nil, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, filepath.Dir(p))
		src.file(fset, f, filepath.ToSlash(rel))
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(src.consts) < 20 {
		t.Fatalf("found %d code constants; the scan is broken", len(src.consts))
	}
	return src
}

// file records what f declares and builds.
func (s *source) file(fset *token.FileSet, f *ast.File, dir string) {
	pkg := f.Name.Name
	if pkg == "main" {
		pkg = path.Base(dir)
	}
	// imports maps the names f's imports go by to their packages' names,
	// which this repository keeps equal to the last element of the path.
	imports := map[string]string{}
	for _, im := range f.Imports {
		p, _ := strconv.Unquote(im.Path.Value)
		name := path.Base(p)
		if p == "github.com/agui-go/agui" {
			name = "agui"
		}
		if im.Name != nil {
			imports[im.Name.Name] = name
		} else {
			imports[name] = name
		}
	}
	pos := func(n ast.Node) string {
		p := fset.Position(n.Pos())
		rel, _ := filepath.Rel(root, p.Filename)
		return filepath.ToSlash(rel) + ":" + strconv.Itoa(p.Line)
	}
	// ref resolves a reference to a constant: an identifier of this
	// package or a selector of an imported one.
	ref := func(e ast.Expr) (string, string, bool) {
		switch e := e.(type) {
		case *ast.Ident:
			return pkg, e.Name, true
		case *ast.SelectorExpr:
			if x, ok := e.X.(*ast.Ident); ok {
				if p, ok := imports[x.Name]; ok {
					return p, e.Sel.Name, true
				}
			}
		}
		return "", "", false
	}
	declared := map[*ast.Ident]bool{}
	for _, d := range f.Decls {
		g, ok := d.(*ast.GenDecl)
		if !ok || g.Tok != token.CONST {
			continue
		}
		for _, spec := range g.Specs {
			vs := spec.(*ast.ValueSpec)
			for i, n := range vs.Names {
				if i >= len(vs.Values) {
					continue
				}
				lit, ok := vs.Values[i].(*ast.BasicLit)
				if !ok || lit.Kind != token.STRING {
					continue
				}
				typed := isCodeType(vs.Type, pkg, imports)
				if !typed && !looksLikeCode(n.Name) {
					continue
				}
				v, _ := strconv.Unquote(lit.Value)
				s.consts = append(s.consts, constant{pkg: pkg, name: n.Name, value: v, typed: typed, pos: pos(n)})
				declared[n] = true
			}
		}
	}
	var fn string // the function being walked, for bodies
	ast.Inspect(f, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncDecl:
			fn = n.Name.Name
		case *ast.Ident:
			if !declared[n] {
				s.refs[pkg+"."+n.Name]++
			}
		case *ast.SelectorExpr:
			if x, ok := n.X.(*ast.Ident); ok {
				if p, ok := imports[x.Name]; ok {
					s.refs[p+"."+n.Sel.Name]++
					return false
				}
			}
		case *ast.CallExpr:
			switch name := calleeName(n.Fun); {
			case name == "NewError" && len(n.Args) > 0:
				s.codeExpr(n.Args[0], pos)
			case name == "Code" && len(n.Args) == 1:
				// A conversion, agui.Code("…").
				s.codeExpr(n.Args[0], pos)
			case strings.HasSuffix(name, "JSON") && strings.HasPrefix(name, "Abort"):
				s.ginJSON = append(s.ginJSON, literal{value: fn, pos: pos(n)})
			}
		case *ast.CompositeLit:
			if st, ok := n.Type.(*ast.StructType); ok && hasTags(st, `json:"error"`, `json:"code"`) {
				s.bodies = append(s.bodies, literal{value: fn, pos: pos(n)})
			}
			var status int
			var code ast.Expr
			for _, el := range n.Elts {
				kv, ok := el.(*ast.KeyValueExpr)
				if !ok {
					continue
				}
				switch k := kv.Key.(type) {
				case *ast.Ident:
					switch k.Name {
					case "Code":
						code = kv.Value
					case "Status":
						status = httpStatus(kv.Value, imports)
					}
				case *ast.BasicLit:
					if k.Value == `"code"` {
						code = kv.Value
					}
				}
			}
			if code == nil {
				break
			}
			s.codeExpr(code, pos)
			if status != 0 && calleeName(n.Type) == "RequestError" {
				if p, name, ok := ref(code); ok {
					s.answers = append(s.answers, answer{pkg: p, name: name, status: status, pos: pos(n)})
				}
			}
		}
		return true
	})
}

// codeExpr records e when it is a code written as a string literal,
// directly or inside a string(…) conversion.
func (s *source) codeExpr(e ast.Expr, pos func(ast.Node) string) {
	if c, ok := e.(*ast.CallExpr); ok && len(c.Args) == 1 && calleeName(c.Fun) == "string" {
		e = c.Args[0]
	}
	if lit, ok := e.(*ast.BasicLit); ok && lit.Kind == token.STRING {
		v, _ := strconv.Unquote(lit.Value)
		s.literals = append(s.literals, literal{value: v, pos: pos(lit)})
	}
}

// calleeName is the name a call or type expression ends with.
func calleeName(e ast.Expr) string {
	switch e := e.(type) {
	case *ast.Ident:
		return e.Name
	case *ast.SelectorExpr:
		return e.Sel.Name
	case *ast.IndexExpr:
		return calleeName(e.X)
	}
	return ""
}

// isCodeType reports whether t is agui.Code (or Code in package agui).
func isCodeType(t ast.Expr, pkg string, imports map[string]string) bool {
	switch t := t.(type) {
	case *ast.Ident:
		return pkg == "agui" && t.Name == "Code"
	case *ast.SelectorExpr:
		x, ok := t.X.(*ast.Ident)
		return ok && imports[x.Name] == "agui" && t.Sel.Name == "Code"
	}
	return false
}

// looksLikeCode reports whether a constant's name says it is a code
// (CodeX, codeX), so an untyped one is caught rather than skipped.
func looksLikeCode(name string) bool {
	for _, p := range []string{"Code", "code"} {
		if rest, ok := strings.CutPrefix(name, p); ok && rest != "" && rest[0] >= 'A' && rest[0] <= 'Z' {
			return true
		}
	}
	return false
}

// hasTags reports whether st has fields with each of tags.
func hasTags(st *ast.StructType, tags ...string) bool {
	for _, tag := range tags {
		found := false
		for _, f := range st.Fields.List {
			found = found || (f.Tag != nil && strings.Contains(f.Tag.Value, tag))
		}
		if !found {
			return false
		}
	}
	return true
}

// statusByName maps net/http's status constant names to their values,
// built from StatusText: StatusForbidden is 403.
var statusByName = func() map[string]int {
	m := map[string]int{}
	for code := 100; code < 600; code++ {
		if text := http.StatusText(code); text != "" {
			name := strings.NewReplacer(" ", "", "-", "", "'", "").Replace(text)
			m["Status"+name] = code
		}
	}
	return m
}()

// httpStatus is the value of an http.StatusX expression, 0 for others.
func httpStatus(e ast.Expr, imports map[string]string) int {
	sel, ok := e.(*ast.SelectorExpr)
	if !ok {
		return 0
	}
	if x, ok := sel.X.(*ast.Ident); !ok || imports[x.Name] != "http" {
		return 0
	}
	return statusByName[sel.Sel.Name]
}

// registry is a row of docs/errors.md's tables.
type registry struct {
	code, constant, answered string
	line                     int
}

// readRegistry parses the table rows of docs/errors.md: | `CODE` |
// `pkg.Const` | answered as | meaning |.
func readRegistry(t *testing.T) []registry {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(root, "docs", "errors.md"))
	if err != nil {
		t.Fatal(err)
	}
	var rows []registry
	for i, line := range strings.Split(string(b), "\n") {
		if !strings.HasPrefix(line, "| `") {
			continue
		}
		cells := strings.Split(strings.Trim(line, "| "), "|")
		if len(cells) < 4 {
			t.Errorf("docs/errors.md:%d: a row needs code, constant, answered as and meaning: %s", i+1, line)
			continue
		}
		for j := range cells {
			cells[j] = strings.TrimSpace(cells[j])
		}
		rows = append(rows, registry{
			code:     strings.Trim(cells[0], "`"),
			constant: strings.Trim(cells[1], "`"),
			answered: cells[2],
			line:     i + 1,
		})
	}
	if len(rows) < 20 {
		t.Fatalf("docs/errors.md has %d rows; the table is missing or its format changed", len(rows))
	}
	return rows
}
