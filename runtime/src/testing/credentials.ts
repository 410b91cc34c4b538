import { generateKeyPairSync, randomBytes } from 'node:crypto';

/** A user the API server knows by a static bearer token. */
export interface StaticUser {
  name: string;
  groups: string[];
  token: string;
}

/** The user the harness hands to the caller: in `system:masters`, so allowed everything. */
export const ADMIN_USER = 'opgen-admin';

/** The RSA key pair the API server signs ServiceAccount tokens with. */
export function serviceAccountKeyPair(): { privateKeyPem: string; publicKeyPem: string } {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', {
    modulusLength: 2048,
    privateKeyEncoding: { type: 'pkcs1', format: 'pem' },
    publicKeyEncoding: { type: 'spki', format: 'pem' },
  });
  return { privateKeyPem: privateKey, publicKeyPem: publicKey };
}

/** A user with a fresh random token; names and groups must fit the API server's CSV file. */
export function staticUser(name: string, groups: string[] = []): StaticUser {
  for (const value of [name, ...groups]) {
    if (value === '' || /[",\n\r]/.test(value)) {
      throw new Error(`user or group name ${JSON.stringify(value)} is empty or contains a comma, quote or newline`);
    }
  }
  return { name, groups, token: randomBytes(24).toString('hex') };
}

/** The `--token-auth-file` content: `token,user,uid,"group1,group2"` per line. */
export function tokenAuthFile(users: StaticUser[]): string {
  return users.map((user) => `${user.token},${user.name},${user.name},"${user.groups.join(',')}"\n`).join('');
}
