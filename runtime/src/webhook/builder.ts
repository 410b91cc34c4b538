import type { Kind } from '../api/kind.js';
import { apiVersionOf } from '../api/kind.js';
import { defaultingHandler, forKind, validatingHandler } from './admission.js';
import { conversionKey, type SpokeConversion } from './conversion.js';
import type { WebhookServerOptions } from './managed-server.js';
import { mutatePath, validatePath } from './paths.js';
import type { WebhookServer } from './server.js';
import type { Defaulter, Validators } from './types.js';

/** What `webhook`, `conversion` and `serveWebhooks` need of a manager (a `Manager` is one): its webhook server. */
export interface WebhookHost {
  /** The manager's webhook server, created on the first call; `options` only on that one. */
  webhookServer(options?: WebhookServerOptions): WebhookServer;
}

/**
 * Configures the manager's webhook server (`mgr.webhookServer(options)`); call it before
 * `webhook(mgr)` and `conversion(mgr)` to change the defaults. The server starts with the
 * manager, before its caches, on every replica; `/readyz` fails until it answers a TLS handshake.
 *
 * @example
 * serveWebhooks(mgr, { port: 9443, certificate: { dir: '/tmp/k8s-webhook-server/serving-certs' } });
 */
export function serveWebhooks(mgr: WebhookHost, options: WebhookServerOptions = {}): WebhookServer {
  return mgr.webhookServer(options);
}

/** Declares the admission webhooks of one kind; see {@link webhook}. */
export interface WebhookBuilder<T> {
  /** Serves `fn` on the kind's `/mutate-…` path: it mutates the object in place; the response is the JSON Patch. */
  default(fn: Defaulter<T>): WebhookBuilder<T>;
  /** Serves `validators` on the kind's `/validate-…` path: throw (or `deny`) to refuse. */
  validate(validators: Validators<T>): WebhookBuilder<T>;
}

/** Admission webhooks of a kind, served by the manager's webhook server on controller-runtime's paths. */
export interface WebhookFor {
  /** The webhooks of `kind`, on controller-runtime's paths unless `paths` says otherwise. */
  for<T>(kind: Kind<T>, paths?: { defaulting?: string; validation?: string }): WebhookBuilder<T>;
}

/**
 * Admission webhooks on the manager's server.
 *
 * @example
 * webhook(mgr)
 *   .for(Widget)
 *   .default((widget) => {
 *     widget.spec.replicas ??= 1;
 *   })
 *   .validate({
 *     update: (old, widget) => {
 *       if (widget.spec.size < old.spec.size) throw deny('size cannot shrink');
 *     },
 *   });
 */
export function webhook(mgr: WebhookHost): WebhookFor {
  const server = mgr.webhookServer();
  return {
    for<T>(kind: Kind<T>, paths: { defaulting?: string; validation?: string } = {}) {
      const builder: WebhookBuilder<T> = {
        default(fn) {
          server.register(paths.defaulting ?? mutatePath(kind), forKind(kind, defaultingHandler(fn)));
          return builder;
        },
        validate(validators) {
          server.register(paths.validation ?? validatePath(kind), forKind(kind, validatingHandler(validators)));
          return builder;
        },
      };
      return builder;
    },
  };
}

/** Declares a kind's conversions; see {@link conversion}. */
export interface ConversionFor {
  /** The conversions of `kind`, whichever version. */
  for(kind: Pick<Kind, 'group' | 'kind'>): {
    /** Names the hub version every spoke converts through. */
    hub<H>(hub: Kind<H>): ConversionSpokes<H>;
  };
}

/** Adds the spokes of one hub. */
export interface ConversionSpokes<H> {
  /** A version converted to and from the hub; spoke to spoke goes through the hub. */
  spoke<S>(spoke: Kind<S>, convert: SpokeConversion<S, H>): ConversionSpokes<H>;
}

/**
 * The conversion webhook of a kind, served on `/convert` by the manager's server.
 *
 * @example
 * conversion(mgr)
 *   .for(v2.Widget)
 *   .hub(v2.Widget)
 *   .spoke(v1.Widget, {
 *     toHub: (w) => ({ ...w, spec: { replicas: w.spec.size } }),
 *     fromHub: (w) => ({ ...w, spec: { size: w.spec.replicas } }),
 *   });
 */
export function conversion(mgr: WebhookHost): ConversionFor {
  const server = mgr.webhookServer();
  return {
    for(kind) {
      return {
        hub<H>(hub: Kind<H>) {
          const key = conversionKey(kind.group, kind.kind);
          if (hub.group !== kind.group || hub.kind !== kind.kind) throw new Error(`the hub of ${kind.kind} must be a version of it, not ${hub.kind}`);
          if (server.conversions.has(key)) throw new Error(`${kind.kind} of ${kind.group} already has a hub`);
          // eslint-disable-next-line @typescript-eslint/no-explicit-any -- each spoke converts its own pair of types.
          const spokes = new Map<string, SpokeConversion<any, any>>();
          server.conversions.set(key, { hub, spokes });
          const builder: ConversionSpokes<H> = {
            spoke(spoke, convert) {
              if (spoke.group !== kind.group || spoke.kind !== kind.kind) throw new Error(`a spoke of ${kind.kind} must be a version of it, not ${spoke.kind}`);
              const version = apiVersionOf(spoke);
              if (version === apiVersionOf(hub) || spokes.has(version)) throw new Error(`${kind.kind} ${version} is already the hub or a spoke`);
              spokes.set(version, convert);
              return builder;
            },
          };
          return builder;
        },
      };
    },
  };
}
