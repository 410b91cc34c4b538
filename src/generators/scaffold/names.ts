import { posix } from 'node:path';
import { fullGroup, type ProjectConfig, type Resource } from '../../project/model.js';

/** Where and under which identifiers one kind's scaffold lives. */
export interface KindNames {
  kind: string;
  /** `demovolume`: file names. */
  lower: string;
  /** `demoVolume`: the variable holding one object in generated code. */
  variable: string;
  /**
   * The local name of the kind's run-time handle in the controller and its test: the kind,
   * or `PromiseKind` when the kind would shadow a global or an import those files use.
   */
  handle: string;
  /** The import binding of {@link handle}: `DemoVolume` or `Promise as PromiseKind`. */
  handleImport: string;
  fullGroup: string;
  version: string;
  plural: string;
  namespaced: boolean;
  /** `src/api/v1` or, in a multigroup project, `src/api/storage/v1`. */
  apiDir: string;
  typesFile: string;
  groupVersionFile: string;
  controllerFile: string;
  controllerTestFile: string;
  /** The types module as the controller imports it, e.g. `../api/v1/demovolume_types.js`. */
  typesImportFromController: string;
  /** The CRD bases folder as the controller test reaches it, e.g. `../../config/crd/bases`. */
  crdBasesFromControllerTest: string;
  /** The controller module as src/main.ts imports it, e.g. `./controllers/demovolume_controller.js`. */
  controllerImportFromMain: string;
  setupFunction: string;
  reconcileFunction: string;
  sampleFile: string;
  /** `demovolume` or, in a multigroup project, `storage_demovolume`: role file names. */
  roleFileStem: string;
  /** `demovolume` or `storage-demovolume`: role object names. */
  roleNameStem: string;
  /** The CRD `opgen manifests` writes, as config/crd/kustomization.yaml lists it. */
  crdEntry: string;
}

/** Every name the scaffold of `resource` uses, derived one way for all generators. */
export function kindNames(project: Pick<ProjectConfig, 'multigroup'>, resource: Resource): KindNames {
  const lower = resource.kind.toLowerCase();
  const apiDir = project.multigroup ? `src/api/${resource.group}/${resource.version}` : `src/api/${resource.version}`;
  const controllerDir = project.multigroup ? `src/controllers/${resource.group}` : 'src/controllers';
  const controllerFile = `${controllerDir}/${lower}_controller.ts`;
  const typesFile = `${apiDir}/${lower}_types.ts`;
  return {
    kind: resource.kind,
    lower,
    variable: variableName(resource.kind),
    ...handleNames(resource.kind),
    fullGroup: fullGroup(resource),
    version: resource.version,
    plural: resource.plural,
    namespaced: resource.api?.namespaced ?? resource.extra.namespaced !== false,
    apiDir,
    typesFile,
    groupVersionFile: `${apiDir}/groupversion_info.ts`,
    controllerFile,
    controllerTestFile: `${controllerDir}/${lower}_controller.test.ts`,
    typesImportFromController: importPath(controllerFile, typesFile),
    crdBasesFromControllerTest: posix.relative(controllerDir, 'config/crd/bases'),
    controllerImportFromMain: importPath('src/main.ts', controllerFile),
    setupFunction: `setup${resource.kind}Controller`,
    reconcileFunction: `reconcile${resource.kind}`,
    sampleFile: `config/samples/${resource.group}_${resource.version}_${lower}.yaml`,
    roleFileStem: project.multigroup ? `${resource.group}_${lower}` : lower,
    roleNameStem: project.multigroup ? `${resource.group.replaceAll('.', '-')}-${lower}` : lower,
    crdEntry: `bases/${fullGroup(resource)}_${resource.plural}.yaml`,
  };
}

/** The ESM specifier (`.js` suffix, as NodeNext wants) of `to`'s module seen from `from`. */
function importPath(from: string, to: string): string {
  const path = posix.relative(posix.dirname(from), to).replace(/\.ts$/, '.js');
  return path.startsWith('.') ? path : `./${path}`;
}

function handleNames(kind: string): { handle: string; handleImport: string } {
  if (!shadowing.has(kind)) return { handle: kind, handleImport: kind };
  return { handle: `${kind}Kind`, handleImport: `${kind} as ${kind}Kind` };
}

/**
 * Names the generated controller and its test use besides the kind: their imports, and the
 * globals they rely on (`Promise` for async functions, `URL`), which an import of the same
 * name would hide, and the standard globals a user might pick for a kind.
 */
const shadowing = new Set([
  ...['controller', 'kinds', 'setCondition', 'Manager', 'ReconcileContext', 'Request', 'Result', 'createManager'],
  ...['installCRDs', 'startControlPlane', 'ControlPlane', 'fileURLToPath', 'afterAll', 'beforeAll', 'describe', 'expect', 'it'],
  ...['Promise', 'URL', 'Error', 'Object', 'Array', 'String', 'Number', 'Boolean', 'Symbol', 'Date', 'JSON', 'Math', 'Map', 'Set'],
  ...['Record', 'Partial', 'Readonly', 'Required', 'Pick', 'Omit'],
]);

/**
 * `DemoVolume` → `demoVolume`, `URLMap` → `urlMap`; never a reserved word nor a name the
 * generated controller and test already use next to it.
 */
function variableName(kind: string): string {
  const leadingCaps = /^[A-Z]+(?=[A-Z][a-z]|[0-9]|$)|^[A-Z]/.exec(kind)![0];
  const name = leadingCaps.toLowerCase() + kind.slice(leadingCaps.length);
  return unavailable.has(name) ? `${name}Object` : name;
}

const unavailable = new Set([
  ...'break case catch class const continue debugger default delete do else enum export extends false finally for function if implements import in instanceof interface let new null package private protected public return static super switch this throw true try typeof var void while with yield await'.split(
    ' ',
  ),
  ...['req', 'ctx', 'conditions', 'condition', 'client', 'mgr', 'controlPlane', 'running', 'name', 'namespace', 'foo', 'configMap'],
]);
