/**
 * Type names of imported CRDs, as kopium gives them: a nested object is named after its
 * parent and its field in PascalCase (`CertificateSpec`, `CertificateSpecPrivateKey`).
 *
 * @module
 */

/** `privateKey` → `PrivateKey`, `URLRewrite` → `UrlRewrite`, `x-forwarded` → `XForwarded` (heck's UpperCamelCase, as kopium). */
export function pascalCase(field: string): string {
  return field
    .split(/[^A-Za-z0-9]+/)
    .flatMap((part) => part.split(/(?<=[a-z0-9])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])/))
    .filter(Boolean)
    .map((word) => word[0]!.toUpperCase() + word.slice(1).toLowerCase())
    .join('');
}

/** Hands out type names, unique within one file: a second `FooBar` becomes `FooBar2`. */
export class NameTable {
  private readonly taken: Set<string>;

  constructor(reserved: Iterable<string>) {
    this.taken = new Set(reserved);
  }

  claim(wanted: string): string {
    const base = /^[A-Za-z_$]/.test(wanted) ? wanted : `T${wanted}`;
    let name = base;
    for (let n = 2; this.taken.has(name); n++) name = `${base}${n}`;
    this.taken.add(name);
    return name;
  }
}

/** A property key as TypeScript writes it: bare when it is an identifier, quoted otherwise. */
export function propertyKey(name: string): string {
  return /^[A-Za-z_$][\w$]*$/.test(name) ? name : `'${name.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
}
