// The operator of the "Working with other projects' APIs" chapter: a cert-manager
// Certificate and a Gateway API HTTPRoute for each Service that asks for a host.
// test/book/ imports the two CRDs with `opgen import crd` into ./external/, type-checks
// this file and runs it on the memory cluster with the imported CRDs.
// #region imports
import { controller, kinds, type Client, type Manager } from '@opgen/runtime';
import { Certificate } from './external/cert-manager.io/v1/certificate_types.js';
import { HTTPRoute } from './external/gateway.networking.k8s.io/v1/httproute_types.js';

/** The annotation a Service sets to be served on a host. */
export const HOST = 'web.example.com/host';
/** The Gateway every route attaches to: the cluster's, not this operator's. */
export const GATEWAY = { name: 'public', namespace: 'gateway-system' };
/** The issuer of every certificate, also the cluster's. */
export const ISSUER = { kind: 'ClusterIssuer', name: 'letsencrypt' };
// #endregion imports
import { startControllerTest } from './widget-memory.js';

// #region rbac
// +kubebuilder:rbac:groups=core,resources=services,verbs=get;list;watch
// +kubebuilder:rbac:groups=cert-manager.io,resources=certificates,verbs=get;list;watch
// +kubebuilder:rbac:groups=cert-manager.io,resources=certificates,verbs=create;update;patch;delete
// +kubebuilder:rbac:groups=gateway.networking.k8s.io,resources=httproutes,verbs=get;list;watch
// +kubebuilder:rbac:groups=gateway.networking.k8s.io,resources=httproutes,verbs=create;update
// +kubebuilder:rbac:groups=gateway.networking.k8s.io,resources=httproutes,verbs=patch;delete
// #endregion rbac
export function setupWebRoutes(mgr: Manager): void {
  // #region builder
  controller(mgr)
    .for(kinds.Service)
    // A change to a Certificate or HTTPRoute this controller applied reconciles its
    // Service.
    .owns(Certificate)
    .owns(HTTPRoute)
    .reconcile(async (svc, ctx) => {
      const host = svc.metadata.annotations?.[HOST];
      const port = svc.spec?.ports?.[0]?.port;
      if (!host || port === undefined) return;
      const cert = await ctx.apply(Certificate, {
        metadata: { name: svc.metadata.name },
        spec: {
          secretName: `${svc.metadata.name}-tls`,
          dnsNames: [host],
          issuerRef: ISSUER,
          privateKey: { algorithm: 'ECDSA', rotationPolicy: 'Always' },
        },
      });
      // Traffic is routed once cert-manager has issued the certificate: its Ready
      // condition.
      const ready =
        cert.status?.conditions?.find((c) => c.type === 'Ready')?.status === 'True';
      if (!ready) return;
      await ctx.apply(HTTPRoute, {
        metadata: { name: svc.metadata.name },
        spec: {
          parentRefs: [GATEWAY],
          hostnames: [host],
          rules: [{ backendRefs: [{ name: svc.metadata.name, port }] }],
        },
      });
    });
  // #endregion builder
}

// #region type-errors
/** What the compiler refuses: each line is an error the CRD's schema also refuses. */
export async function refusedByTheCompiler(client: Client): Promise<void> {
  const metadata = { name: 'web', namespace: 'default' };
  const issuerRef = ISSUER;
  const secretName = 'web-tls';
  const privateKey = { algorithm: 'DSA' } as const;
  // @ts-expect-error 'DSA' is not an algorithm the CRD lists: 'RSA' | 'ECDSA' | 'Ed25519'
  await client.apply(Certificate, { metadata, spec: { secretName, issuerRef, privateKey } });
  // @ts-expect-error the CRD has no field secretNam
  await client.apply(Certificate, { metadata, spec: { secretNam: secretName, issuerRef } });
  const port = { name: 'web', port: '80' } as const;
  // @ts-expect-error a port is an int32, not a string
  await client.apply(HTTPRoute, { metadata, spec: { rules: [{ backendRefs: [port] }] } });
}
// #endregion type-errors

// #region test-cluster
/**
 * The "Testing" chapter's setup, with the imported CRDs (`crds`: the project's
 * config/crd/external/) and this controller.
 */
export const startWebRoutesTest = (crds: string) =>
  startControllerTest(crds, setupWebRoutes);
// #endregion test-cluster

// #region issue
/**
 * What cert-manager does in a real cluster, done by the test: the Certificate becomes
 * Ready.
 */
export async function issue(
  client: Client,
  name: string,
  namespace: string,
): Promise<void> {
  const now = new Date().toISOString().replace(/\.\d+Z$/, 'Z');
  await client.withFieldManager('cert-manager').applyStatus(Certificate, {
    metadata: { name, namespace },
    status: {
      conditions: [
        {
          type: 'Ready',
          status: 'True',
          reason: 'Issued',
          message: 'issued by the test',
          lastTransitionTime: now,
        },
      ],
    },
  });
}
// #endregion issue
