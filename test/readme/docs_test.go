// Package readme checks the repository's documents: that their Go blocks
// compile, that the tests they cite exist, that their links resolve, and
// that the package layout they describe is the one the code has.
package readme

import (
	"os"
	"path/filepath"
	"sort"
)

// root is the repository's root, seen from this package's directory.
var root = filepath.Join("..", "..")

// document is one Markdown file of the documentation.
type document struct {
	path string // relative to root, in slash form
	text string
}

// documents returns README.md and every docs/*.md, README first, so every
// check here covers whatever the README's reference chapters moved to.
func documents() ([]document, error) {
	paths, err := filepath.Glob(filepath.Join(root, "docs", "*.md"))
	if err != nil {
		return nil, err
	}
	sort.Strings(paths)
	paths = append([]string{filepath.Join(root, "README.md")}, paths...)
	var out []document
	for _, p := range paths {
		b, err := os.ReadFile(p)
		if err != nil {
			return nil, err
		}
		rel, err := filepath.Rel(root, p)
		if err != nil {
			return nil, err
		}
		out = append(out, document{path: filepath.ToSlash(rel), text: string(b)})
	}
	return out, nil
}
