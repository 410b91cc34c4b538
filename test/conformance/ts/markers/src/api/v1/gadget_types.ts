import type {
  Bytes,
  Condition,
  ConditionStatus,
  Duration,
  IntOrString,
  JSONValue,
  List,
  MicroTime,
  ObjectMeta,
  ObjectReference,
  Quantity,
  RawExtension,
  Time,
  int32,
  int64,
} from '@opgen/runtime/api';
import type { V1ResourceRequirements } from '@kubernetes/client-node';
import type { Label, Limits, Page, Part, PartBase, Phase, Port, Priority, Source, Strategy } from './common_types.js';

/** GadgetSpec shows every type mapping and schema marker. */
export interface GadgetSpec {
  /**
   * Display name.
   * @minLength 1
   * @maxLength 40
   */
  displayName: string;

  /**
   * Model code.
   * +kubebuilder:validation:MinLength=2
   * +kubebuilder:validation:MaxLength=8
   * +kubebuilder:validation:Pattern=`^[A-Z0-9-]+$`
   * +kubebuilder:example="GX-1"
   * +kubebuilder:title=Model
   */
  model: string;

  /**
   * Rollout strategy.
   * +kubebuilder:default=Rolling
   */
  strategy?: Strategy;

  /**
   * Priority class.
   * +kubebuilder:default=10
   */
  priority?: Priority;

  /**
   * Pull policy, as in containers.
   * +kubebuilder:validation:Enum=Always;IfNotPresent;Never
   * +default="IfNotPresent"
   */
  pullPolicy?: string;

  /**
   * Parts of the gadget, keyed by serial.
   * +listType=map
   * +listMapKey=serial
   * @maxItems 16
   */
  parts?: Part[];

  /**
   * Tags, each unique.
   * +listType=set
   * +kubebuilder:validation:MinItems=1
   * +kubebuilder:validation:items:MaxLength=20
   */
  tags?: string[];

  /**
   * Ports the gadget listens on.
   * +listType=atomic
   */
  ports?: Port[];

  /**
   * Labels copied to the gadget's pods.
   * +mapType=granular
   * @maxProperties 8
   */
  podLabels?: Record<string, string>;

  /**
   * Annotations replaced as a whole.
   * +mapType=atomic
   * +kubebuilder:validation:MinProperties=1
   */
  annotations?: { [key: string]: string };

  /**
   * Source of the gadget's data.
   * +structType=atomic
   */
  source?: Source;

  /** Limits of the gadget. */
  limits?: Limits;

  /** Storage size. */
  size?: Quantity;

  /**
   * Port or port name of the gadget's service.
   * +kubebuilder:validation:XIntOrString
   */
  servicePort?: IntOrString;

  /**
   * Retries, a multiple of 3.
   * @multipleOf 3
   */
  retries?: int64;

  /**
   * Replicas, any integer.
   * @maximum 10
   * @exclusiveMaximum
   */
  replicas?: int32;

  /**
   * Ratio between 0 and 1.
   * @minimum 0
   * @maximum 1
   * +kubebuilder:validation:ExclusiveMinimum=false
   * @exclusiveMaximum false
   */
  ratio?: number;

  /** When the gadget was built. */
  builtAt?: Time;

  /** When the gadget was last probed, to the microsecond. */
  probedAt?: MicroTime;

  /** How long a rollout may take. */
  timeout?: Duration;

  /** A small binary blob. */
  blob?: Bytes;

  /** A nullable note. */
  note?: string | null;

  /**
   * A nullable flag.
   * +nullable
   */
  enabled?: boolean;

  /** Anything the plugin wants to keep. */
  pluginConfig?: JSONValue;

  /**
   * An embedded object of any kind.
   * +kubebuilder:validation:EmbeddedResource
   * +kubebuilder:pruning:PreserveUnknownFields
   */
  extra?: RawExtension;

  /**
   * Free-form settings the operator does not look into.
   * +kubebuilder:validation:Schemaless
   * +kubebuilder:validation:Type=object
   * +kubebuilder:pruning:PreserveUnknownFields
   */
  settings?: Record<string, string>;

  /** Resources of the gadget's pods. */
  resources?: V1ResourceRequirements;

  /** The object the gadget reports to. */
  reportTo?: ObjectReference;

  /** A page of parts. */
  partsPage?: Page<Part>;

  /**
   * Link to the gadget's manual.
   * +kubebuilder:externalDocs:url="https://example.com/gadgets",description="Gadget manual"
   */
  manual?: string;

  /**
   * Size of the gadget in millimetres, required.
   * +required
   * +kubebuilder:validation:Minimum=1
   */
  length: int32;

