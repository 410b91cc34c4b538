// bench/manifests/cel.mjs: what type-checking CEL rules adds to `opgen manifests`, on the
// synthetic API with three rules on every kind's spec (the API without rules is the baseline;
// cel-js is loaded only when there is a rule).
// Usage: node bench/manifests/cel.mjs [--kinds 10,100] [--runs 5]. Needs `npm run build` first.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { parse } from 'yaml';
import { writeSyntheticApi } from './synthetic-api.mjs';

const { checkCelTypes } = await import(join(new URL('../../', import.meta.url).pathname, 'runtime/dist/internal/cel/check.js'));

const { values } = parseArgs({ options: { kinds: { type: 'string', default: '10,100' }, runs: { type: 'string', default: '5' } } });
const repo = new URL('../../', import.meta.url).pathname;
const rules = [
  "self.field0.startsWith('a') || self.field1 > 2",
  'self.field1 >= 1 && self.field1 <= 65535',
  "!has(self.field2) || self.field2 || self.field0 != ''",
];

function median(samples) {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

function seconds(dir, env) {
  return median(Array.from({ length: Number(values.runs) }, () => {
    const start = process.hrtime.bigint();
    execFileSync('node', [join(repo, 'bin/opgen.js'), 'manifests'], { cwd: dir, env, stdio: ['ignore', 'ignore', 'inherit'] });
    return Number(process.hrtime.bigint() - start) / 1e9;
  }));
}

console.log(`median of ${values.runs} fresh processes, load average ${loadavg()[0].toFixed(2)}`);
console.log('kinds  without rules(s)  with 3 rules per kind(s)  added(ms)  in-process type-check of every rule(ms)');
for (const kinds of values.kinds.split(',').map(Number)) {
  const root = mkdtempSync(join(tmpdir(), 'opgen-bench-cel-'));
  try {
    const plain = join(root, 'plain');
    const ruled = join(root, 'ruled');
    writeSyntheticApi({ kinds, fields: 30, tsDir: plain, goDir: join(root, 'go1') });
    writeSyntheticApi({ kinds, fields: 30, tsDir: ruled, goDir: join(root, 'go2') });
    const api = join(ruled, 'src/api/v1');
    for (const name of readdirSync(api).filter((n) => n.startsWith('widget'))) {
      const text = readFileSync(join(api, name), 'utf8');
      const markers = rules.map((rule) => ` * +kubebuilder:validation:XValidation:rule="${rule}"`).join('\n');
      const edited = text.replace(/^export interface (\w+Spec) \{/m, `/**\n${markers}\n */\nexport interface $1 {`);
      if (edited === text) throw new Error(`${name}: no Spec interface; update the bench`);
      writeFileSync(join(api, name), edited);
    }
    const env = { ...process.env, OPGEN_CACHE_DIR: join(root, 'cache') };
    const without = seconds(plain, env);
    const withRules = seconds(ruled, env);
    // The type-check alone, in this process once cel-js is loaded: the part that grows with the rules.
    const bases = join(ruled, 'config/crd/bases');
    const schemas = readdirSync(bases).map((name) => parse(readFileSync(join(bases, name), 'utf8')).spec.versions[0].schema.openAPIV3Schema);
    checkCelTypes(schemas[0]);
    const inProcess = median(Array.from({ length: Number(values.runs) }, () => {
      const start = process.hrtime.bigint();
      for (const schema of schemas) if (checkCelTypes(schema).length) throw new Error('a bench rule is refused');
      return Number(process.hrtime.bigint() - start) / 1e6;
    }));
    console.log(`${String(kinds).padStart(5)}  ${without.toFixed(2).padStart(16)}  ${withRules.toFixed(2).padStart(24)}  ${((withRules - without) * 1000).toFixed(0).padStart(9)}  ${inProcess.toFixed(1).padStart(38)}`);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}
