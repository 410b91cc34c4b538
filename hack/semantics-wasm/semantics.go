// Package main is a prototype of issue 36's design (b): the API server's own Go code for CRD
// and custom-object validation, behind a JSON-in/JSON-out call, built once to WebAssembly
// (main_wasip1.go) and once as a native helper on stdin/stdout (main_native.go). It composes
// the exported functions apiextensions-apiserver's handler and strategies call, in their order;
// nothing here re-implements a rule.
package main

import (
	"context"
	"encoding/json"
	"fmt"

	apiextensions "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions"
	apiextensionsinstall "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/install"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	crdvalidation "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/validation"
	structuralschema "k8s.io/apiextensions-apiserver/pkg/apiserver/schema"
	"k8s.io/apiextensions-apiserver/pkg/apiserver/schema/cel"
	"k8s.io/apiextensions-apiserver/pkg/apiserver/schema/cel/model"
	structuraldefaulting "k8s.io/apiextensions-apiserver/pkg/apiserver/schema/defaulting"
	structurallisttype "k8s.io/apiextensions-apiserver/pkg/apiserver/schema/listtype"
	schemaobjectmeta "k8s.io/apiextensions-apiserver/pkg/apiserver/schema/objectmeta"
	structuralpruning "k8s.io/apiextensions-apiserver/pkg/apiserver/schema/pruning"
	schemavalidation "k8s.io/apiextensions-apiserver/pkg/apiserver/validation"
	metavalidation "k8s.io/apimachinery/pkg/api/validation"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	utiljson "k8s.io/apimachinery/pkg/util/json"
	"k8s.io/apimachinery/pkg/util/validation/field"
	celconfig "k8s.io/apiserver/pkg/apis/cel"
	"k8s.io/apiserver/pkg/cel/common"
)

// request is one call. Op "validateCRD" checks Crd as a create would; "loadCRD" prepares Crd's
// schemas and CEL programs and answers an id; "validateObject" decodes and validates Object
// (and, on update, OldObject) against version Version of the CRD loaded as Id.
type request struct {
	Op        string          `json:"op"`
	Crd       json.RawMessage `json:"crd,omitempty"`
	ID        int             `json:"id,omitempty"`
	Version   string          `json:"version,omitempty"`
	Object    json.RawMessage `json:"object,omitempty"`
	OldObject json.RawMessage `json:"oldObject,omitempty"`
}

// fieldError is one cause of a 422 Status: Type is the cause's reason, Field its path, Detail the
// message after the path (field.Error.ErrorBody()).
type fieldError struct {
	Type   string `json:"type"`
	Field  string `json:"field"`
	Detail string `json:"detail"`
}

type response struct {
	Errors []fieldError `json:"errors"`
	// Unknown lists the fields pruning dropped, as fieldValidation=Strict and Warn report them.
	Unknown []string `json:"unknown,omitempty"`
	// BadRequest is a decoding error (400 "cannot be handled as"), answered before validation.
	BadRequest string                 `json:"badRequest,omitempty"`
	ID         int                    `json:"id,omitempty"`
	Object     map[string]interface{} `json:"object,omitempty"`
	Failed     string                 `json:"failed,omitempty"`
}

var scheme = runtime.NewScheme()

func init() { apiextensionsinstall.Install(scheme) }

// loaded is what the API server builds once per CRD: structural schemas, OpenAPI and CEL
// validators per version.
type loaded struct {
	crd        *apiextensions.CustomResourceDefinition
	structural map[string]*structuralschema.Structural
	openapi    map[string]schemavalidation.SchemaValidator
	cel        map[string]*cel.Validator
	// status: the versions that serve a status subresource.
	status map[string]bool
}

var crds []*loaded

// handle answers one JSON request with one JSON response; a malformed request is answered
// with Failed set, never a panic.
func handle(in []byte) (out []byte) {
	var res response
	defer func() {
		if r := recover(); r != nil {
			res = response{Failed: fmt.Sprint(r)}
		}
		if res.Errors == nil {
			res.Errors = []fieldError{}
		}
		out, _ = json.Marshal(res)
	}()
	var req request
	if err := json.Unmarshal(in, &req); err != nil {
		res.Failed = err.Error()
		return
	}
	var err error
	switch req.Op {
	case "validateCRD":
		res.Errors, err = validateCRD(req.Crd)
	case "loadCRD":
		res.ID, err = loadCRD(req.Crd)
	case "validateObject":
		res.Object, res.Unknown, res.Errors, err = validateObject(req)
		if bad, ok := err.(badRequest); ok {
			res.BadRequest, err = string(bad), nil
		}
	default:
		err = fmt.Errorf("unknown op %q", req.Op)
	}
	if err != nil {
		res.Failed = err.Error()
	}
	return
}

