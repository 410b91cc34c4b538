/**
 * The Kubernetes release the harness is built and tested against. Keep in step with
 * `controlplane/versions.env` in this package, which builds these binaries with Go.
 */
export const KUBERNETES_VERSION = '1.36.3';

/** The helm release opgen runs for chart tests and chart-backed operators (hack/helm/build.sh builds the same). */
export const HELM_VERSION = '4.3.1';
