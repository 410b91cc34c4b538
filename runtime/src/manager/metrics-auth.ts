import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Logger } from '../log/index.js';
import type { AccessReviews } from './access-reviews.js';

/** Lets a request through by calling `next`, or answers it itself. */
export type Guard = (request: IncomingMessage, response: ServerResponse, next: () => void) => void;

/**
 * Bearer-token authentication and authorization delegated to the API server, like
 * controller-runtime's `filters.WithAuthenticationAndAuthorization`: 401 without a
 * token the API server accepts, 403 when the token's user may not `<method>` the
 * requested path, 500 when the API server could not be asked.
 */
export function requireAuthorization(reviews: AccessReviews, log: Logger): Guard {
  return (request, response, next) => {
    const token = bearerToken(request.headers.authorization);
    if (!token) {
      reply(response, 401, 'Unauthorized', { 'www-authenticate': 'Bearer' });
      return;
    }
    const access = { path: new URL(request.url ?? '/', 'https://metrics').pathname, verb: (request.method ?? 'GET').toLowerCase() };
    let stage = 'Authentication';
    let username = '';
    const decide = async () => {
      const user = await reviews.authenticate(token);
      if (!user) {
        log.debug({ remoteAddress: request.socket.remoteAddress }, 'Authentication failed: the API server rejected the token');
        reply(response, 401, 'Unauthorized', { 'www-authenticate': 'Bearer' });
        return;
      }
      stage = 'Authorization';
      username = user.username;
      const decision = await reviews.authorize(user, access);
      if (!decision.allowed) {
        log.debug({ user: username, ...access, reason: decision.reason }, 'Authorization denied');
        reply(response, 403, `Authorization denied for user ${username}`);
        return;
      }
      next();
    };
    decide().catch((error: unknown) => {
      log.error({ err: error, user: username || undefined }, `${stage} failed`);
      reply(response, 500, stage === 'Authentication' ? 'Authentication failed' : `Authorization for user ${username} failed`);
    });
  };
}

/** The token of an `Authorization: Bearer <token>` header (scheme case-insensitive), if any. */
function bearerToken(header: string | undefined): string | undefined {
  const match = /^bearer\s+(\S+)\s*$/i.exec(header ?? '');
  return match?.[1];
}

function reply(response: ServerResponse, status: number, message: string, headers: Record<string, string> = {}): void {
  response.writeHead(status, { 'content-type': 'text/plain; charset=utf-8', 'x-content-type-options': 'nosniff', ...headers }).end(`${message}\n`);
}
