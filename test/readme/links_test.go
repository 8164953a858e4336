package readme

import (
	"os"
	"path"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

var (
	fence      = regexp.MustCompile("(?ms)^```.*?^```")
	codeSpan   = regexp.MustCompile("`[^`\n]*`")
	link       = regexp.MustCompile(`\]\(([^)\s]+)\)`)
	heading    = regexp.MustCompile(`(?m)^#{1,6} (.*)$`)
	notInSlugs = regexp.MustCompile(`[^\p{L}\p{N} _-]`)
)

// slug is the anchor GitHub gives a heading: lower case, punctuation
// dropped, spaces made hyphens.
func slug(h string) string {
	return strings.ReplaceAll(notInSlugs.ReplaceAllString(strings.ToLower(strings.TrimSpace(h)), ""), " ", "-")
}

// anchors returns the heading anchors of a Markdown text.
func anchors(markdown string) map[string]bool {
	out := map[string]bool{}
	for _, m := range heading.FindAllStringSubmatch(fence.ReplaceAllString(markdown, ""), -1) {
		out[slug(m[1])] = true
	}
	return out
}

// TestDocumentLinksResolve fails when a relative link in the README or in
// docs/ names a file that does not exist, or a heading that the linked
// Markdown file does not have, so moving a chapter or renaming a section
// cannot strand a reader.
func TestDocumentLinksResolve(t *testing.T) {
	docs, err := documents()
	if err != nil {
		t.Fatal(err)
	}
	for _, doc := range docs {
		prose := codeSpan.ReplaceAllString(fence.ReplaceAllString(doc.text, ""), "")
		for _, m := range link.FindAllStringSubmatch(prose, -1) {
			target := m[1]
			if strings.Contains(target, "://") || strings.HasPrefix(target, "mailto:") {
				continue
			}
			file, anchor, _ := strings.Cut(target, "#")
			rel := doc.path
			if file != "" {
				rel = path.Join(path.Dir(doc.path), file)
			}
			if strings.HasPrefix(rel, "../") {
				t.Errorf("%s links to %s, outside the repository", doc.path, target)
				continue
			}
			b, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(rel)))
			if err != nil {
				if _, serr := os.Stat(filepath.Join(root, filepath.FromSlash(rel))); serr == nil {
					continue // a directory
				}
				t.Errorf("%s links to %s: %v", doc.path, target, err)
				continue
			}
			if anchor != "" && strings.HasSuffix(rel, ".md") && !anchors(string(b))[anchor] {
				t.Errorf("%s links to %s: %s has no heading with anchor #%s", doc.path, target, rel, anchor)
			}
		}
	}
}

func TestSlug(t *testing.T) {
	for h, want := range map[string]string{
		"`POST /agents/detached`: a run that survives its connection":      "post-agentsdetached-a-run-that-survives-its-connection",
		"Tool calls run at least once; the call id is the idempotency key": "tool-calls-run-at-least-once-the-call-id-is-the-idempotency-key",
		"Gin: transformers are middleware, the outer one sees events last": "gin-transformers-are-middleware-the-outer-one-sees-events-last",
	} {
		if got := slug(h); got != want {
			t.Errorf("slug(%q) = %q, want %q", h, got, want)
		}
	}
}
