/** The group of an object's `apiVersion`: `apps` of `apps/v1`, `''` of the core group's `v1`. */
export function groupOf(apiVersion: string): string {
  const slash = apiVersion.indexOf('/');
  return slash < 0 ? '' : apiVersion.slice(0, slash);
}
