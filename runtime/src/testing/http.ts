import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';

/** What the harness needs to talk to its own processes before any client exists. */
export interface HttpOptions {
  method?: 'GET' | 'POST';
  body?: string;
  /** PEM bundle that signs the server's certificate; omit to skip verification. */
  ca?: string;
  bearerToken?: string;
  timeoutMs?: number;
}

export interface HttpResponse {
  status: number;
  body: string;
}

/** One bounded HTTP(S) request; network errors reject, any status resolves. */
export function httpCall(url: string, options: HttpOptions = {}): Promise<HttpResponse> {
  const target = new URL(url);
  const headers: Record<string, string> = {};
  if (options.bearerToken) headers.authorization = `Bearer ${options.bearerToken}`;
  if (options.body !== undefined) headers['content-type'] = 'application/json';
  const common = { method: options.method ?? 'GET', headers, timeout: options.timeoutMs ?? 2000 };
  return new Promise((resolve, reject) => {
    const onResponse = (response: import('node:http').IncomingMessage): void => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }));
      response.on('error', reject);
    };
    const req =
      target.protocol === 'https:'
        ? httpsRequest(target, { ...common, ca: options.ca, rejectUnauthorized: options.ca !== undefined }, onResponse)
        : httpRequest(target, common, onResponse);
    req.on('timeout', () => req.destroy(new Error(`no answer from ${url} within ${common.timeout} ms`)));
    req.on('error', reject);
    req.end(options.body);
  });
}
