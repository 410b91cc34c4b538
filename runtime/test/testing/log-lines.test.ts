import { appendFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { followLog } from '../../src/testing/log-lines.js';

describe('followLog', () => {
  let dir: string;
  let file: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'opgen-log-lines-'));
    file = join(dir, 'operator.log');
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('has no lines while the file does not exist yet', () => {
    const log = followLog(file);
    log.update();
    expect(log.raw).toEqual([]);
  });

  it('parses the JSON object lines and keeps every line as written', () => {
    const log = followLog(file);
    appendFileSync(file, '{"level":"info","msg":"started"}\n(node:1) Warning: something\n[1,2]\n{"level":"error","msg":"failed","err":{"message":"boom"}}\n');

    log.update();

    expect(log.parsed).toEqual([
      { level: 'info', msg: 'started' },
      { level: 'error', msg: 'failed', err: { message: 'boom' } },
    ]);
    expect(log.raw).toEqual(['{"level":"info","msg":"started"}', '(node:1) Warning: something', '[1,2]', '{"level":"error","msg":"failed","err":{"message":"boom"}}']);
  });

  it('takes a line only once it is complete, even one split inside a character', () => {
    const log = followLog(file);
    const line = Buffer.from('{"msg":"créé"}\n');
    const cut = line.indexOf(Buffer.from('é')) + 1;

    appendFileSync(file, line.subarray(0, cut));
    log.update();
    expect(log.raw).toEqual([]);

    appendFileSync(file, line.subarray(cut));
    log.update();
    expect(log.parsed).toEqual([{ msg: 'créé' }]);
  });

  it('takes a last line without a newline when finished', () => {
    const log = followLog(file);
    appendFileSync(file, '{"msg":"one"}\n{"msg":"last"}');

    log.update();
    expect(log.parsed).toEqual([{ msg: 'one' }]);
    log.finish();
    expect(log.parsed).toEqual([{ msg: 'one' }, { msg: 'last' }]);
  });
});
