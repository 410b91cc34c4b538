import { UserError } from '../errors.js';
import { invocation } from './invocation.js';

const component = '[a-zA-Z0-9](?:[a-zA-Z0-9-]*[a-zA-Z0-9])?';
const registry = `(?:${component}(?:\\.${component})*|\\[[0-9a-fA-F:]+\\])(?::[0-9]+)?`;
const pathComponent = '[a-z0-9]+(?:(?:[._]|__|-+)[a-z0-9]+)*';
// The grammar of the distribution reference: [registry/]path[:tag][@digest], lower-case path.
const imagePattern = new RegExp(
  `^(?:${registry}/)?${pathComponent}(?:/${pathComponent})*(?::[\\w][\\w.-]{0,127})?(?:@[A-Za-z][A-Za-z0-9]*(?:[-_+.][A-Za-z][A-Za-z0-9]*)*:[0-9a-fA-F]{32,})?$`,
);

/** Whether `image` is a container image reference a registry accepts. */
export function isImageReference(image: string): boolean {
  return image.length <= 255 && imagePattern.test(image);
}

/** The image from --image, else $IMG, checked against the image reference grammar. */
export function requireImage(option: string | undefined, command: string): string {
  const image = option ?? process.env.IMG;
  if (!image) {
    throw new UserError(
      `no image to deploy: pass --image <registry>/<name>:<tag> or set IMG (e.g. IMG=ghcr.io/me/operator:0.1.0 ${invocation(command)})`,
    );
  }
  if (!isImageReference(image)) {
    throw new UserError(`"${image}" is not an image reference: expected [<registry>/]<name>[:<tag>][@<digest>], lower case, e.g. ghcr.io/me/operator:0.1.0`);
  }
  return image;
}