  /**
   * Colour of the gadget, optional in the kubebuilder spelling.
   * +kubebuilder:validation:Optional
   */
  colour: string;

  /**
   * Finish of the gadget, required in the kubebuilder spelling.
   * +kubebuilder:validation:Required
   */
  finish?: string;

  /**
   * Zone of the gadget, optional in the k8s spelling.
   * +k8s:optional
   */
  zone: string;

  /**
   * Owners of the gadget, a set in the k8s spelling.
   * +k8s:listType=set
   */
  owners?: string[];

  /**
   * Defaults given as an object.
   * +kubebuilder:default={mode: "fast", level: "high"}
   */
  tuning?: Record<string, string>;

  /**
   * Defaults given as a list.
   * +kubebuilder:default={"a","b"}
   */
  stages?: string[];

  /**
   * A label of the gadget.
   * +kubebuilder:validation:XValidation:rule="self != 'reserved'",messageExpression="'label ' + self + ' is reserved'",reason=FieldValueForbidden
   */
  label?: Label;

  /** Overrides of a part's base fields, plus a note. */
  overrides?: PartBase & { note?: string };

  /** Parts by name. */
  partsByName?: { [name: string]: Part };

  /** Level of detail. */
  level?: 1 | 2 | 3;

  /** Weight in grams or as text. */
  weight?: number | string;

  /**
   * Aliases, in order.
   * +kubebuilder:validation:UniqueItems=false
   */
  aliases?: readonly string[];

  /**
   * Batch the gadget was made in: cannot change, nor be removed, once set.
   * +k8s:immutable
   */
  batch?: string;

  /**
   * Factory of the gadget: cannot change once set.
   * +k8s:immutable
   */
  factory: string;

  /**
   * Immutable once set.
   * +kubebuilder:validation:XValidation:rule="self == oldSelf",message="serial is immutable"
   */
  serial?: string;
}

/** GadgetStatus is the observed state of a Gadget. */
export interface GadgetStatus {
  /** Last observed generation. */
  observedGeneration?: int64;

  /** Replicas running. */
  replicas?: int32;

  /** Phase of the gadget. */
  phase?: Phase;

  /** Selector of the gadget's pods, for the scale subresource. */
  selector?: string;

  /** Health of the gadget, typed as core conditions' status. */
  health?: ConditionStatus;

  /**
   * Conditions of the gadget.
   * +listType=map
   * +listMapKey=type
   */
  conditions?: Condition[];
}

/**
 * Gadget shows every type mapping and schema marker.
 * +kubebuilder:object:root=true
 * +kubebuilder:resource:shortName=gd;gad,categories=all;shop,singular=gadget
 * +kubebuilder:subresource:status
 * +kubebuilder:subresource:scale:specpath=.spec.length,statuspath=.status.replicas,selectorpath=.status.selector
 * +kubebuilder:printcolumn:name="Model",type=string,JSONPath=`.spec.model`
 * +kubebuilder:printcolumn:name="Length",type=integer,JSONPath=`.spec.length`,description="Length in mm",priority=1
 * +kubebuilder:printcolumn:name="Age",type=date,JSONPath=`.metadata.creationTimestamp`
 * +kubebuilder:printcolumn:name="Serial",type=string,JSONPath=`.spec.serial`,description="",format="",priority=0
 * +kubebuilder:selectablefield:JSONPath=`.spec.model`
 * +kubebuilder:metadata:annotations="shop.example.com/owner=team-gadgets"
 * +kubebuilder:metadata:labels="shop.example.com/tier=gold"
 * +kubebuilder:validation:XValidation:rule="self.metadata.name.size() <= 40",message="gadget names are at most 40 characters"
 * +kubebuilder:storageversion
 */
export interface Gadget {
  apiVersion?: string;
  kind?: string;
  metadata?: ObjectMeta;
  spec: GadgetSpec;
  status?: GadgetStatus;
}

/** +kubebuilder:object:root=true */
export interface GadgetList extends List<Gadget> {}

/**
 * Cog is a cluster-scoped kind.
 * +kubebuilder:object:root=true
 * +kubebuilder:storageversion
 * +kubebuilder:resource:scope=Cluster,path=cogwheels
 */
export interface Cog {
  apiVersion?: string;
  kind?: string;
  metadata?: ObjectMeta;
  /**
   * Teeth of the cog.
   * +kubebuilder:validation:Minimum=3
   */
  teeth: int32;
}

/** +kubebuilder:object:root=true */
export interface CogList extends List<Cog> {}
