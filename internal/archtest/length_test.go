package archtest

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// maxFuncLines is the longest a non-test function may be, counted from its
// func line to its closing brace, unless a "Long:" line in its doc comment
// says why it is longer (a search loop, a table of flag definitions).
const maxFuncLines = 80

// longFunc is a function over maxFuncLines lines without a reason.
type longFunc struct {
	pos   string // file:line
	name  string
	lines int
}

// longFuncs returns the functions of f that are over maxFuncLines lines and
// carry no "Long:" reason in their doc comment.
func longFuncs(fset *token.FileSet, f *ast.File) []longFunc {
	var out []longFunc
	for _, d := range f.Decls {
		fn, ok := d.(*ast.FuncDecl)
		if !ok || fn.Body == nil {
			continue
		}
		start, end := fset.Position(fn.Pos()), fset.Position(fn.End())
		n := end.Line - start.Line + 1
		if n <= maxFuncLines || hasReason(fn.Doc) {
			continue
		}
		name := fn.Name.Name
		if fn.Recv != nil && len(fn.Recv.List) > 0 {
			name = recvName(fn.Recv.List[0].Type) + "." + name
		}
		out = append(out, longFunc{pos: fmt.Sprintf("%s:%d", start.Filename, start.Line), name: name, lines: n})
	}
	return out
}

// hasReason reports whether a doc comment has a line starting "Long:".
func hasReason(doc *ast.CommentGroup) bool {
	if doc == nil {
		return false
	}
	for _, c := range doc.List {
		if strings.HasPrefix(strings.TrimSpace(strings.TrimPrefix(c.Text, "//")), "Long:") {
			return true
		}
	}
	return false
}

func recvName(e ast.Expr) string {
	switch t := e.(type) {
	case *ast.StarExpr:
		return recvName(t.X)
	case *ast.IndexExpr:
		return recvName(t.X)
	case *ast.Ident:
		return t.Name
	}
	return "?"
}

func TestLongFuncsDetector(t *testing.T) {
	body := strings.Repeat("\t_ = 1\n", maxFuncLines-2) // func line + body + brace = maxFuncLines
	for _, tc := range []struct {
		name, src string
		want      []string
	}{
		{"at the limit", "func a() {\n" + body + "}\n", nil},
		{"one over", "func b() {\n" + body + "\t_ = 2\n}\n", []string{"b"}},
		{"one over with a reason", "// b does things.\n// Long: a search loop.\nfunc b() {\n" + body + "\t_ = 2\n}\n", nil},
		{"a doc without a reason", "// c is long.\nfunc (x *T) c() {\n" + body + "\t_ = 2\n}\n", []string{"T.c"}},
	} {
		fset := token.NewFileSet()
		f, err := parser.ParseFile(fset, "x.go", "package p\n\ntype T struct{}\n\n"+tc.src, parser.ParseComments)
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, l := range longFuncs(fset, f) {
			got = append(got, l.name)
		}
		if fmt.Sprint(got) != fmt.Sprint(tc.want) {
			t.Errorf("%s: %v, want %v", tc.name, got, tc.want)
		}
	}
}

// TestNoLongFuncs fails for any non-test function of the module over
// maxFuncLines lines without a "Long:" reason above it.
func TestNoLongFuncs(t *testing.T) {
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	var found []longFunc
	err = filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if n := d.Name(); path != root && (strings.HasPrefix(n, ".") || n == "testdata" || n == "vendor" || n == "bin" || n == "node_modules") {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, parser.ParseComments)
		if err != nil {
			return err
		}
		if ast.IsGenerated(f) {
			return nil
		}
		found = append(found, longFuncs(fset, f)...)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	sort.Slice(found, func(i, j int) bool { return found[i].lines > found[j].lines })
	for _, l := range found {
		p, _ := filepath.Rel(root, strings.SplitN(l.pos, ":", 2)[0])
		t.Errorf("%s:%s %s is %d lines: split it, or write why above it (a doc line \"Long: ...\")", p, strings.SplitN(l.pos, ":", 2)[1], l.name, l.lines)
	}
}
