import { request } from 'node:https';

/** POSTs `body` to the webhook server, trusting only its certificate. */
export function post(url: string, caPem: string, body: string | Buffer, contentType = 'application/json'): Promise<{ status: number; text: string; json: any }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: 'POST', ca: caPem, headers: { 'content-type': contentType } }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (c: Buffer) => chunks.push(c));
      response.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        let json: unknown;
        try {
          json = JSON.parse(text);
        } catch {
          json = undefined;
        }
        resolve({ status: response.statusCode ?? 0, text, json });
      });
    });
    // The server may answer 413 and close before the whole body is sent.
    req.on('error', reject);
    req.end(body);
  });
}
