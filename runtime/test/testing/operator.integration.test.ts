import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { httpCall } from '../../src/testing/http.js';
import {
  installCRDs,
  kubectlFor,
  startControlPlane,
  startOperator,
  type ControlPlane,
  type Kubectl,
  type Operator,
  type OperatorOptions,
} from '../../src/testing/index.js';
import { WIDGET_CRD } from '../fixtures/kinds.js';

const fixtures = fileURLToPath(new URL('../fixtures/', import.meta.url));
const register = fileURLToPath(new URL('../fixtures/ts-register.mjs', import.meta.url));

describe('startOperator', () => {
  let cp: ControlPlane;
  let kubectl: Kubectl;
  const started: Operator[] = [];

  /** The widget manager, run from its TypeScript source as `node --import <loader> widget-manager.ts`. */
  const widgetManager = async (options: Partial<OperatorOptions> = {}): Promise<Operator> => {
    const operator = await startOperator({
      dir: fixtures,
      script: 'widget-manager.ts',
      execArgv: ['--import', register],
      kubeconfigPath: cp.kubeconfigPath,
      ...options,
    });
    started.push(operator);
    return operator;
  };

  beforeAll(async () => {
    cp = await startControlPlane();
    kubectl = kubectlFor(cp);
    await installCRDs(cp.kubeConfig, WIDGET_CRD);
  });
  afterEach(async () => {
    await Promise.all(started.splice(0).map((operator) => operator.kill()));
  });
  afterAll(() => cp?.stop());

  it('runs the operator against the cluster, awaits its log lines, and stops it with SIGTERM', async () => {
    const operator = await widgetManager({ name: 'widgets' });

    const starting = await operator.waitForLog('Starting workers', 60_000);
    expect(starting).toMatchObject({ level: 'info', workerCount: expect.any(Number) });
    await kubectl.apply({ apiVersion: 'test.opgen.dev/v1', kind: 'Widget', metadata: { name: 'w1', namespace: 'default' }, spec: { size: 3 } });
    await operator.waitForLog((line) => line.msg === 'reconcile finished' && line.name === 'w1');
    const widget = await kubectl.get('widget', 'w1');
    expect(widget.status).toEqual({ observedSize: 3, reconciledBy: String(operator.pid) });

    expect(await operator.stop()).toBe(0);
    expect(operator.logs().map((line) => line.msg)).toContain('Manager stopped');
    expect(await operator.exited).toBe(0);
  });

  it('serves the health probes on free ports when asked', async () => {
    const operator = await widgetManager({ ports: 'free' });

    expect(operator.ports).toEqual({ healthProbe: expect.any(Number), metrics: expect.any(Number) });
    const serving = await operator.waitForLog('Serving health probes', 60_000);
    expect(serving.bindAddress).toBe(`127.0.0.1:${operator.ports!.healthProbe}`);
    await operator.waitForLog('Starting workers');
    const ready = await httpCall(`http://127.0.0.1:${operator.ports!.healthProbe}/readyz`);
    expect(ready.status).toBe(200);
  });

  it('passes its environment: LOG_LEVEL=debug shows the informers syncing', async () => {
    const operator = await widgetManager({ env: { LOG_LEVEL: 'debug' } });

    const synced = await operator.waitForLog('informer synced', 60_000);
    expect(synced).toMatchObject({ level: 'debug', kind: 'Widget.test.opgen.dev' });
  });

  it('passes its flags, and rejects waitForLog with its output when it exits first', async () => {
    const operator = await widgetManager({ args: ['--log-level=verbose'] });

    await expect(operator.waitForLog('Starting workers')).rejects.toThrow(
      /^operator fixtures exited \(exit code 1\) before logging line with msg "Starting workers"\n--- last lines of its output ---\n[\s\S]*--log-level must be one of/,
    );
    expect(await operator.exited).toBe(1);
    // A stack trace is output, not log lines.
    expect(operator.logs()).toEqual([]);
    expect(operator.output()).toContain('Error: --log-level must be one of');
  });

  it('gives up waiting for a log line after the timeout, naming the predicate', async () => {
    const operator = await widgetManager();
    await operator.waitForLog('Starting workers', 60_000);

    await expect(operator.waitForLog((line) => line.msg === 'never logged', 300)).rejects.toThrow(
      /^operator fixtures logged no line matching \(line\) => line.msg === "never logged" within 300 ms\n--- last lines of its output ---\n.*"msg":"Starting workers"/s,
    );
  });

  it('kills it with SIGKILL, as when its node dies', async () => {
    const operator = await widgetManager();
    await operator.waitForLog('Starting workers', 60_000);

    expect(await operator.kill()).toBe('SIGKILL');
    expect(operator.logs().map((line) => line.msg)).not.toContain('Manager stopped');
    expect(await operator.stop()).toBe('SIGKILL');
  });
});