// internalCRD decodes a v1 CRD, defaults it and converts it to the internal version, as the
// API server's codec does before its strategy sees it.
func internalCRD(data []byte) (*apiextensions.CustomResourceDefinition, error) {
	var v1 apiextensionsv1.CustomResourceDefinition
	if err := json.Unmarshal(data, &v1); err != nil {
		return nil, err
	}
	scheme.Default(&v1)
	var crd apiextensions.CustomResourceDefinition
	if err := scheme.Convert(&v1, &crd, nil); err != nil {
		return nil, err
	}
	return &crd, nil
}

// validateCRD is the CRD strategy's PrepareForCreate (status and generation) then Validate.
func validateCRD(data []byte) ([]fieldError, error) {
	crd, err := internalCRD(data)
	if err != nil {
		return nil, err
	}
	crd.Status = apiextensions.CustomResourceDefinitionStatus{}
	crd.Generation = 1
	for _, v := range crd.Spec.Versions {
		if v.Storage {
			crd.Status.StoredVersions = []string{v.Name}
			break
		}
	}
	return causes(crdvalidation.ValidateCustomResourceDefinition(context.Background(), crd)), nil
}

// loadCRD builds, per version, what customresource_handler.go builds when it starts serving.
func loadCRD(data []byte) (int, error) {
	crd, err := internalCRD(data)
	if err != nil {
		return 0, err
	}
	l := &loaded{crd: crd, structural: map[string]*structuralschema.Structural{}, openapi: map[string]schemavalidation.SchemaValidator{}, cel: map[string]*cel.Validator{}, status: map[string]bool{}}
	for _, v := range crd.Spec.Versions {
		if sub := v.Subresources; sub != nil && sub.Status != nil || v.Subresources == nil && crd.Spec.Subresources != nil && crd.Spec.Subresources.Status != nil {
			l.status[v.Name] = true
		}
		props := v.Schema
		if props == nil && crd.Spec.Validation != nil {
			props = crd.Spec.Validation
		}
		if props == nil || props.OpenAPIV3Schema == nil {
			continue
		}
		s, err := structuralschema.NewStructural(props.OpenAPIV3Schema)
		if err != nil {
			return 0, err
		}
		s = s.DeepCopy()
		if err := structuraldefaulting.PruneDefaults(s); err != nil {
			return 0, err
		}
		openapi, _, err := schemavalidation.NewSchemaValidator(props.OpenAPIV3Schema)
		if err != nil {
			return 0, err
		}
		l.structural[v.Name] = s
		l.openapi[v.Name] = openapi
		l.cel[v.Name] = cel.NewValidator(s, true, celconfig.PerCallLimit)
	}
	crds = append(crds, l)
	return len(crds), nil
}

