import type { ProjectConfig } from '../../project/model.js';
import type { Templates } from './render.js';

/** What `opgen init` scaffolds. */
export interface InitScaffold {
  project: ProjectConfig;
  license: 'apache2' | 'none';
  owner: string | undefined;
  /** The copyright year of the license header. */
  year: number;
  /** npm specs of the dependencies on opgen's own packages. */
  runtimeSpec: string;
  cliSpec: string;
  /** Versions of the generated project's dev tools, e.g. `{ typescript: '^5.9.3' }`. */
  devTools: Record<string, string>;
  /** The template set to render (default: the packaged one). */
  templates?: Templates;
  /** The license header as the project has it, instead of one rendered from `license`, `owner` and `year`. */
  boilerplate?: string;
}
