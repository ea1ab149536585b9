package doctest

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"unicode"
)

// outside is the path prefix no tracked file may contain: the project's
// notes outside the repository, dead in a clone. Spelled in two parts so
// that this file does not contain it.
var outside = ".." + "/shared"

// outsideExceptions are files owned by others that still mention it; each
// entry must still contain it (remove the entry once the file is fixed).
var outsideExceptions = map[string]bool{}

// trackedFiles lists the repository's files: git's index when git knows the
// repository, else every regular file outside .git.
func trackedFiles(t *testing.T) []string {
	t.Helper()
	root := repoRoot()
	cmd := exec.Command("git", "ls-files", "-z")
	cmd.Dir = root
	if out, err := cmd.Output(); err == nil {
		var files []string
		for _, f := range strings.Split(string(out), "\x00") {
			if f != "" {
				files = append(files, f)
			}
		}
		return files
	}
	var files []string
	err := filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && d.Name() == ".git" {
			return filepath.SkipDir
		}
		if d.Type().IsRegular() {
			rel, _ := filepath.Rel(root, p)
			files = append(files, filepath.ToSlash(rel))
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return files
}

func TestNothingPointsOutside(t *testing.T) {
	root := repoRoot()
	for _, f := range trackedFiles(t) {
		data, err := os.ReadFile(filepath.Join(root, f))
		if err != nil {
			continue // deleted in the work tree
		}
		has := bytes.Contains(data, []byte(outside))
		switch {
		case has && !outsideExceptions[f]:
			line := 1 + bytes.Count(data[:bytes.Index(data, []byte(outside))], []byte("\n"))
			t.Errorf("%s:%d: points outside the repository (%s)", f, line, outside)
		case !has && outsideExceptions[f]:
			t.Errorf("%s no longer points outside the repository: remove it from outsideExceptions", f)
		}
	}
}

// mdLink matches an inline Markdown link or image: [text](target).
var mdLink = regexp.MustCompile(`!?\[[^\]]*\]\(([^)\s]+)(?:\s+"[^"]*")?\)`)

// TestMarkdownLinks checks that every relative link of every tracked
// Markdown file names a file or directory inside the repository, and that
// an anchor names a heading of its page.
func TestMarkdownLinks(t *testing.T) {
	root := repoRoot()
	for _, f := range trackedFiles(t) {
		if !strings.HasSuffix(f, ".md") {
			continue
		}
		data, err := os.ReadFile(filepath.Join(root, f))
		if err != nil {
			continue
		}
		for i, line := range strings.Split(string(withoutCode(string(data))), "\n") {
			for _, m := range mdLink.FindAllStringSubmatch(line, -1) {
				if msg := checkLink(root, f, m[1]); msg != "" {
					t.Errorf("%s:%d: link %s: %s", f, i+1, m[1], msg)
				}
			}
		}
	}
}

// withoutCode blanks the lines inside fenced code blocks, keeping the
// line count, so that code is not read as links.
func withoutCode(s string) string {
	lines := strings.Split(s, "\n")
	in := false
	for i, l := range lines {
		if strings.HasPrefix(strings.TrimSpace(l), "```") {
			in = !in
			lines[i] = ""
			continue
		}
		if in {
			lines[i] = ""
		}
	}
	return strings.Join(lines, "\n")
}

func checkLink(root, file, target string) string {
	if strings.Contains(target, "://") || strings.HasPrefix(target, "mailto:") {
		return ""
	}
	path, anchor, _ := strings.Cut(target, "#")
	dest := filepath.Join(root, filepath.Dir(file), filepath.FromSlash(path))
	if path == "" {
		dest = filepath.Join(root, file)
	}
	rel, err := filepath.Rel(root, dest)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return "points outside the repository"
	}
	if _, err := os.Stat(dest); err != nil {
		return "no such file"
	}
	if anchor != "" && strings.HasSuffix(dest, ".md") {
		data, _ := os.ReadFile(dest)
		if !headingAnchors(string(data))[anchor] {
			return "no heading with anchor #" + anchor
		}
	}
	return ""
}

// headingAnchors returns the anchors GitHub gives a page's headings:
// lower case, punctuation dropped, spaces as hyphens, repeats numbered.
func headingAnchors(page string) map[string]bool {
	anchors := map[string]bool{}
	seen := map[string]int{}
	for _, l := range strings.Split(withoutCode(page), "\n") {
		if !strings.HasPrefix(l, "#") {
			continue
		}
		h := strings.TrimSpace(strings.TrimLeft(l, "#"))
		var b strings.Builder
		for _, r := range strings.ToLower(h) {
			switch {
			case r == ' ':
				b.WriteRune('-')
			case r == '-' || r == '_' || r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r > 127 && unicode.IsLetter(r):
				b.WriteRune(r)
			}
		}
		a := b.String()
		if n := seen[a]; n > 0 {
			anchors[a+"-"+strconv.Itoa(n)] = true
		} else {
			anchors[a] = true
		}
		seen[a]++
	}
	return anchors
}
