import type { Kind } from '../api/kind.js';
import { createCache, type Cached, type Informer } from '../cache/index.js';
import { kinds } from '../client/index.js';
import type { KubeObject } from '../object.js';
import { kubeconfigEngager, type Connect } from './kubeconfig-engager.js';
import type { ClusterProvider } from './provider.js';
import { untilStopped } from './until-stopped.js';

/** A provider whose clusters are objects of `kind`, each reached through a kubeconfig in a Secret beside it. */
export interface KeyedKubeconfigSpec<T extends KubeObject> {
  /** The provider's name in logs. */
  name: string;
  kind: Kind<T, true>;
  /** Only objects and Secrets of this namespace; default every namespace. */
  namespace?: string;
  /** The Secrets worth caching (a label or field selector). */
  secrets: { labelSelector?: string; fieldSelector?: string };
  /** Whether the object's cluster may be engaged now; a cluster engaged before stays while it is not. */
  isReady(object: Cached<T>): boolean;
  /** The name of the object a Secret holds the kubeconfig of, if any. */
  ownerOf(secret: Cached<kinds.Secret>): string | undefined;
  /** The object's kubeconfig (base64, as in Secret data) and where it was read, or undefined while its Secret is missing. */
  kubeconfigOf(object: Cached<T>, secrets: Informer<kinds.Secret>): { encoded: string | undefined; source: string } | undefined;
  connect?: Connect;
}

/**
 * The provider of {@link KeyedKubeconfigSpec}: clusters named `<namespace>/<name>` after
 * their objects, engaged once ready and their kubeconfig is there, re-engaged when it
 * changes, disengaged when the object is deleted or being deleted.
 */
export function keyedKubeconfigClusters<T extends KubeObject>(spec: KeyedKubeconfigSpec<T>): ClusterProvider {
  return {
    name: spec.name,
    async run(fleet, signal) {
      const cache = createCache(fleet.local.cluster, { namespace: spec.namespace, logger: fleet.log, byKind: [{ kind: kinds.Secret, ...spec.secrets }] });
      const objects = cache.informerFor(spec.kind);
      const secrets = cache.informerFor(kinds.Secret);
      const engager = kubeconfigEngager(fleet, spec.connect);
      const sync = (namespace: string, name: string): void => {
        const key = `${namespace}/${name}`;
        const object = objects.get(name, namespace);
        if (!object || object.metadata.deletionTimestamp) return engager.disengage(key);
        if (!spec.isReady(object)) return;
        // The Secret may come after the object turns ready: its own event engages then.
        const kubeconfig = spec.kubeconfigOf(object, secrets);
        if (kubeconfig) engager.engage(key, kubeconfig.encoded, kubeconfig.source);
      };
      const onObject = (object: Cached<T>): void => sync(object.metadata.namespace!, object.metadata.name);
      objects.addHandler({ add: onObject, update: (_old, object) => onObject(object), delete: onObject });
      const onSecret = (secret: Cached<kinds.Secret>): void => {
        const owner = spec.ownerOf(secret);
        if (owner) sync(secret.metadata.namespace!, owner);
      };
      secrets.addHandler({ add: onSecret, update: (_old, secret) => onSecret(secret), delete: onSecret });
      cache.start(signal);
      await untilStopped(signal);
    },
  };
}
