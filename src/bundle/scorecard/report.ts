import type { CheckResult } from './result.js';

/** The output formats of `opgen scorecard`. */
export const outputFormats = ['text', 'json', 'xml'] as const;
export type OutputFormat = (typeof outputFormats)[number];

/** The results in `format`: text for people, operator-sdk's v1alpha3 TestList as JSON, JUnit XML for CI. */
export function formatResults(results: readonly CheckResult[], format: OutputFormat): string {
  switch (format) {
    case 'text':
      return text(results);
    case 'json':
      return `${JSON.stringify(testList(results), null, 2)}\n`;
    case 'xml':
      return junit(results);
  }
}

function text(results: readonly CheckResult[]): string {
  const lines: string[] = [];
  for (const r of results) {
    lines.push(`${r.state.toUpperCase().padEnd(5)} ${r.name} (suite: ${r.suite})`);
    for (const e of r.errors) lines.push(`      error: ${e}`);
    for (const s of r.suggestions) lines.push(`      suggestion: ${s}`);
  }
  const passed = results.filter((r) => r.state === 'pass').length;
  lines.push(`scorecard: ${passed} of ${results.length} checks passed`);
  return `${lines.join('\n')}\n`;
}

function testList(results: readonly CheckResult[]) {
  return {
    apiVersion: 'scorecard.operatorframework.io/v1alpha3',
    kind: 'TestList',
    items: results.map((r) => ({
      kind: 'Test',
      apiVersion: 'scorecard.operatorframework.io/v1alpha3',
      spec: { entrypoint: ['opgen', 'scorecard', r.name], labels: { suite: r.suite, test: `${r.name}-test` } },
      status: { results: [{ name: r.name, log: r.log, state: r.state, errors: r.errors, suggestions: r.suggestions }] },
    })),
  };
}

function junit(results: readonly CheckResult[]): string {
  const failures = results.filter((r) => r.state === 'fail').length;
  const errors = results.filter((r) => r.state === 'error').length;
  const cases = results.map((r) => {
    const open = `  <testcase classname="${r.suite}" name="${xml(r.name)}">`;
    const body: string[] = [];
    if (r.state !== 'pass') body.push(`    <${r.state === 'fail' ? 'failure' : 'error'} message="${xml(r.errors[0] ?? r.state)}">${xml(r.errors.join('\n'))}</${r.state === 'fail' ? 'failure' : 'error'}>`);
    const out = [r.log.trimEnd(), ...r.suggestions.map((s) => `suggestion: ${s}`)].filter(Boolean).join('\n');
    if (out) body.push(`    <system-out>${xml(out)}</system-out>`);
    return body.length ? [open, ...body, '  </testcase>'].join('\n') : `${open}</testcase>`;
  });
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuite name="scorecard" tests="${results.length}" failures="${failures}" errors="${errors}">`,
    ...cases,
    '</testsuite>',
    '',
  ].join('\n');
}

function xml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}
