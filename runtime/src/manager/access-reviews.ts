import { createHash } from 'node:crypto';
import type { Transport } from '../rest/transport.js';
import { createTtlCache } from './ttl-cache.js';

/** Who a bearer token belongs to, as a TokenReview tells. */
export interface UserInfo {
  username: string;
  uid?: string;
  groups?: string[];
  extra?: Record<string, string[]>;
}

/** What is asked of a non-resource URL, e.g. `get` on `/metrics`. */
export interface NonResourceAccess {
  path: string;
  verb: string;
}

/** The API server's verdict on a SubjectAccessReview. */
export interface AccessDecision {
  allowed: boolean;
  /** Why, when the authorizer said (e.g. which binding allowed it). */
  reason: string;
}

/**
 * Delegated authentication and authorization: the API server decides, through
 * TokenReview and SubjectAccessReview, with the answers cached briefly.
 */
export interface AccessReviews {
  /** The token's user, or `undefined` when the API server does not accept the token. */
  authenticate(token: string): Promise<UserInfo | undefined>;
  authorize(user: UserInfo, access: NonResourceAccess): Promise<AccessDecision>;
}

/**
 * How long answers are kept. A positive answer lasts a minute, as controller-runtime
 * keeps tokens; a negative one ten seconds, so a newly bound role takes effect quickly.
 * A Prometheus scraping every 15-30 s then costs about one review pair a minute.
 */
export const REVIEW_CACHE_TTL_MS = { accepted: 60_000, rejected: 10_000 } as const;

interface TokenReview {
  status?: { authenticated?: boolean; user?: UserInfo; error?: string };
}

interface SubjectAccessReview {
  status?: { allowed?: boolean; denied?: boolean; reason?: string; evaluationError?: string };
}

/** {@link AccessReviews} through `transport`, whose identity needs `create` on tokenreviews and subjectaccessreviews. */
export function cachedAccessReviews(transport: Transport): AccessReviews {
  const ttl = (ok: boolean) => (ok ? REVIEW_CACHE_TTL_MS.accepted : REVIEW_CACHE_TTL_MS.rejected);
  const tokens = createTtlCache<UserInfo | undefined>((user) => ttl(user !== undefined));
  const decisions = createTtlCache<AccessDecision>((decision) => ttl(decision.allowed));

  return {
    authenticate(token) {
      // Keyed by a digest: the cache should not hold live credentials.
      const key = createHash('sha256').update(token).digest('base64');
      return tokens.get(key, async () => {
        const review = await transport.request<TokenReview>({
          method: 'POST',
          path: '/apis/authentication.k8s.io/v1/tokenreviews',
          body: { apiVersion: 'authentication.k8s.io/v1', kind: 'TokenReview', spec: { token } },
        });
        const user = review.status?.user;
        return review.status?.authenticated && user?.username ? user : undefined;
      });
    },

    authorize(user, access) {
      const key = JSON.stringify([user.username, user.uid, user.groups, user.extra, access.path, access.verb]);
      return decisions.get(key, async () => {
        const review = await transport.request<SubjectAccessReview>({
          method: 'POST',
          path: '/apis/authorization.k8s.io/v1/subjectaccessreviews',
          body: {
            apiVersion: 'authorization.k8s.io/v1',
            kind: 'SubjectAccessReview',
            spec: {
              user: user.username,
              uid: user.uid,
              groups: user.groups,
              extra: user.extra,
              nonResourceAttributes: { path: access.path, verb: access.verb },
            },
          },
        });
        const status = review.status ?? {};
        return { allowed: status.allowed === true && status.denied !== true, reason: status.reason ?? status.evaluationError ?? '' };
      });
    },
  };
}