// validateObject decodes Object as the handler does (prune, drop nulls, coerce metadata,
// default) and validates it as customResourceStrategy.Validate / ValidateUpdate do, with
// ratcheting on update, after the strategy's PrepareForCreate/PrepareForUpdate keep status out
// of a write to the main resource. It answers the decoded object, the pruned fields and the
// field errors.
func validateObject(req request) (map[string]interface{}, []string, []fieldError, error) {
	if req.ID < 1 || req.ID > len(crds) {
		return nil, nil, nil, fmt.Errorf("no CRD loaded as %d", req.ID)
	}
	l := crds[req.ID-1]
	s, ok := l.structural[req.Version]
	if !ok {
		return nil, nil, nil, fmt.Errorf("no schema for version %q", req.Version)
	}
	// The API server decodes custom objects with integers as int64, not encoding/json's float64.
	var obj, oldObj map[string]interface{}
	if err := utiljson.Unmarshal(req.Object, &obj); err != nil {
		return nil, nil, nil, err
	}
	if req.OldObject != nil {
		if err := utiljson.Unmarshal(req.OldObject, &oldObj); err != nil {
			return nil, nil, nil, err
		}
	}
	unknown := structuralpruning.PruneWithOptions(obj, s, true, structuralschema.UnknownFieldPathOptions{TrackUnknownFieldPaths: true})
	structuraldefaulting.PruneNonNullableNullsWithoutDefaults(obj, s)
	if err, _ := schemaobjectmeta.CoerceWithOptions(nil, obj, s, false, schemaobjectmeta.CoerceOptions{}); err != nil {
		return nil, unknown, nil, badRequest(err.Error())
	}
	structuraldefaulting.Default(obj, s)
	if l.status[req.Version] {
		status, had := oldObj["status"]
		delete(obj, "status")
		if had {
			obj["status"] = status
		}
	}

	u := &unstructured.Unstructured{Object: obj}
	namespaced := l.crd.Spec.Scope == apiextensions.NamespaceScoped
	var errs field.ErrorList
	var celOpts []cel.Option
	if oldObj == nil {
		errs = append(errs, metavalidation.ValidateObjectMetaAccessor(u, namespaced, metavalidation.NameIsDNSSubdomain, field.NewPath("metadata"))...)
		errs = append(errs, schemavalidation.ValidateCustomResource(nil, obj, l.openapi[req.Version])...)
		errs = append(errs, schemaobjectmeta.Validate(nil, obj, s, false)...)
		errs = append(errs, structurallisttype.ValidateListSetsAndMaps(nil, s, obj)...)
	} else {
		old := &unstructured.Unstructured{Object: oldObj}
		correlated := common.NewCorrelatedObject(obj, oldObj, &model.Structural{Structural: s})
		celOpts = append(celOpts, cel.WithRatcheting(correlated))
		errs = append(errs, metavalidation.ValidateObjectMetaAccessorUpdate(u, old, field.NewPath("metadata"))...)
		errs = append(errs, schemavalidation.ValidateCustomResourceUpdate(nil, obj, oldObj, l.openapi[req.Version], schemavalidation.WithRatcheting(correlated))...)
		errs = append(errs, schemaobjectmeta.Validate(nil, obj, s, false)...)
		if len(structurallisttype.ValidateListSetsAndMaps(nil, s, oldObj)) == 0 {
			errs = append(errs, structurallisttype.ValidateListSetsAndMaps(nil, s, obj)...)
		}
	}
	// A version without rules has no CEL validator (NewValidator answers nil), and then no
	// "not checked" error either.
	if l.cel[req.Version] == nil {
		return l.readBack(obj, req.Version), unknown, causes(errs), nil
	}
	if blocking(errs) {
		errs = append(errs, field.Invalid(nil, nil, "some validation rules were not checked because the object was invalid; correct the existing errors to complete validation"))
	} else {
		// A nil map inside an interface is not nil: CEL must see no old object on create.
		var old interface{}
		if oldObj != nil {
			old = oldObj
		}
		celErrs, _ := l.cel[req.Version].Validate(context.Background(), nil, s, obj, old, celconfig.RuntimeCELCostBudget, celOpts...)
		errs = append(errs, celErrs...)
	}
	return l.readBack(obj, req.Version), unknown, causes(errs), nil
}

// readBack is the object as the API server answers a write with it: stored in the storage
// version (None conversion relabels it), read from storage (pruned, nulls dropped and defaulted
// with the storage version's schema) and converted back to the requested version, defaulted again.
func (l *loaded) readBack(obj map[string]interface{}, version string) map[string]interface{} {
	for _, v := range l.crd.Spec.Versions {
		if s := l.structural[v.Name]; v.Storage && s != nil {
			structuralpruning.PruneWithOptions(obj, s, true, structuralschema.UnknownFieldPathOptions{})
			structuraldefaulting.PruneNonNullableNullsWithoutDefaults(obj, s)
			structuraldefaulting.Default(obj, s)
		}
	}
	if s := l.structural[version]; s != nil {
		structuraldefaulting.Default(obj, s)
	}
	return obj
}

// badRequest is a decoding error: the request is answered 400 before any validation.
type badRequest string

func (b badRequest) Error() string { return string(b) }

// blocking mirrors customresource.hasBlockingErr (unexported there): these errors make the
// object unfit for CEL rules.
func blocking(errs field.ErrorList) bool {
	for _, err := range errs {
		switch err.Type {
		case field.ErrorTypeNotSupported, field.ErrorTypeRequired, field.ErrorTypeTooLong, field.ErrorTypeTooMany, field.ErrorTypeTypeInvalid:
			return true
		}
	}
	return false
}

// causes turns field errors into Status causes as the API server's NewInvalid does.
func causes(errs field.ErrorList) []fieldError {
	out := make([]fieldError, 0, len(errs))
	for _, err := range errs {
		out = append(out, fieldError{Type: string(err.Type), Field: err.Field, Detail: err.ErrorBody()})
	}
	return out
}
