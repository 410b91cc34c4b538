// Command builtins prints, as one JSON object keyed by OpenAPI definition name, the CRD schema
// controller-gen writes for every exported type of the Kubernetes API packages opgen inlines:
// controller-tools' own parser and flattener, with embedded ObjectMeta generated (name,
// namespace, labels, annotations, finalizers). hack/builtins/update.mjs turns the result into
// src/data/builtins.jsonl. Usage: go run . <package>...
package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"golang.org/x/tools/go/packages"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	"sigs.k8s.io/controller-tools/pkg/crd"
	crdmarkers "sigs.k8s.io/controller-tools/pkg/crd/markers"
	"sigs.k8s.io/controller-tools/pkg/loader"
	"sigs.k8s.io/controller-tools/pkg/markers"
)

func main() {
	roots, err := loader.LoadRoots(os.Args[1:]...)
	if err != nil {
		fail(err)
	}
	registry := &markers.Registry{}
	if err := crdmarkers.Register(registry); err != nil {
		fail(err)
	}
	parser := &crd.Parser{
		Collector:                  &markers.Collector{Registry: registry},
		Checker:                    &loader.TypeChecker{},
		GenerateEmbeddedObjectMeta: true,
	}
	crd.AddKnownTypes(parser)

	for _, pkg := range roots {
		parser.NeedPackage(pkg)
	}
	// Type-checking a whole package reports declarations no schema needs (conversion
	// functions, protobuf code); only errors while generating a schema count below.
	clearErrors(roots)
	var idents []crd.TypeIdent
	failed := map[crd.TypeIdent]bool{}
	for _, pkg := range roots {
		for _, name := range typeNames(parser, pkg) {
			ident := crd.TypeIdent{Package: pkg, Name: name}
			idents = append(idents, ident)
			parser.NeedFlattenedSchemaFor(ident)
			// controller-gen reports an error once, where it generates the culprit's schema;
			// blame the type declaring the position (or else the type being generated).
			for _, p := range roots {
				for _, err := range p.Errors {
					failed[declaringType(parser, err, ident)] = true
				}
			}
			clearErrors(roots)
		}
	}
	// A type controller-gen cannot express (floats, untagged fields, channels, interfaces), and
	// every type that contains one, is left out: opgen then refuses it, as controller-gen would.
	propagateFailures(parser, failed)
	schemas := map[string]apiextensionsv1.JSONSchemaProps{}
	var skipped []string
	for _, ident := range idents {
		definition := definitionName(ident.Package.PkgPath, ident.Name)
		if failed[ident] {
			skipped = append(skipped, definition)
			continue
		}
		schemas[definition] = parser.FlattenedSchemata[ident]
	}
	sort.Strings(skipped)
	for _, definition := range skipped {
		fmt.Fprintf(os.Stderr, "skipped %s: controller-gen cannot generate its schema\n", definition)
	}
	out := json.NewEncoder(os.Stdout)
	if err := out.Encode(schemas); err != nil {
		fail(err)
	}
}

// typeNames lists the exported named types the parser indexed in pkg, sorted.
func typeNames(parser *crd.Parser, pkg *loader.Package) []string {
	var names []string
	for ident := range parser.Types {
		if ident.Package == pkg && exported(ident.Name) {
			names = append(names, ident.Name)
		}
	}
	// Packages controller-gen overrides (resource.Quantity, intstr.IntOrString) have schemas, no type index.
	for ident := range parser.Schemata {
		if ident.Package == pkg && exported(ident.Name) && parser.Types[ident] == nil {
			names = append(names, ident.Name)
		}
	}
	sort.Strings(names)
	return names
}

// declaringType is the type whose declaration holds the error's position, else fallback.
func declaringType(parser *crd.Parser, err error, fallback crd.TypeIdent) crd.TypeIdent {
	var located packages.Error
	if !errors.As(err, &located) {
		return fallback
	}
	parts := strings.Split(located.Pos, ":")
	if len(parts) < 3 {
		return fallback
	}
	file := strings.Join(parts[:len(parts)-2], ":")
	line, _ := strconv.Atoi(parts[len(parts)-2])
	for ident, info := range parser.Types {
		if info.RawSpec == nil {
			continue
		}
		start, end := ident.Package.Fset.Position(info.RawSpec.Pos()), ident.Package.Fset.Position(info.RawSpec.End())
		if start.Filename == file && start.Line <= line && line <= end.Line {
			return ident
		}
	}
	return fallback
}

var refPattern = regexp.MustCompile(`"\$ref":"#/definitions/([^"]+)"`)

// propagateFailures marks every type whose schema refers, directly or not, to a failed type.
func propagateFailures(parser *crd.Parser, failed map[crd.TypeIdent]bool) {
	byPath := map[string]crd.TypeIdent{}
	for ident := range parser.Schemata {
		byPath[ident.Package.PkgPath+"~0"+ident.Name] = ident
	}
	refs := map[crd.TypeIdent][]crd.TypeIdent{}
	for ident, schema := range parser.Schemata {
		raw, err := json.Marshal(schema)
		if err != nil {
			fail(err)
		}
		for _, match := range refPattern.FindAllStringSubmatch(string(raw), -1) {
			target := strings.ReplaceAll(match[1], "~1", "/")
			if !strings.Contains(target, "~0") {
				target = ident.Package.PkgPath + "~0" + target
			}
			if to, ok := byPath[target]; ok {
				refs[ident] = append(refs[ident], to)
			}
		}
	}
	for changed := true; changed; {
		changed = false
		for ident, targets := range refs {
			for _, to := range targets {
				if failed[to] && !failed[ident] {
					failed[ident] = true
					changed = true
				}
			}
		}
	}
}

func exported(name string) bool {
	return name != "" && strings.ToUpper(name[:1]) == name[:1]
}

// definitionName is the OpenAPI name of a Go type: k8s.io/api/core/v1.Pod → io.k8s.api.core.v1.Pod.
func definitionName(pkgPath, name string) string {
	host, rest, _ := strings.Cut(pkgPath, "/")
	labels := strings.Split(host, ".")
	for i, j := 0, len(labels)-1; i < j; i, j = i+1, j-1 {
		labels[i], labels[j] = labels[j], labels[i]
	}
	return strings.Join(labels, ".") + "." + strings.ReplaceAll(rest, "/", ".") + "." + name
}

func errorCount(pkgs []*loader.Package) int {
	count := 0
	for _, pkg := range pkgs {
		count += len(pkg.Errors)
	}
	return count
}

func clearErrors(pkgs []*loader.Package) {
	for _, pkg := range pkgs {
		pkg.Errors = nil
	}
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, err)
	os.Exit(1)
}
