/**
 * A transport to the real API server that sends each request exactly once. The runtime's
 * transport retries a PUT the server failed with a 5xx, as client-go does, up to ten times
 * with backoff: right for an operator, but here a 500 is an answer to compare, and retrying
 * the fuzz run's few hundred 500s would take most of its time budget.
 */
import https from 'node:https';
import type { KubeConfig } from '@kubernetes/client-node';
import { apiError, type HttpRequest, type Transport } from '../../../src/rest/transport.js';

export function singleTryTransport(kubeConfig: KubeConfig, fallback: Transport): Transport {
  const server = new URL(kubeConfig.getCurrentCluster()!.server);
  const agent = new https.Agent({ keepAlive: true });
  return {
    ...fallback,
    async request<T>(request: HttpRequest): Promise<T> {
      const auth: https.RequestOptions = {};
      await kubeConfig.applyToHTTPSOptions(auth);
      const body = request.body === undefined ? undefined : Buffer.from(JSON.stringify(request.body));
      const query = new URLSearchParams(Object.entries(request.query ?? {}).map(([key, value]): [string, string] => [key, String(value)])).toString();
      const describe = `${request.method} ${request.path}`;
      const { status, text } = await new Promise<{ status: number; text: string }>((resolve, reject) => {
        const req = https.request(
          {
            hostname: server.hostname,
            port: server.port,
            path: `${request.path}${query ? `?${query}` : ''}`,
            method: request.method,
            agent,
            ca: auth.ca,
            cert: auth.cert,
            key: auth.key,
            headers: {
              ...(auth.headers as Record<string, string> | undefined),
              accept: 'application/json',
              // The runtime's own user agent: managedFields name it as the manager of an update.
              'user-agent': 'opgen-runtime',
              ...(body && { 'content-type': request.contentType ?? 'application/json', 'content-length': body.length }),
            },
            timeout: request.timeoutMs ?? 60_000,
          },
          (response) => {
            const chunks: Buffer[] = [];
            response.on('data', (chunk: Buffer) => chunks.push(chunk));
            response.on('end', () => resolve({ status: response.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') }));
            response.on('error', reject);
          },
        );
        req.on('timeout', () => req.destroy(new Error(`${describe}: no answer in time`)));
        req.on('error', reject);
        req.end(body);
      });
      if (status < 200 || status > 299) throw apiError(status, text, describe, undefined);
      return (text ? JSON.parse(text) : undefined) as T;
    },
  };
}
